// One dimension's segments read once: their totals, each segment by value, and which values moved unlike the rest
// of the dimension. A search dimension can hold tens of thousands of values (queries, pages), so nothing here may
// look at the whole dimension once per segment: the totals are summed once, "the rest" of a segment is the totals
// less the segment, and the only superlinear step is sorting for medians — O(n log n) per dimension.
import { growth, restOf, totalsOf, type MetricKind, type SegmentFigures } from './decompose.ts';

export interface DimensionSegments {
  dimension: string;
  segments: readonly SegmentFigures[];
}

export interface DimensionIndex extends DimensionSegments {
  totals: SegmentFigures;
  byValue: ReadonlyMap<string, SegmentFigures>;
  /** The values that moved unlike the rest of the dimension (`distinctValues`). */
  distinct: ReadonlySet<string>;
}

/** Every dimension of a change, indexed for one metric kind. */
export interface DriverIndex {
  kind: MetricKind;
  dimensions: readonly DimensionIndex[];
}

export function indexDimension(kind: MetricKind, { dimension, segments }: DimensionSegments): DimensionIndex {
  const totals = totalsOf(segments);
  return { dimension, segments, totals, byValue: new Map(segments.map((s) => [s.value, s])), distinct: distinctValues(kind, segments, totals) };
}

export function indexDimensions(kind: MetricKind, dimensions: readonly DimensionSegments[]): DriverIndex {
  return { kind, dimensions: dimensions.map((d) => indexDimension(kind, d)) };
}

export function dimensionOf(index: DriverIndex, dimension: string): DimensionIndex | undefined {
  return index.dimensions.find((d) => d.dimension === dimension);
}

/** The segment moved differently from the rest of its dimension (else it only carries the overall trend). */
export function isDistinct(index: DriverIndex, driver: { dimension: string; value: string }): boolean {
  return dimensionOf(index, driver.dimension)?.distinct.has(driver.value) ?? false;
}

/** Additive: the segment's relative change must differ from the rest of its dimension by at least this much. */
export const MIN_GROWTH_GAP = 0.1;
/** Ratio: the segment's ratio must move, relative to its previous value, at least this much more than the rest. */
export const MIN_RATIO_GAP = 0.05;
/** How many robust spreads (of the size-scaled gaps across a dimension) a count's gap must reach. */
export const NOISE_SPREADS = 4;
/**
 * Ratio: the sessions or impressions a segment needs in each range before its rate can be told from chance. A rate
 * over a handful of sessions swings by tens of points on one conversion.
 */
export const MIN_RATIO_VOLUME = 200;
/** gap × √previous is about a Poisson z-score: below this, even a lone segment's move is chance. */
const MIN_COUNT_Z = 4;
/** Ratio: a rate's move against the rest's, in standard errors of the two-proportion test, must reach this. */
const MIN_RATE_Z = 4;
const MIN_TYPICAL_SHARE = 0.01;
const MAD_SCALE = 1.4826;

/**
 * The values of a dimension that moved unlike the rest of it. Counts: the gap between a segment's relative change
 * and the dimension's typical one (the median segment's) must be at least 10 points, and stand out from chance and
 * from the dimension's own noise — the gap scaled by √(previous) (small segments wobble more) must reach 4, and 4
 * robust spreads (MAD) of the scaled gaps across the dimension. A value absent before has no relative change: its
 * gap is its appearance in standard errors (2√current, the variance-stabilised Poisson step from 0), never infinite.
 * Ratios: the segment needs a volume behind both ranges; then its ratio moved at least 5% more than the rest's and
 * beyond sampling noise (two-proportion z for rates of a fraction), or its weight moved 10 points more.
 * A dimension of two values has one gap only (between them): at most one value is distinct, the one that moved most.
 */
export function distinctValues(kind: MetricKind, all: readonly SegmentFigures[], totals: SegmentFigures = totalsOf(all)): Set<string> {
  const distinct = kind === 'ratio' ? distinctRatios(all, totals) : distinctCounts(all, totals);
  if (all.length !== 2 || distinct.size < 2) return distinct;
  return new Set([mostMoved(kind, all)]);
}

function distinctRatios(all: readonly SegmentFigures[], totals: SegmentFigures): Set<string> {
  return new Set(
    all
      .filter((s) => hasVolume(s))
      .filter((s) => (ratioMove(s, totals) >= MIN_RATIO_GAP && rateBeyondNoise(s, totals)) || weightMove(s, totals) >= MIN_GROWTH_GAP)
      .map((s) => s.value),
  );
}

