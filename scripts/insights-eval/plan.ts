// Plans the seeded set of cases from each demo site's unplanted baseline: segment shifts, spikes, rate shifts,
// trends, two simultaneous shifts, the search losses (plan-search.ts) and quiet windows. Pure: the same baselines,
// seed and anchor give the same cases. Planted causes are big enough to be a fair question (MIN_* below).
import { addDays, type IsoDate } from '../../src/domain/calendar.ts';
import { customPeriod, RATE_METRICS, round, SHIFT_DIMENSIONS, SPIKE_DIMENSIONS, type Check, type EvalCase, type PlantedEvent, type ShiftDimension } from './cases.ts';
import { planSearchCases, type QueryBaseline } from './plan-search.ts';
import type { Random } from './random.ts';

export type { QueryBaseline } from './plan-search.ts';

export interface Segment {
  value: string;
  /** Share of the site's sessions in the baseline period. */
  share: number;
}

export interface SiteBaseline {
  project: string;
  propertyId: string;
  /** The engine1 site URL events name (the sandbox maps engine2's to the same site). */
  siteUrl: string;
  /** Whether the project reads engine2 (an engine2-only loss is only a fair question then). */
  engine2: boolean;
  segments: Record<ShiftDimension, Segment[]>;
  queries: QueryBaseline[];
  /** The site's search pages as paths with their clicks, most clicks first. */
  pages: { page: string; clicks: number }[];
}

/** How many cases of each family one site gets. */
export interface SiteMix {
  shifts: number;
  spikes: number;
  rateShifts: number;
  trends: number;
  twoEvents: number;
  queryLosses: number;
  engine2Losses: number;
  pageDrops: number;
  cannibalisations: number;
}

/** A planted shift moves the site's sessions (or a rate) by at least this share, so it is a cause worth naming. */
export const MIN_SHIFT_EFFECT = 0.04;
/** A shift this large is also a visible break in the total series: its first day is an anomaly case too. */
export const MIN_SHIFT_ANOMALY_EFFECT = 0.25;
/** A planted spike lifts the day's total by at least this share. */
export const MIN_SPIKE_EFFECT = 0.3;
/** Length of a change case's period (and of the previous period it is compared with); trends take 28. */
export const CHANGE_DAYS = 14;
export const TREND_DAYS = 28;
export const ANOMALY_DAYS = 90;
/** Metrics every project's quiet windows are asked about (one of each kind: count, two rates, search). */
export const QUIET_METRICS = ['sessions', 'sessionKeyEventRate', 'engagementRate', 'clicks'] as const;

export function planCases(sites: readonly SiteBaseline[], mixes: Readonly<Record<string, SiteMix>>, random: Random, anchor: IsoDate, prefix = ''): EvalCase[] {
  const cases: EvalCase[] = [];
  for (const site of sites) {
    const mix = mixes[site.project];
    if (!mix) continue;
    const planted: Omit<EvalCase, 'id'>[] = [
      ...planShifts(site, mix.shifts, random, anchor),
      ...planSpikes(site, mix.spikes, random, anchor),
      ...planRateShifts(site, mix.rateShifts, random, anchor),
      ...planTrends(site, mix.trends, random, anchor),
      ...planTwoEvents(site, mix.twoEvents, random, anchor),
      ...planSearchCases(site, mix, random, anchor),
    ];
    planted.forEach((c, i) => cases.push({ id: `${prefix}${site.project}-${String(i + 1).padStart(2, '0')}`, ...c }));
  }
  return cases;
}

/** Quiet windows: every project, every metric kind, `windows` 14-day periods a month apart, nothing planted. */
export function planQuietCases(sites: readonly SiteBaseline[], anchor: IsoDate, windows: number, prefix = ''): EvalCase[] {
  return sites.flatMap((site) => Array.from({ length: windows }, (_, w) => addDays(anchor, -w * 30)).flatMap((end) =>
    QUIET_METRICS.map((metric, m) => ({
      id: `${prefix}${site.project}-quiet-${end}-${m}`,
      project: site.project,
      family: 'quiet window' as const,
      events: [],
      checks: [{ insight: 'quiet' as const, period: customPeriod(addDays(end, -(CHANGE_DAYS - 1)), end), metric }],
    }))));
}

