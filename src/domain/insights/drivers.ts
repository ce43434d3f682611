// Drivers of a change across dimensions: each dimension decomposed (decompose.ts), the largest contributions of
// each kept, ranked together by |contribution|, and each marked `significant` when the answer stands behind it:
// big enough next to the strongest driver, moving unlike the rest of its dimension (not just sharing the overall
// trend), and not an echo of a stronger driver in another dimension ("desktop fell" only because Germany, mostly
// desktop, fell). The echo test reads the other dimensions inside the strongest driver (one 2-D breakdown each):
// if most of a driver's contribution happened inside the strongest driver, it is its echo.
// Every function reads the dimensions through their index (dimension-index.ts), built once per change, so no
// step looks at a whole dimension once per segment or per driver.
import { decompose, type Contribution } from './decompose.ts';
import { dimensionOf, indexDimension, isDistinct, ownChangeOf, type DimensionIndex, type DimensionSegments, type DriverIndex } from './dimension-index.ts';

export type { MetricKind } from './decompose.ts';
export type { DimensionSegments } from './dimension-index.ts';

export interface Driver extends Contribution {
  dimension: string;
  /** contribution / the total change (null when the total did not change). */
  share: number | null;
  significant: boolean;
  /** Why a driver is not significant: small, in_line (moved like the rest), echo (of `echoOf`). */
  reason?: 'small' | 'in_line' | 'echo';
  echoOf?: { dimension: string; value: string };
}

export interface DimensionSummary {
  dimension: string;
  /** The change of the metric over this dimension's rows (what its contributions sum to). */
  delta: number;
  /** Contributions of this dimension's values not listed among the drivers. */
  unlisted: number;
  segments: number;
}

export interface DriverAnalysis {
  drivers: Driver[];
  dimensions: DimensionSummary[];
}

export interface DriverOptions {
  /** Drivers kept per dimension (by |contribution|). */
  perDimension: number;
  /** Drivers in the answer. */
  max: number;
}

/** A driver smaller than this fraction of the strongest is noise next to it. */
export const MIN_SHARE_OF_STRONGEST = 0.15;
/** A driver with less than this part of its contribution outside the strongest driver is its echo. */
export const ECHO_OUTSIDE_SHARE = 0.5;
/** Counts: a segment moving less than this share of the previous total is too small to be a cause worth naming. */
export const MIN_SHARE_OF_TOTAL = 0.002;
/** Ratios: a segment moving the rate by less than this fraction of the previous rate is too small to name. */
export const MIN_SHARE_OF_RATE = 0.01;
/**
 * A segment that moved unlike its dimension by at least this much of itself (halved, or a rate down by a third) is
 * named however little it weighs next to the whole, if it holds at least MIN_OWN_WEIGHT of its dimension before:
 * a country halving is a cause even while the site grows around it.
 */
export const MIN_OWN_CHANGE = 0.3;
export const MIN_OWN_WEIGHT = 0.01;

/**
 * Every dimension decomposed; of each, the segments that moved unlike the rest come first, then the largest
 * contributions, `perDimension` in all. Ranked together by |contribution|; `markSignificance` then puts the
 * significant ones first.
 */
export function rankDrivers(index: DriverIndex, totalDelta: number, options: DriverOptions): DriverAnalysis {
  const candidates: Driver[] = [];
  const deltas: { dimension: string; delta: number; segments: number }[] = [];
  for (const { dimension, segments, distinct } of index.dimensions) {
    const result = decompose(index.kind, segments);
    const byDistinctThenMagnitude = (a: Contribution, b: Contribution) => Number(distinct.has(b.value)) - Number(distinct.has(a.value)) || byMagnitude(a, b);
    const top = firstInOrder(
      result.segments.filter((c) => c.contribution !== 0),
      options.perDimension,
      byDistinctThenMagnitude,
    );
    deltas.push({ dimension, delta: result.delta, segments: segments.length });
    for (const c of top) candidates.push({ ...c, dimension, share: totalDelta === 0 ? null : c.contribution / totalDelta, significant: false });
  }
  const drivers = keepSurfacing(index, candidates.sort(byMagnitude), options.max);
  // What is unlisted is measured against the answer's drivers, after the cut to `max`: a value ranked within its
  // dimension but cut overall is not listed either.
  const summaries = deltas.map(({ dimension, delta, segments }) => {
    const listed = drivers.reduce((a, d) => (d.dimension === dimension ? a + d.contribution : a), 0);
    return { dimension, delta, unlisted: delta - listed, segments };
  });
  return { drivers, dimensions: summaries };
}