function distinctCounts(all: readonly SegmentFigures[], totals: SegmentFigures): Set<string> {
  // The dimension's typical growth: the median over segments holding at least 1% of it (one moving segment
  // cannot drag it, as it drags "the rest" when it is large). Two values: the other one is the typical.
  const typical = middle(all.filter((s) => s.num0 > 0 && s.num0 >= MIN_TYPICAL_SHARE * totals.num0).map((s) => (s.num1 - s.num0) / s.num0));
  const gaps = all.map((segment) => {
    const own = growth(segment.num1, segment.num0);
    if (own === null) return { segment, gap: segment.num1 > 0 ? 1 : 0, scaled: 2 * Math.sqrt(Math.max(0, segment.num1)) };
    const gap = all.length === 2 ? own - (growth(totals.num1 - segment.num1, totals.num0 - segment.num0) ?? typical) : own - typical;
    return { segment, gap, scaled: gap * Math.sqrt(segment.num0) };
  });
  const scaled = gaps.map((g) => g.scaled);
  const center = middle(scaled);
  const spread = scaled.length >= 5 ? MAD_SCALE * middle(scaled.map((v) => Math.abs(v - center))) : 0;
  return new Set(
    gaps.filter((g) => Math.abs(g.gap) >= MIN_GROWTH_GAP && Math.abs(g.scaled) >= MIN_COUNT_Z && Math.abs(g.scaled - center) >= NOISE_SPREADS * spread).map((g) => g.segment.value),
  );
}

/** Of two values, the one whose own relative change (counts) or rate (ratios) moved most. */
function mostMoved(kind: MetricKind, two: readonly SegmentFigures[]): string {
  const [a, b] = two as [SegmentFigures, SegmentFigures];
  const moved = (s: SegmentFigures) => Math.abs(ownChangeOf(kind, s) ?? 0);
  return moved(a) >= moved(b) ? a.value : b.value;
}

/**
 * A segment's own relative change: a count's growth, a ratio's relative move; null when it had nothing before.
 * It ranks a halved segment that contributes little next to a growing whole.
 */
export function ownChangeOf(kind: MetricKind, s: SegmentFigures): number | null {
  if (kind === 'additive') return growth(s.num1, s.num0);
  if (s.den0 <= 0 || s.den1 <= 0) return null;
  const before = s.num0 / s.den0;
  return before === 0 ? null : (s.num1 / s.den1 - before) / Math.abs(before);
}

function hasVolume(s: SegmentFigures): boolean {
  return s.den0 >= MIN_RATIO_VOLUME && s.den1 >= MIN_RATIO_VOLUME;
}

/**
 * Two-proportion z of the segment's rate change against the rest's (difference in differences). Only rates of a
 * fraction (≤ 1 in both ranges) have a binomial noise; a ratio that is not one (a position) passes on volume alone.
 */
function rateBeyondNoise(segment: SegmentFigures, totals: SegmentFigures): boolean {
  const rest = restOf(segment, totals);
  const rates = [segment.num0 / segment.den0, segment.num1 / segment.den1, rest.num0 / rest.den0, rest.num1 / rest.den1];
  if (rates.some((r) => r < 0 || r > 1)) return true;
  const [p0, p1, q0, q1] = rates as [number, number, number, number];
  const variance = (p: number, n: number) => (p * (1 - p)) / n;
  // A rest too small to have a rate of its own (one segment is nearly the whole dimension): the segment is set
  // against its own previous rate.
  const withRest = hasVolume(rest);
  const restVariance = withRest ? variance(q0, rest.den0) + variance(q1, rest.den1) : 0;
  const se = Math.sqrt(variance(p0, segment.den0) + variance(p1, segment.den1) + restVariance);
  const diff = p1 - p0 - (withRest ? q1 - q0 : 0);
  return se === 0 ? diff !== 0 : Math.abs(diff) / se >= MIN_RATE_Z;
}

function middle(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = Float64Array.from(values).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function ratioMove(segment: SegmentFigures, totals: SegmentFigures): number {
  const rest = restOf(segment, totals);
  const own = segment.den0 > 0 && segment.den1 > 0 ? relative(segment.num1 / segment.den1, segment.num0 / segment.den0) : null;
  const other = rest.den0 > 0 && rest.den1 > 0 ? relative(rest.num1 / rest.den1, rest.num0 / rest.den0) : 0;
  return own === null ? Infinity : Math.abs(own - other);
}

function weightMove(segment: SegmentFigures, totals: SegmentFigures): number {
  const rest = restOf(segment, totals);
  const own = segment.den0 > 0 ? segment.den1 / segment.den0 - 1 : null;
  const other = rest.den0 > 0 ? rest.den1 / rest.den0 - 1 : 0;
  return own === null ? Infinity : Math.abs(own - other);
}

function relative(now: number, before: number): number {
  return before === 0 ? (now === 0 ? 0 : Infinity) : (now - before) / Math.abs(before);
}
