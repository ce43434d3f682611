// The time side of a report: the site's daily totals grouped into the cells a request's time dimensions
// distinguish (a day, an hour, a weekday, a month, a realtime minute), with users de-duplicated across days.
import { apportionCells, type CellEffect, type ComboTable, type MetricPlan } from '../data/cube.ts';
import { createEffectMix, type EffectMix } from '../data/cell-effects.ts';
import { splitDelta } from '../data/cell-deltas.ts';
import { compactDate, dateParts, gaWeek, isoWeekOf, weekday, zonedParts } from '../data/calendar.ts';
import { hashString, gaussian } from '../data/hash.ts';
import type { CellTime } from '../data/own-trends.ts';
import { hourProfile, type SiteModel } from '../data/site-model.ts';
import type { ResolvedRange } from './report-request.ts';

export interface Cell {
  range: number;
  /** Values of the needed time dimensions, in `timeDims` order. */
  timeValues: string[];
  totals: Record<string, number>;
  jitterKey: number;
  time?: CellTime;
  noiseKey?: number;
  effects?: readonly CellEffect[];
  /** The combinations the cell is split over (set by the report engine when its range prunes more than another). */
  within?: Uint8Array;
}

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const HOUR_DIMS = new Set(['hour', 'dateHour']);
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export function timeValue(dim: string, day: number, hour: number, rangeStart: number): string {
  const p = dateParts(day);
  switch (dim) {
    case 'date': return compactDate(day);
    case 'dateHour': return compactDate(day) + pad(hour);
    case 'day': return pad(p.dayOfMonth);
    case 'dayOfWeek': return String(weekday(day));
    case 'dayOfWeekName': return DAY_NAMES[weekday(day)]!;
    case 'hour': return pad(hour);
    case 'month': return pad(p.month);
    case 'nthDay': return pad(day - rangeStart, 4);
    case 'week': return pad(gaWeek(day).week);
    case 'year': return String(p.year);
    case 'yearMonth': return `${p.year}${pad(p.month)}`;
    case 'isoWeek': return pad(isoWeekOf(day).week);
    case 'isoYear': return String(isoWeekOf(day).year);
    case 'isoYearIsoWeek': {
      const w = isoWeekOf(day);
      return `${w.year}${pad(w.week)}`;
    }
    case 'yearWeek': {
      const w = gaWeek(day);
      return `${w.year}${pad(w.week)}`;
    }
    default: throw new Error(`not a time dimension: ${dim}`);
  }
}

function hourTable(weights: number[]): ComboTable {
  const w = Float64Array.from(weights);
  return {
    dims: [], size: 24, weights: w, hashes: new Uint32Array(24),
    value: () => '', attr: () => new Float64Array(24).fill(1), ownAttr: () => undefined, matchShare: () => new Float64Array(24), volume: () => undefined,
  };
}

interface Bucket extends Cell {
  days: Set<number>;
  maxUsers: number;
  returning: number;
  newSum: number;
  /** Planted effects of the bucket's days: their deltas summed (the bucket's totals are the unplanted ones until finished). */
  planted?: EffectMix;
}

const USER_KEYS = ['totalUsers', 'activeUsers', 'newUsers'];

/**
 * Users are not additive over time: a user active on two days counts once. A bucket spanning n days keeps
 * every new user and de-duplicates returning ones by n^-0.45, never dropping below its busiest day.
 */
function finishUsers(b: Bucket): void {
  const n = b.days.size;
  if (n > 0) {
    const days = [...b.days];
    const first = Math.min(...days), last = Math.max(...days);
    b.time = { day: days.reduce((a, d) => a + d, 0) / n, span: last - first + 1 };
    // The days and time values alone: GA's numbers for a date range do not depend on its place among the request's ranges.
    b.noiseKey = hashString(`${first}|${last}|${b.timeValues.join('\u0001')}`) || 1;
  }
  const effects = b.planted?.result();
  if (n > 1 && b.totals.totalUsers !== undefined) {
    const summed = b.totals.totalUsers;
    const deduped = Math.max(b.maxUsers, Math.round(b.newSum + b.returning * Math.pow(n, -0.45)));
    const ratio = b.totals.totalUsers > 0 ? (b.totals.activeUsers ?? 0) / b.totals.totalUsers : 0;
    b.totals.totalUsers = Math.min(deduped, b.totals.totalUsers);
    if (b.totals.activeUsers !== undefined) b.totals.activeUsers = Math.min(b.totals.totalUsers, Math.round(b.totals.totalUsers * ratio));
    if (b.totals.newUsers !== undefined) b.totals.newUsers = Math.min(b.totals.newUsers, b.totals.totalUsers);
    // Planted users are de-duplicated as the bucket's own are.
    const kept = summed > 0 ? b.totals.totalUsers / summed : 1;
    for (const e of effects ?? []) {
      if (!e.delta) continue;
      const delta = { ...e.delta };
      for (const k of USER_KEYS) if (delta[k] !== undefined) delta[k] = Math.round(delta[k] * kept);
      (e as { delta?: Record<string, number> }).delta = delta;
    }
  }
  if (!effects) return;
  // The cell's totals are the planted ones; apportionCells splits them less the deltas, then adds the deltas.
  for (const e of effects) for (const [k, v] of Object.entries(e.delta ?? {})) if (b.totals[k] !== undefined) b.totals[k] += v;
  b.effects = effects;
}