/**
 * The first `max` by |contribution|, except that a segment that moved a lot of itself (`surfaces`) and was cut
 * takes the place of the last kept one that did not move unlike its dimension.
 */
function keepSurfacing(index: DriverIndex, sorted: Driver[], max: number): Driver[] {
  const kept = sorted.slice(0, max);
  const cut = sorted.slice(max).filter((d) => surfaces(index, d));
  for (const driver of cut) {
    const at = kept.findLastIndex((d) => !isDistinct(index, d));
    if (at < 0) break;
    kept.splice(at, 1);
    kept.push(driver);
  }
  return kept.sort(byMagnitude);
}

/** The segment moved unlike its dimension, by at least MIN_OWN_CHANGE of itself, and holds MIN_OWN_WEIGHT of it. */
export function surfaces(index: DriverIndex, driver: { dimension: string; value: string }): boolean {
  const dimension = dimensionOf(index, driver.dimension);
  const segment = dimension?.byValue.get(driver.value);
  if (!dimension || !segment || !dimension.distinct.has(driver.value)) return false;
  const own = ownChangeOf(index.kind, segment);
  const weight = index.kind === 'ratio' ? segment.den0 / dimension.totals.den0 : segment.num0 / dimension.totals.num0;
  return own !== null && Math.abs(own) >= MIN_OWN_CHANGE && weight >= MIN_OWN_WEIGHT;
}

function byMagnitude(a: { contribution: number }, b: { contribution: number }): number {
  return Math.abs(b.contribution) - Math.abs(a.contribution);
}

/**
 * The first `k` items a stable sort by `compare` would give, in that order, without sorting them all: one pass
 * keeping a sorted list of at most k (O(n·k); k is the handful of drivers kept per dimension).
 */
export function firstInOrder<T>(items: readonly T[], k: number, compare: (a: T, b: T) => number): T[] {
  const kept: T[] = [];
  if (k <= 0) return kept;
  for (const item of items) {
    if (kept.length === k && compare(item, kept[k - 1]!) >= 0) continue;
    // After every kept item that does not come after it: equal items keep their input order, as a stable sort.
    let at = kept.length;
    while (at > 0 && compare(item, kept[at - 1]!) < 0) at--;
    kept.splice(at, 0, item);
    if (kept.length > k) kept.pop();
  }
  return kept;
}

/** The strongest driver that moved unlike the rest of its dimension: the reference echoes are tested against. */
export function strongestDistinct(index: DriverIndex, drivers: readonly Driver[]): Driver | undefined {
  return drivers.find((d) => isDistinct(index, d));
}

/**
 * `inside`: for each other dimension, its segments restricted to the reference driver's segment (e.g. devices
 * within Germany). Mutates nothing; returns the drivers with `significant` and `reason` set.
 */
