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
  /** |score| each point of a run must reach to make a shift (default: threshold). */
  runThreshold?: number;
  /** log: counts (a doubling is as far as a halving); linear: ratios such as engagementRate, compared as differences. */
  scale?: 'log' | 'linear';
}

export const DAILY: Omit<AnomalyOptions, 'from'> = { season: 7, cycles: 4, threshold: 5, runThreshold: 3, minDeviation: 0.15 };
export const HOURLY: Omit<AnomalyOptions, 'from'> = { season: 24, cycles: 3, threshold: 5, runThreshold: 3.5, minDeviation: 0.5 };
const MAD_SCALE = 1.4826;
/** A spread floor (in log units) so a perfectly smooth history does not make every wobble infinite. */
const MIN_SPREAD = 0.03;
/** The same floor for linear-scale series, relative to their typical level. */
const MIN_LINEAR_SPREAD = 0.01;
/** A run of at least this many off points in one direction is a level shift. */
const SHIFT_RUN = 3;
/** Each point of a run must be at least this share of `minDeviation` off. */
const RUN_DEVIATION_SHARE = 0.6;

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
 * Scores every point against its baseline, in spreads of the residuals of the history window before it (median
 * and MAD, so earlier anomalies barely move them). A spike is one point at or above `threshold`; a shift is a run
 * of at least three consecutive points off in one direction at or above `runThreshold` each — a level change is
 * rarely extreme on its first day, but noise is almost never off three days running. Each run is reported once,
 * on its first point.
 */
export function findAnomalies(points: readonly SeriesPoint[], options: AnomalyOptions): Anomaly[] {
  const expected = points.map((p, i) => (p.incomplete ? undefined : expectedAt(points, i, options)));
  const residuals: (number | undefined)[] = points.map((p, i) => {
    const e = expected[i];
    if (e === undefined) return undefined;
    return options.scale === 'linear' ? p.value - e : logRatio(p.value, e);
  });
  const window = options.season * options.cycles;
  const runThreshold = options.runThreshold ?? options.threshold;
  const scored = points.map((point, i) => {
    const r = residuals[i];
    if (r === undefined) return undefined;
    const history: number[] = [];
    for (let j = Math.max(0, i - window); j < i; j++) if (residuals[j] !== undefined) history.push(residuals[j]!);
    if (history.length < options.season) return undefined;
    const center = median(history);
    const floor = options.scale === 'linear' ? MIN_LINEAR_SPREAD * Math.abs(median(points.slice(Math.max(0, i - window), i).map((p) => p.value))) : MIN_SPREAD;
    const spread = Math.max(floor, MAD_SCALE * median(history.map((h) => Math.abs(h - center))));
    const e = expected[i]!;
    const deviation = options.scale === 'linear' ? Math.abs(point.value / (e || 1) - 1) : Math.abs((point.value + 1) / (e + 1) - 1);
    return { key: point.key, index: i, observed: point.value, expected: e, score: round((r - center) / spread, 2), deviation };
  });
  const off = (s: (typeof scored)[number], threshold: number, minDeviation: number) => s !== undefined && Math.abs(s.score) >= threshold && s.deviation >= minDeviation;
  const out: Anomaly[] = [];
  for (let i = 0; i < scored.length; i++) {
    const s = scored[i];
    if (!s || !off(s, runThreshold, options.minDeviation * RUN_DEVIATION_SHARE)) continue;
    let length = 1;
    while (i + length < scored.length && off(scored[i + length], runThreshold, options.minDeviation * RUN_DEVIATION_SHARE) && Math.sign(scored[i + length]!.score) === Math.sign(s.score)) length++;
    const isShift = length >= SHIFT_RUN;
    const spike = off(s, options.threshold, options.minDeviation);
    if ((isShift || spike) && i >= options.from) {
      out.push({ key: s.key, index: i, observed: s.observed, expected: s.expected, score: s.score, direction: s.score > 0 ? 'up' : 'down', kind: isShift ? 'shift' : 'spike', length });
    }
    i += length - 1;
  }
  return out;
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
