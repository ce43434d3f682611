// Plans the seeded set of events from each demo site's unplanted baseline: which segment shifts, spikes, ranking
// losses and cannibalisations, on which days, with which factors. Pure: the same baselines, seed and anchor give
// the same cases. Planted causes are chosen big enough to be a fair question (see MIN_* below), never trivial.
import { addDays, type IsoDate } from '../../src/domain/calendar.ts';
import { customPeriod, SHIFT_DIMENSIONS, SPIKE_DIMENSIONS, type Check, type EvalCase, type PlantedEvent, type ShiftDimension } from './cases.ts';
import type { Random } from './random.ts';

export interface Segment {
  value: string;
  /** Share of the site's sessions in the baseline period. */
  share: number;
}

export interface QueryBaseline {
  query: string;
  clicks: number;
  impressions: number;
  position: number;
  /** The site's pages ranking for it, as paths, most clicks first. */
  pages: string[];
}

export interface SiteBaseline {
  project: string;
  propertyId: string;
  /** The engine1 site URL events name (the sandbox maps engine2's to the same site). */
  siteUrl: string;
  segments: Record<ShiftDimension, Segment[]>;
  queries: QueryBaseline[];
  /** The site's search pages as paths, most clicks first. */
  pages: string[];
}

/** How many events of each kind one site gets. */
export interface SiteMix {
  shifts: number;
  spikes: number;
  rankingLosses: number;
  cannibalisations: number;
}

/** A planted shift moves the site's sessions by at least this share, so it is a cause worth naming. */
export const MIN_SHIFT_EFFECT = 0.04;
/** A shift this large is also a visible break in the total series: its first day is an anomaly case too. */
export const MIN_SHIFT_ANOMALY_EFFECT = 0.25;
/** A planted spike lifts the day's total by at least this share. */
export const MIN_SPIKE_EFFECT = 0.3;
/** Length of a change case's period (and of the previous period it is compared with). */
export const CHANGE_DAYS = 14;
export const ANOMALY_DAYS = 90;
export const SEARCH_DAYS = 14;

export function planCases(sites: readonly SiteBaseline[], mixes: Readonly<Record<string, SiteMix>>, random: Random, anchor: IsoDate): EvalCase[] {
  const cases: EvalCase[] = [];
  for (const site of sites) {
    const mix = mixes[site.project];
    if (!mix) continue;
    const planted: Omit<EvalCase, 'id'>[] = [
      ...planShifts(site, mix.shifts, random, anchor),
      ...planSpikes(site, mix.spikes, random, anchor),
      ...planRankingLosses(site, mix.rankingLosses, random, anchor),
      ...planCannibalisations(site, mix.cannibalisations, random, anchor),
    ];
    planted.forEach((c, i) => cases.push({ id: `${site.project}-${String(i + 1).padStart(2, '0')}`, ...c }));
  }
  return cases;
}

function planShifts(site: SiteBaseline, count: number, random: Random, anchor: IsoDate): Omit<EvalCase, 'id'>[] {
  const out: Omit<EvalCase, 'id'>[] = [];
  const used = new Set<string>();
  let misses = 0;
  for (let attempt = 0; out.length < count && attempt < count * 20; attempt++) {
    // Dimensions take turns; one with no segment big enough for the drawn factor hands over to the next.
    const dimension = SHIFT_DIMENSIONS[(out.length + misses) % SHIFT_DIMENSIONS.length] as ShiftDimension;
    const factor = random.next() < 0.5 ? random.factor(0.5, 0.7) : random.factor(1.5, 3);
    const candidates = site.segments[dimension].filter((s) => Math.abs(s.share * (factor - 1)) >= MIN_SHIFT_EFFECT && !used.has(`${dimension}=${s.value}`));
    if (candidates.length === 0) {
      misses++;
      continue;
    }
    const segment = random.pick(candidates);
    used.add(`${dimension}=${segment.value}`);
    const from = addDays(anchor, -(CHANGE_DAYS - 1) - random.int(0, 30));
    const effect = round(segment.share * (factor - 1));
    const event: PlantedEvent = { kind: 'segment_shift', property: site.propertyId, dimension, value: segment.value, from, factor };
    const checks: Check[] = [{ insight: 'changes', period: customPeriod(from, addDays(from, CHANGE_DAYS - 1)), metric: 'sessions' }];
    if (Math.abs(effect) >= MIN_SHIFT_ANOMALY_EFFECT) checks.push(anomalyCheck(from, random, anchor));
    out.push({ project: site.project, event, effect, checks });
  }
  return out;
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
    out.push({ project: site.project, event, effect: round(segment.share * (factor - 1)), checks: [anomalyCheck(date, random, anchor)] });
  }
  return out;
}

/** The 90 days ending a few days after `date` (never after the anchor), so the event has history before it. */
function anomalyCheck(date: IsoDate, random: Random, anchor: IsoDate): Check {
  const after = addDays(date, random.int(2, 20));
  const end = after > anchor ? anchor : after;
  return { insight: 'anomalies', period: customPeriod(addDays(end, -(ANOMALY_DAYS - 1)), end), metric: 'sessions', date };
}

function searchCase(site: SiteBaseline, event: PlantedEvent & { from: IsoDate }): Omit<EvalCase, 'id'> {
  return { project: site.project, event, checks: [{ insight: 'search', period: customPeriod(event.from, addDays(event.from, SEARCH_DAYS - 1)) }] };
}

function searchStart(random: Random, anchor: IsoDate): IsoDate {
  return addDays(anchor, -(SEARCH_DAYS - 1) - random.int(0, 20));
}

/** Queries the site ranks for on page one (average position ≤ 8) with real clicks fall to page two (11–15). */
function planRankingLosses(site: SiteBaseline, count: number, random: Random, anchor: IsoDate): Omit<EvalCase, 'id'>[] {
  const totalClicks = site.queries.reduce((sum, q) => sum + q.clicks, 0);
  const candidates = site.queries.filter((q) => q.position <= 8 && q.clicks >= Math.max(20, totalClicks * 0.002));
  return random.shuffle(candidates).slice(0, count).map((q) =>
    searchCase(site, { kind: 'ranking_loss', site: site.siteUrl, query: q.query, from: searchStart(random, anchor), position: random.int(11, 15) }),
  );
}

/** Queries with many impressions; a second page of the site starts competing with the one that ranks. */
function planCannibalisations(site: SiteBaseline, count: number, random: Random, anchor: IsoDate): Omit<EvalCase, 'id'>[] {
  const candidates = site.queries.filter((q) => q.pages.length > 0 && q.position <= 10 && q.impressions >= 200);
  const out: Omit<EvalCase, 'id'>[] = [];
  for (const q of random.shuffle(candidates).slice(0, count)) {
    const first = q.pages[0] as string;
    const others = site.pages.filter((p) => p !== first && !q.pages.includes(p)).slice(0, 20);
    if (others.length === 0) continue;
    out.push(searchCase(site, { kind: 'cannibalisation', site: site.siteUrl, query: q.query, pages: [first, random.pick(others)], from: searchStart(random, anchor) }));
  }
  return out;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