/** A segment of `dimension` whose share × |factor − 1| reaches `min`, not used yet. */
function pickSegment(site: SiteBaseline, dimension: ShiftDimension, factor: number, min: number, used: Set<string>, random: Random) {
  const candidates = site.segments[dimension].filter((s) => Math.abs(s.share * (factor - 1)) >= min && !used.has(`${dimension}=${s.value}`));
  if (candidates.length === 0) return undefined;
  const segment = random.pick(candidates);
  used.add(`${dimension}=${segment.value}`);
  return segment;
}

const changeStart = (random: Random, anchor: IsoDate) => addDays(anchor, -(CHANGE_DAYS - 1) - random.int(0, 30));
const changePeriod = (from: IsoDate, days = CHANGE_DAYS) => customPeriod(from, addDays(from, days - 1));

/** Dimensions take turns; one with no segment big enough for the drawn factor hands over to the next. */
function planSegments(count: number, random: Random, draw: (dimension: ShiftDimension) => Omit<EvalCase, 'id'> | undefined): Omit<EvalCase, 'id'>[] {
  const out: Omit<EvalCase, 'id'>[] = [];
  let misses = 0;
  for (let attempt = 0; out.length < count && attempt < count * 20; attempt++) {
    const planned = draw(SHIFT_DIMENSIONS[(out.length + misses) % SHIFT_DIMENSIONS.length] as ShiftDimension);
    if (planned) out.push(planned);
    else misses++;
  }
  return out;
}

function planShifts(site: SiteBaseline, count: number, random: Random, anchor: IsoDate): Omit<EvalCase, 'id'>[] {
  const used = new Set<string>();
  return planSegments(count, random, (dimension) => {
    const factor = random.next() < 0.5 ? random.factor(0.5, 0.7) : random.factor(1.5, 3);
    const segment = pickSegment(site, dimension, factor, MIN_SHIFT_EFFECT, used, random);
    if (!segment) return undefined;
    const from = changeStart(random, anchor);
    const effect = round(segment.share * (factor - 1));
    const checks: Check[] = [{ insight: 'changes', period: changePeriod(from), metric: 'sessions', truths: [{ dimension, value: segment.value }] }];
    if (Math.abs(effect) >= MIN_SHIFT_ANOMALY_EFFECT) checks.push(anomalyCheck(from, random, anchor));
    return { project: site.project, family: 'segment shift', events: [{ kind: 'segment_shift', property: site.propertyId, dimension, value: segment.value, from, factor }], effect, checks };
  });
}

function planSpikes(site: SiteBaseline, count: number, random: Random, anchor: IsoDate): Omit<EvalCase, 'id'>[] {
  const out: Omit<EvalCase, 'id'>[] = [];
  const days = new Set<IsoDate>();
  for (let attempt = 0; out.length < count && attempt < count * 20; attempt++) {
    const dimension = random.pick(SPIKE_DIMENSIONS);
    const factor = random.factor(3, 6);
    const candidates = site.segments[dimension].filter((s) => s.share * (factor - 1) >= MIN_SPIKE_EFFECT);
    const date = addDays(anchor, -random.int(3, 45));
    if (candidates.length === 0 || days.has(date)) continue;
    days.add(date);
    const segment = random.pick(candidates);
    const event: PlantedEvent = { kind: 'spike', property: site.propertyId, dimension, value: segment.value, date, factor };
    out.push({ project: site.project, family: 'spike', events: [event], effect: round(segment.share * (factor - 1)), checks: [anomalyCheck(date, random, anchor)] });
  }
  return out;
}