export function markSignificance(index: DriverIndex, drivers: readonly Driver[], reference: Driver | undefined, inside: readonly DimensionSegments[]): Driver[] {
  // Small is judged against the strongest real mover and the total change, whichever is larger (in a quiet period
  // the strongest mover is itself tiny, and noise in a big segment is no yardstick either); a segment that moved a
  // lot of itself is not small however little it weighs next to them.
  // The total change is a yardstick for rates only: a count's total carries the whole site's drift.
  const total = index.kind === 'ratio' ? Math.abs(totalChangeOf(drivers)) : 0;
  const yardstick = Math.max(total, Math.abs(reference?.contribution ?? Math.max(0, ...drivers.map((d) => Math.abs(d.contribution)))));
  const outside = outsideOf(index, reference, inside);
  const marked = drivers.map((driver) => {
    const { significant: _old, reason: _r, echoOf: _e, ...plain } = driver;
    const small = (Math.abs(driver.contribution) < MIN_SHARE_OF_STRONGEST * yardstick && !surfaces(index, driver)) || tooSmallForTotal(index, driver);
    if (small) return { ...plain, significant: false, reason: 'small' as const };
    if (!isDistinct(index, driver)) return { ...plain, significant: false, reason: 'in_line' as const };
    if (reference && driver.dimension !== reference.dimension && isEcho(index.kind, driver, outside(driver.dimension))) {
      return { ...plain, significant: false, reason: 'echo' as const, echoOf: { dimension: reference.dimension, value: reference.value } };
    }
    return { ...plain, significant: true };
  });
  // The drivers the answer stands behind lead; within each group, by |contribution|.
  return [...marked.filter((d) => d.significant), ...marked.filter((d) => !d.significant)];
}

/** The total change, read back from any driver's share of it (0 when none has one). */
function totalChangeOf(drivers: readonly Driver[]): number {
  const withShare = drivers.find((d) => d.share !== null && d.share !== 0);
  return withShare ? withShare.contribution / withShare.share! : 0;
}

/** Counts: under MIN_SHARE_OF_TOTAL of the previous total; ratios: under MIN_SHARE_OF_RATE of the previous rate. */
function tooSmallForTotal(index: DriverIndex, driver: Driver): boolean {
  const totals = dimensionOf(index, driver.dimension)?.totals;
  if (!totals) return false;
  if (index.kind === 'additive') return totals.num0 > 0 && Math.abs(driver.contribution) < MIN_SHARE_OF_TOTAL * totals.num0;
  const rate = totals.den0 > 0 ? Math.abs(totals.num0 / totals.den0) : 0;
  return rate > 0 && Math.abs(driver.contribution) < MIN_SHARE_OF_RATE * rate;
}

/** A dimension with the reference segment taken out, decomposed again: built once per dimension, on first use. */
interface Outside {
  index: DimensionIndex;
  contributions: ReadonlyMap<string, number>;
}

/**
 * Each dimension without the reference segment (each value minus its part inside it), for the echo test; undefined
 * for a dimension whose breakdown inside the reference is unknown.
 */
function outsideOf(index: DriverIndex, reference: Driver | undefined, inside: readonly DimensionSegments[]): (dimension: string) => Outside | undefined {
  const built = new Map<string, Outside | undefined>();
  return (dimension) => {
    if (built.has(dimension)) return built.get(dimension);
    const insideSegments = reference ? inside.find((d) => d.dimension === dimension)?.segments : undefined;
    const whole = dimensionOf(index, dimension);
    let result: Outside | undefined;
    if (insideSegments && whole) {
      const within = new Map(insideSegments.map((s) => [s.value, s]));
      const segments = whole.segments.map((s) => {
        const part = within.get(s.value);
        if (!part) return s;
        return { value: s.value, num0: s.num0 - part.num0, den0: s.den0 - part.den0, num1: s.num1 - part.num1, den1: s.den1 - part.den1 };
      });
      const contributions = new Map(decompose(index.kind, segments).segments.map((c) => [c.value, c.contribution]));
      result = { index: indexDimension(index.kind, { dimension, segments }), contributions };
    }
    built.set(dimension, result);
    return result;
  };
}

/**
 * Recompute the driver's dimension without the reference segment: if what remains of the driver's contribution is
 * less than half of it, or has the other sign, the driver is an echo.
 */
function isEcho(kind: DriverIndex['kind'], driver: Driver, outside: Outside | undefined): boolean {
  if (!outside) return false;
  const remaining = outside.contributions.get(driver.value) ?? 0;
  if (Math.sign(remaining) !== Math.sign(driver.contribution)) return true;
  if (Math.abs(remaining) < ECHO_OUTSIDE_SHARE * Math.abs(driver.contribution)) return true;
  // Outside the reference the segment must still move unlike its peers, or what is left is the overall trend.
  return !isDistinct({ kind, dimensions: [outside.index] }, driver);
}