function addInto(b: Bucket, totals: Readonly<Record<string, number>>, keys: readonly string[], day: number, effects?: readonly CellEffect[]): void {
  for (const k of keys) b.totals[k] = (b.totals[k] ?? 0) + (totals[k] ?? 0);
  if (effects?.length) (b.planted ??= createEffectMix()).add(effects, totals.sessions ?? totals[keys[0]!] ?? 1);
  b.days.add(day);
  b.maxUsers = Math.max(b.maxUsers, totals.totalUsers ?? 0);
  b.returning += (totals.totalUsers ?? 0) - (totals.newUsers ?? 0);
  b.newSum += totals.newUsers ?? 0;
}

/** A day's unplanted totals and its planted effects (their deltas scaled for a partial day), from the model. */
function dayParts(model: SiteModel, day: number, keys: readonly string[], fraction: number): { totals: Record<string, number>; effects?: CellEffect[] } {
  const planted = model.dailyTotals(day);
  const effects = model.dayEffects?.(day);
  const totals: Record<string, number> = { ...planted };
  for (const e of effects ?? []) for (const [k, v] of Object.entries(e.delta ?? {})) totals[k] = (totals[k] ?? 0) - v;
  if (fraction === 1) return { totals, ...(effects?.length ? { effects: [...effects] } : {}) };
  const scaled = scale(totals, keys, fraction);
  const partial = effects?.map((e) => (e.delta ? { ...e, delta: Object.fromEntries(Object.entries(e.delta).map(([k, v]) => [k, Math.round(v * fraction)])) } : e));
  return { totals: scaled, ...(partial?.length ? { effects: partial } : {}) };
}

/** A day's planted deltas split over its hours in proportion to each hour's unplanted part. */
function hourEffects(effects: readonly CellEffect[] | undefined, hourValues: Readonly<Record<string, Float64Array>>): CellEffect[][] | undefined {
  if (!effects?.length) return undefined;
  const byHour: CellEffect[][] = Array.from({ length: 24 }, () => []);
  const out = new Float64Array(24);
  for (const e of effects) {
    const deltas: Record<string, number>[] = Array.from({ length: 24 }, () => ({}));
    for (const [k, v] of Object.entries(e.delta ?? {})) {
      const parts = hourValues[k];
      if (!parts) continue;
      splitDelta(v, parts, out);
      for (let h = 0; h < 24; h++) deltas[h]![k] = out[h]!;
    }
    for (let h = 0; h < 24; h++) byHour[h]!.push(e.delta ? { ...e, delta: deltas[h]! } : e);
  }
  return byHour;
}

/** Cells of a core report: one per distinct tuple of needed time-dimension values per date range. */
export function coreCells(model: SiteModel, timeZone: string, now: Date, ranges: ResolvedRange[], timeDims: string[], plan: readonly MetricPlan[]): Cell[] {
  const keys = plan.map((m) => m.key);
  const { day: today, hour: nowHour, minute } = zonedParts(now, timeZone);
  const profile = hourProfile(model.site.kind);
  const todayWeights = profile.map((w, h) => (h < nowHour ? w : h === nowHour ? (w * minute) / 60 : 0));
  const todayFraction = todayWeights.reduce((a, b) => a + b, 0);
  const hourly = timeDims.some((d) => HOUR_DIMS.has(d));
  const cells: Bucket[] = [];
  ranges.forEach((range, r) => {
    const buckets = new Map<string, Bucket>();
    const bucketFor = (values: string[]) => {
      const key = values.join('\u0001');
      let b = buckets.get(key);
      if (!b) {
        b = { range: r, timeValues: values, totals: {}, jitterKey: 0, days: new Set(), maxUsers: 0, returning: 0, newSum: 0 };
        b.jitterKey = timeDims.length ? hashString(`${key}|${model.seed}`) || 1 : 0;
        buckets.set(key, b);
      }
      return b;
    };
    for (let day = range.start; day <= Math.min(range.end, today); day++) {
      const { totals: daily, effects } = dayParts(model, day, keys, day === today ? todayFraction : 1);
      if (!hourly) {
        addInto(bucketFor(timeDims.map((d) => timeValue(d, day, 0, range.start))), daily, keys, day, effects);
        continue;
      }
      const weights = (day === today ? todayWeights : profile).map((w, h) => w * Math.exp(0.08 * gaussian(model.seed, day, h)));
      apportionCells(hourTable(weights), [{ totals: daily, jitterKey: 0 }], plan, 0, (_, values) => {
        const byHour = hourEffects(effects, values);
        for (let h = 0; h < 24; h++) {
          const hourTotals: Record<string, number> = {};
          for (const k of keys) hourTotals[k] = values[k]![h]!;
          addInto(bucketFor(timeDims.map((d) => timeValue(d, day, h, range.start))), hourTotals, keys, day, byHour?.[h]);
        }
      });
    }
    // A range with no data still yields one empty cell so keepEmptyRows/totals behave.
    if (buckets.size === 0 && timeDims.length === 0) bucketFor([]);
    for (const b of buckets.values()) {
      finishUsers(b);
      cells.push(b);
    }
  });
  return cells;
}