/** A rate on one segment moves with its sessions unchanged: conversion down on mobile, engagement up from email. */
function planRateShifts(site: SiteBaseline, count: number, random: Random, anchor: IsoDate): Omit<EvalCase, 'id'>[] {
  const used = new Set<string>();
  return planSegments(count, random, (dimension) => {
    const metric = RATE_METRICS[random.int(0, RATE_METRICS.length - 1)]!;
    // Engagement cannot pass 100%: it is planted falling, or rising a little.
    const factor = random.next() < 0.6 ? random.factor(0.55, 0.75) : metric === 'engagementRate' ? random.factor(1.15, 1.25) : random.factor(1.4, 1.8);
    const segment = pickSegment(site, dimension, factor, MIN_SHIFT_EFFECT, used, random);
    if (!segment) return undefined;
    const from = changeStart(random, anchor);
    return {
      project: site.project, family: 'rate shift', effect: round(segment.share * (factor - 1)),
      events: [{ kind: 'rate_shift', property: site.propertyId, dimension, value: segment.value, metric, from, factor }],
      checks: [{ insight: 'changes', period: changePeriod(from), metric, truths: [{ dimension, value: segment.value }] }],
    };
  });
}

/** A three-week slide of one segment, asked about over the 28 days from its start. */
function planTrends(site: SiteBaseline, count: number, random: Random, anchor: IsoDate): Omit<EvalCase, 'id'>[] {
  const used = new Set<string>();
  return planSegments(count, random, (dimension) => {
    const factor = random.next() < 0.6 ? random.factor(0.45, 0.65) : random.factor(1.6, 2.4);
    const segment = pickSegment(site, dimension, factor, MIN_SHIFT_EFFECT * 1.5, used, random);
    if (!segment) return undefined;
    const from = addDays(anchor, -(TREND_DAYS - 1) - random.int(0, 20));
    return {
      project: site.project, family: 'trend', effect: round(segment.share * (factor - 1)),
      events: [{ kind: 'trend', property: site.propertyId, dimension, value: segment.value, from, to: addDays(from, 20), factor }],
      checks: [{ insight: 'changes', period: changePeriod(from, TREND_DAYS), metric: 'sessions', truths: [{ dimension, value: segment.value }] }],
    };
  });
}

/** Two shifts on the same day in different dimensions: both must come first. */
function planTwoEvents(site: SiteBaseline, count: number, random: Random, anchor: IsoDate): Omit<EvalCase, 'id'>[] {
  const out: Omit<EvalCase, 'id'>[] = [];
  const used = new Set<string>();
  for (let attempt = 0; out.length < count && attempt < count * 20; attempt++) {
    const [d1, d2] = random.shuffle(SHIFT_DIMENSIONS).slice(0, 2) as [ShiftDimension, ShiftDimension];
    const f1 = random.factor(0.5, 0.7);
    const f2 = random.next() < 0.5 ? random.factor(0.5, 0.7) : random.factor(1.6, 2.5);
    const s1 = pickSegment(site, d1, f1, MIN_SHIFT_EFFECT, used, random);
    const s2 = s1 && pickSegment(site, d2, f2, MIN_SHIFT_EFFECT, used, random);
    if (!s1 || !s2) continue;
    const from = changeStart(random, anchor);
    out.push({
      project: site.project, family: 'two events', effect: round(s1.share * (f1 - 1) + s2.share * (f2 - 1)),
      events: [
        { kind: 'segment_shift', property: site.propertyId, dimension: d1, value: s1.value, from, factor: f1 },
        { kind: 'segment_shift', property: site.propertyId, dimension: d2, value: s2.value, from, factor: f2 },
      ],
      checks: [{ insight: 'changes', period: changePeriod(from), metric: 'sessions', truths: [{ dimension: d1, value: s1.value }, { dimension: d2, value: s2.value }] }],
    });
  }
  return out;
}

/** The 90 days ending a few days after `date` (never after the anchor), so the event has history before it. */
function anomalyCheck(date: IsoDate, random: Random, anchor: IsoDate): Check {
  const after = addDays(date, random.int(2, 20));
  const end = after > anchor ? anchor : after;
  return { insight: 'anomalies', period: customPeriod(addDays(end, -(ANOMALY_DAYS - 1)), end), metric: 'sessions', date };
}
