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
/** gap × √previous is about a Poisson z-score: below this, even a lone segment's move is chance. */
const MIN_COUNT_Z = 4;
const MIN_TYPICAL_SHARE = 0.01;
const MAD_SCALE = 1.4826;

/**
 * The values of a dimension that moved unlike the rest of it. Counts: the gap between a segment's relative change
 * and the dimension's typical one (the median segment's) must be at least 10 points, and stand out from chance and
 * from the dimension's own noise — the gap scaled by √(previous) (small segments wobble more) must reach 4, and 4
 * robust spreads (MAD) of the scaled gaps across the dimension.
 * Ratios: the ratio or the weight moved at least 5% / 10 points more than the rest's.
 */
export function distinctValues(kind: MetricKind, all: readonly SegmentFigures[], totals: SegmentFigures = totalsOf(all)): Set<string> {
  if (kind === 'ratio') return new Set(all.filter((s) => ratioMove(s, totals) >= MIN_RATIO_GAP || weightMove(s, totals) >= MIN_GROWTH_GAP).map((s) => s.value));
  // The dimension's typical growth: the median over segments holding at least 1% of it (one moving segment
  // cannot drag it, as it drags "the rest" when it is large).
  const typical = middle(all.filter((s) => s.num0 > 0 && s.num0 >= MIN_TYPICAL_SHARE * totals.num0).map((s) => (s.num1 - s.num0) / s.num0));
  const gaps = all.map((segment) => {
    const own = growth(segment.num1, segment.num0);
    if (own === null) return { segment, gap: segment.num1 > 0 ? Infinity : 0, scaled: segment.num1 > 0 ? Infinity : 0 };
    const gap = own - typical;
    return { segment, gap, scaled: gap * Math.sqrt(segment.num0) };
  });
  const finite = gaps.filter((g) => Number.isFinite(g.scaled)).map((g) => g.scaled);
  const center = middle(finite);
  const spread = finite.length >= 5 ? MAD_SCALE * middle(finite.map((v) => Math.abs(v - center))) : 0;
  return new Set(
    gaps.filter((g) => Math.abs(g.gap) >= MIN_GROWTH_GAP && Math.abs(g.scaled) >= MIN_COUNT_Z && Math.abs(g.scaled - center) >= NOISE_SPREADS * spread).map((g) => g.segment.value),
  );
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