function scale(totals: Readonly<Record<string, number>>, keys: readonly string[], fraction: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of keys) out[k] = Math.round((totals[k] ?? 0) * fraction);
  // Keep the chain intact after rounding.
  if (out.totalUsers !== undefined && out.sessions !== undefined) out.totalUsers = Math.min(out.totalUsers, out.sessions);
  if (out.activeUsers !== undefined && out.totalUsers !== undefined) out.activeUsers = Math.min(out.activeUsers, out.totalUsers);
  if (out.newUsers !== undefined && out.totalUsers !== undefined) out.newUsers = Math.min(out.newUsers, out.totalUsers);
  if (out.engagedSessions !== undefined && out.sessions !== undefined) out.engagedSessions = Math.min(out.engagedSessions, out.sessions);
  if (out.screenPageViews !== undefined && out.sessions !== undefined) out.screenPageViews = Math.max(out.screenPageViews, out.sessions);
  return out;
}

/**
 * Totals of one realtime minute: today's traffic at this hour spread over its minutes; "active users" in a
 * minute are roughly the sessions running then (about two minutes each).
 */
export function minuteTotals(model: SiteModel, timeZone: string, minuteEpoch: number): Record<string, number> {
  const instant = new Date(minuteEpoch * 60_000);
  const { day, hour } = zonedParts(instant, timeZone);
  const daily = model.dailyTotals(day);
  const perMinute = (daily.sessions ?? 0) * hourProfile(model.site.kind)[hour]! / 60;
  const noise = Math.exp(0.18 * gaussian(model.seed, minuteEpoch));
  const sessions = Math.round(perMinute * 2.1 * noise);
  const users = Math.min(sessions, Math.round(sessions * 0.93));
  const pv = Math.max(sessions, Math.round(perMinute * ((daily.screenPageViews ?? 0) / Math.max(1, daily.sessions ?? 1)) * noise));
  return {
    sessions, totalUsers: users, activeUsers: users, newUsers: Math.round(users * 0.5), engagedSessions: Math.round(sessions * 0.6),
    screenPageViews: pv, eventCount: Math.round(pv * 2.4), keyEvents: Math.round(perMinute * ((daily.keyEvents ?? 0) / Math.max(1, daily.sessions ?? 1)) * noise),
  };
}

/** Cells of a realtime report: one per minute (when minutesAgo is needed) or one per minute range. */
export function realtimeCells(model: SiteModel, timeZone: string, now: Date, ranges: ResolvedRange[], timeDims: string[], keys: readonly string[]): Cell[] {
  const nowMinute = Math.floor(now.getTime() / 60_000);
  const cells: Cell[] = [];
  ranges.forEach((range, r) => {
    const perMinute = timeDims.includes('minutesAgo');
    const total: Bucket = { range: r, timeValues: [], totals: {}, jitterKey: 0, days: new Set(), maxUsers: 0, returning: 0, newSum: 0 };
    for (let ago = range.end; ago <= range.start; ago++) {
      const t = minuteTotals(model, timeZone, nowMinute - ago);
      if (perMinute) {
        const cell: Cell = { range: r, timeValues: [pad(ago)], totals: {}, jitterKey: hashString(`${nowMinute - ago}`) || 1 };
        for (const k of keys) cell.totals[k] = t[k] ?? 0;
        cells.push(cell);
      } else {
        addInto(total, t, keys, ago);
      }
    }
    if (!perMinute) {
      // Users active over a window overlap minute to minute.
      const n = total.days.size;
      const factor = n > 1 ? Math.pow(n, -0.55) : 1;
      for (const k of ['totalUsers', 'activeUsers', 'newUsers']) if (total.totals[k] !== undefined) total.totals[k] = Math.round(total.totals[k] * factor);
      cells.push(total);
    }
  });
  return cells;
}
