// Days that break a series' own pattern. The baseline is weekday-aware and robust: each day's expected value is
// the median of the same weekday over the preceding four weeks, so a Monday is compared with Mondays. How far off a day is, is measured in robust spreads: the median absolute deviation (MAD, × 1.4826 to
// match a standard deviation) of the log ratio observed/expected over the preceding days. A run of consecutive
// days off in the same direction is one anomaly (a level shift) reported on its first day.

export interface SeriesPoint {
  /** YYYY-MM-DD, or an hour key; points are consecutive and in order. */
  key: string;
  value: number;
  /** The provider may still revise it: never reported, never used as a baseline. */
  incomplete?: boolean;
}

export interface Anomaly {
  key: string;
  index: number;
  observed: number;
  expected: number;
  /** log(observed / expected) in robust spreads; its sign is the direction. */
  score: number;
  direction: 'up' | 'down';
  /** spike: one point off its pattern; shift: the first point of a run that stays off. */
  kind: 'spike' | 'shift';
  /** A shift: how many consecutive points stayed off. */
  length: number;
}

export interface AnomalyOptions {
  /** Points per seasonal cycle (7 for days, 24 for hours). */
  season: number;
  /** Seasonal cycles of history each baseline uses. */
  cycles: number;
  /** |score| at or above which a point is anomalous. */
  threshold: number;
  /** The relative deviation |observed/expected − 1| a point must also reach (tiny series have tiny MADs). */
  minDeviation: number;
  /** Points from this index on are candidates (the ones before only serve as history). */
  from: number;
  /** log: counts (a doubling is as far as a halving); linear: ratios such as engagementRate, compared as differences. */
  scale?: 'log' | 'linear';
}

export const DAILY: Omit<AnomalyOptions, 'from'> = { season: 7, cycles: 4, threshold: 4.5, minDeviation: 0.2 };
export const HOURLY: Omit<AnomalyOptions, 'from'> = { season: 24, cycles: 3, threshold: 5, minDeviation: 0.5 };
const MAD_SCALE = 1.4826;
/** A spread floor (in log units) so a perfectly smooth history does not make every wobble infinite. */
const MIN_SPREAD = 0.03;
/** The same floor for linear-scale series, relative to their typical level. */
const MIN_LINEAR_SPREAD = 0.01;
/** A run of at least this many off points in one direction is a level shift. */
const SHIFT_RUN = 3;

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The expected value of point i from the same phase of the previous `cycles` cycles (complete points only). */
export function expectedAt(points: readonly SeriesPoint[], i: number, options: Pick<AnomalyOptions, 'season' | 'cycles'>): number | undefined {
  const same: number[] = [];
  for (let c = 1; c <= options.cycles; c++) {
    const p = points[i - c * options.season];
    if (p && !p.incomplete) same.push(p.value);
  }
  if (same.length < Math.min(2, options.cycles)) return undefined;
  return median(same);
}

/** log(observed/expected) with +1 smoothing, so zeros stay finite. */
function logRatio(observed: number, expected: number): number {
  return Math.log((observed + 1) / (expected + 1));
}

/**
 * Scores every candidate point against its baseline; the spread is the MAD of the residuals of the history
 * window before it, which excludes points already flagged so one anomaly does not hide the next.
 */
export function findAnomalies(points: readonly SeriesPoint[], options: AnomalyOptions): Anomaly[] {
  const residuals: (number | undefined)[] = points.map((p, i) => {
    if (p.incomplete) return undefined;
    const expected = expectedAt(points, i, options);
    if (expected === undefined) return undefined;
    return options.scale === 'linear' ? p.value - expected : logRatio(p.value, expected);
  });
  const window = options.season * options.cycles;
  const flagged = new Set<number>();
  const hits: Omit<Anomaly, 'kind' | 'length'>[] = [];
  for (let i = 0; i < points.length; i++) {
    const r = residuals[i];
    if (r === undefined) continue;
    const history: number[] = [];
    for (let j = Math.max(0, i - window); j < i; j++) if (residuals[j] !== undefined && !flagged.has(j)) history.push(residuals[j]!);
    if (history.length < options.season) continue;
    const center = median(history);
    const floor = options.scale === 'linear' ? MIN_LINEAR_SPREAD * Math.abs(median(points.slice(Math.max(0, i - window), i).map((p) => p.value))) : MIN_SPREAD;
    const spread = Math.max(floor, MAD_SCALE * median(history.map((h) => Math.abs(h - center))));
    const score = (r - center) / spread;
    const point = points[i]!;
    const expected = expectedAt(points, i, options)!;
    const deviation = options.scale === 'linear' ? Math.abs(point.value / (expected || 1) - 1) : Math.abs((point.value + 1) / (expected + 1) - 1);
    if (Math.abs(score) < options.threshold || deviation < options.minDeviation) continue;
    flagged.add(i);
    if (i >= options.from) hits.push({ key: point.key, index: i, observed: point.value, expected, score: round(score, 2), direction: score > 0 ? 'up' : 'down' });
  }
  return groupRuns(hits);
}

/** Consecutive hits in one direction: the first one stands for the run. */
function groupRuns(hits: readonly Omit<Anomaly, 'kind' | 'length'>[]): Anomaly[] {
  const out: Anomaly[] = [];
  for (const hit of hits) {
    const last = out.at(-1);
    if (last && last.direction === hit.direction && hit.index === last.index + last.length) {
      last.length += 1;
      if (last.length >= SHIFT_RUN) last.kind = 'shift';
      continue;
    }
    out.push({ ...hit, kind: 'spike', length: 1 });
  }
  return out;
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
