// The drivers implementation before the dimension index (as of 166413d): it sums a whole dimension once per segment
// and per driver, O(n²) in the values of a dimension. Kept as the reference the property test compares the indexed
// implementation with (the significance rules follow the product's); never imported by src.
import { distinctValues as productDistinctValues, ownChangeOf } from '../../../src/domain/insights/dimension-index.ts';
import type { Decomposition, SegmentFigures } from '../../../src/domain/insights/decompose.ts';
import type { Driver, DimensionSegments, DriverAnalysis, DriverOptions } from '../../../src/domain/insights/drivers.ts';

/** Additive metric: contribution = current − previous of the segment; they sum to the total change exactly. */
function decomposeAdditive(segments: readonly SegmentFigures[]): Decomposition {
  let current = 0;
  let previous = 0;
  const parts = segments.map((s) => {
    current += s.num1;
    previous += s.num0;
    return { value: s.value, current: s.num1, previous: s.num0, contribution: s.num1 - s.num0 };
  });
  return { current, previous, delta: current - previous, segments: parts };
}

/**
 * Ratio metric R = Σnum / Σden. With weights w = den / Σden and ratios r = num / den in each range,
 * R1 − R0 = Σ (w1·r1 − w0·r0) = Σ [ (w1 − w0)·(r0 − R0) + w1·(r1 − r0) ]:
 * mix = (w1 − w0)·(r0 − R0) — more weight on a segment whose ratio was above the average raises the total;
 * rate = w1·(r1 − r0) — the segment's own ratio moved, weighted by its current share.
 * (Σ(w1 − w0) = 0, which is why subtracting R0 inside the mix term leaves the sum unchanged while making a
 * segment of average ratio have no mix effect.) A segment absent in one range takes R0 as its ratio there, so it
 * still sums exactly to R1 − R0.
 */
function decomposeRatio(segments: readonly SegmentFigures[]): Decomposition {
  const sum = (pick: (s: SegmentFigures) => number) => segments.reduce((a, s) => a + pick(s), 0);
  const den0 = sum((s) => s.den0);
  const den1 = sum((s) => s.den1);
  const r0Total = den0 > 0 ? sum((s) => s.num0) / den0 : null;
  const r1Total = den1 > 0 ? sum((s) => s.num1) / den1 : null;
  if (r0Total === null || r1Total === null) {
    return { current: r1Total, previous: r0Total, delta: 0, segments: segments.map((s) => ({ value: s.value, current: ratio(s.num1, s.den1), previous: ratio(s.num0, s.den0), contribution: 0 })) };
  }
  const parts = segments.map((s) => {
    const w0 = s.den0 / den0;
    const w1 = s.den1 / den1;
    const r0 = ratio(s.num0, s.den0) ?? r0Total;
    const r1 = ratio(s.num1, s.den1) ?? r0;
    const mix = (w1 - w0) * (r0 - r0Total);
    const rate = w1 * (r1 - r0);
    return { value: s.value, current: ratio(s.num1, s.den1), previous: ratio(s.num0, s.den0), contribution: mix + rate, mix, rate, weight1: s.den1, weight0: s.den0 };
  });
  return { current: r1Total, previous: r0Total, delta: r1Total - r0Total, segments: parts };
}

function ratio(num: number, den: number): number | null {
  return den > 0 ? num / den : null;
}

/** A segment's relative change set against the rest of its dimension's (what "moved unlike the others" means). */
function relativeChanges(segment: SegmentFigures, all: readonly SegmentFigures[]): { own: number | null; rest: number | null } {
  const restNum0 = all.reduce((a, s) => a + s.num0, 0) - segment.num0;
  const restNum1 = all.reduce((a, s) => a + s.num1, 0) - segment.num1;
  return { own: growth(segment.num1, segment.num0), rest: growth(restNum1, restNum0) };
}

function growth(now: number, before: number): number | null {
  return before > 0 ? (now - before) / before : null;
}

type MetricKind = 'additive' | 'ratio';

/** A driver smaller than this fraction of the strongest is noise next to it. */
const MIN_SHARE_OF_STRONGEST = 0.15;
/** Additive: the segment's relative change must differ from the rest of its dimension by at least this much. */
const MIN_GROWTH_GAP = 0.1;
/** Ratio: the segment's ratio must move, relative to its previous value, at least this much more than the rest. */
const MIN_RATIO_GAP = 0.05;
/** A driver with less than this part of its contribution outside the strongest driver is its echo. */
const ECHO_OUTSIDE_SHARE = 0.5;

function decompose(kind: MetricKind, segments: readonly SegmentFigures[]): Decomposition {
  return kind === 'ratio' ? decomposeRatio(segments) : decomposeAdditive(segments);
}

/**
 * Every dimension decomposed; of each, the segments that moved unlike the rest come first, then the largest
 * contributions, `perDimension` in all. Ranked together by |contribution|; `markSignificance` then puts the
 * significant ones first.
 */
export function rankDrivers(kind: MetricKind, totalDelta: number, dimensions: readonly DimensionSegments[], options: DriverOptions): DriverAnalysis {
  const candidates: Driver[] = [];
  const deltas: { dimension: string; delta: number; segments: number }[] = [];
  for (const { dimension, segments } of dimensions) {
    const result = decompose(kind, segments);
    const distinct = distinctValues(kind, segments);
    const top = [...result.segments]
      .filter((c) => c.contribution !== 0)
      .sort((a, b) => Number(distinct.has(b.value)) - Number(distinct.has(a.value)) || byMagnitude(a, b))
      .slice(0, options.perDimension);
    deltas.push({ dimension, delta: result.delta, segments: segments.length });
    for (const c of top) candidates.push({ ...c, dimension, share: totalDelta === 0 ? null : c.contribution / totalDelta, significant: false });
  }
  const sorted = candidates.sort(byMagnitude);
  const drivers = sorted.slice(0, options.max);
  for (const driver of sorted.slice(options.max).filter((d) => surfaces(kind, d, dimensions))) {
    const at = drivers.findLastIndex((d) => !isDistinct(kind, d, dimensions));
    if (at < 0) break;
    drivers.splice(at, 1);
    drivers.push(driver);
  }
  drivers.sort(byMagnitude);
  // What is unlisted is measured against the answer's drivers, after the cut to `max`: a value ranked within its
  // dimension but cut overall is not listed either.
  const summaries = deltas.map(({ dimension, delta, segments }) => {
    const listed = drivers.reduce((a, d) => (d.dimension === dimension ? a + d.contribution : a), 0);
    return { dimension, delta, unlisted: delta - listed, segments };
  });
  return { drivers, dimensions: summaries };
}

function byMagnitude(a: { contribution: number }, b: { contribution: number }): number {
  return Math.abs(b.contribution) - Math.abs(a.contribution);
}

/** The strongest driver that moved unlike the rest of its dimension: the reference echoes are tested against. */
export function strongestDistinct(kind: MetricKind, drivers: readonly Driver[], dimensions: readonly DimensionSegments[]): Driver | undefined {
  return drivers.find((d) => isDistinct(kind, d, dimensions));
}

/**
 * `inside`: for each other dimension, its segments restricted to the reference driver's segment (e.g. devices
 * within Germany). Mutates nothing; returns the drivers with `significant` and `reason` set.
 */
export function markSignificance(
  kind: MetricKind,
  drivers: readonly Driver[],
  dimensions: readonly DimensionSegments[],
  reference: Driver | undefined,
  inside: readonly DimensionSegments[],
): Driver[] {
  const withShare = drivers.find((d) => d.share !== null && d.share !== 0);
  const total = withShare && kind === 'ratio' ? Math.abs(withShare.contribution / withShare.share!) : 0;
  const yardstick = Math.max(total, Math.abs(reference?.contribution ?? Math.max(0, ...drivers.map((d) => Math.abs(d.contribution)))));
  const marked = drivers.map((driver) => {
    const { significant: _old, reason: _r, echoOf: _e, ...plain } = driver;
    const small = (Math.abs(driver.contribution) < MIN_SHARE_OF_STRONGEST * yardstick && !surfaces(kind, driver, dimensions)) || tooSmallForTotal(kind, driver, dimensions);
    if (small) return { ...plain, significant: false, reason: 'small' as const };
    if (!isDistinct(kind, driver, dimensions)) return { ...plain, significant: false, reason: 'in_line' as const };
    if (reference && driver.dimension !== reference.dimension && isEcho(kind, driver, dimensions, inside)) {
      return { ...plain, significant: false, reason: 'echo' as const, echoOf: { dimension: reference.dimension, value: reference.value } };
    }
    return { ...plain, significant: true };
  });
  // The drivers the answer stands behind lead; within each group, by |contribution|.
  return [...marked.filter((d) => d.significant), ...marked.filter((d) => !d.significant)];
}

/** Counts: a segment moving less than this share of the previous total is too small to be a cause worth naming. */
const MIN_SHARE_OF_TOTAL = 0.002;

function tooSmallForTotal(kind: MetricKind, driver: Driver, dimensions: readonly DimensionSegments[]): boolean {
  const all = segmentsOf(dimensions, driver.dimension);
  const total = all.reduce((a, s) => a + s.num0, 0);
  if (kind === 'additive') return total > 0 && Math.abs(driver.contribution) < MIN_SHARE_OF_TOTAL * total;
  const den = all.reduce((a, s) => a + s.den0, 0);
  const rate = den > 0 ? Math.abs(total / den) : 0;
  return rate > 0 && Math.abs(driver.contribution) < 0.01 * rate;
}

function segmentsOf(dimensions: readonly DimensionSegments[], dimension: string): readonly SegmentFigures[] {
  return dimensions.find((d) => d.dimension === dimension)?.segments ?? [];
}

/** The segment moved differently from the rest of its dimension (else it only carries the overall trend). */
function isDistinct(kind: MetricKind, driver: { dimension: string; value: string }, dimensions: readonly DimensionSegments[]): boolean {
  const all = segmentsOf(dimensions, driver.dimension);
  const segment = all.find((s) => s.value === driver.value);
  if (!segment) return false;
  return distinctValues(kind, all).has(driver.value);
}

/** Moved unlike its dimension by ≥ 30% of itself, holding ≥ 1% of the dimension before. */
function surfaces(kind: MetricKind, driver: { dimension: string; value: string }, dimensions: readonly DimensionSegments[]): boolean {
  const all = segmentsOf(dimensions, driver.dimension);
  const segment = all.find((s) => s.value === driver.value);
  if (!segment || !isDistinct(kind, driver, dimensions)) return false;
  const own = ownChangeOf(kind, segment);
  const whole = all.reduce((a, s) => a + (kind === 'ratio' ? s.den0 : s.num0), 0);
  return own !== null && Math.abs(own) >= 0.3 && (kind === 'ratio' ? segment.den0 : segment.num0) >= 0.01 * whole;
}

/**
 * Which values of one dimension moved unlike the rest is a rule on that dimension alone (volume floors, rate noise,
 * two-valued dimensions): the reference takes it from the product, and checks what the index changes — that each
 * driver, echo and share is looked up without reading the dimension once per segment.
 */
export function distinctValues(kind: MetricKind, all: readonly SegmentFigures[]): Set<string> {
  const product = productDistinctValues(kind, all);
  return new Set(all.filter((s) => movedUnlikeRest(kind, s, all) && product.has(s.value)).map((s) => s.value));
}

/** The naive read of "the rest" per segment, as before the index (a necessary condition of the product's rule). */
function movedUnlikeRest(kind: MetricKind, segment: SegmentFigures, all: readonly SegmentFigures[]): boolean {
  if (kind === 'ratio') return ratioMove(segment, all) >= MIN_RATIO_GAP || weightMove(segment, all) >= MIN_GROWTH_GAP;
  const { own, rest } = relativeChanges(segment, all);
  return own !== rest || own === null;
}

function ratioMove(segment: SegmentFigures, all: readonly SegmentFigures[]): number {
  const rest = restOf(segment, all);
  const own = segment.den0 > 0 && segment.den1 > 0 ? relative(segment.num1 / segment.den1, segment.num0 / segment.den0) : null;
  const other = rest.den0 > 0 && rest.den1 > 0 ? relative(rest.num1 / rest.den1, rest.num0 / rest.den0) : 0;
  return own === null ? Infinity : Math.abs(own - other);
}

function weightMove(segment: SegmentFigures, all: readonly SegmentFigures[]): number {
  const rest = restOf(segment, all);
  const own = segment.den0 > 0 ? segment.den1 / segment.den0 - 1 : null;
  const other = rest.den0 > 0 ? rest.den1 / rest.den0 - 1 : 0;
  return own === null ? Infinity : Math.abs(own - other);
}

function relative(now: number, before: number): number {
  return before === 0 ? (now === 0 ? 0 : Infinity) : (now - before) / Math.abs(before);
}

function restOf(segment: SegmentFigures, all: readonly SegmentFigures[]): SegmentFigures {
  const sum = (pick: (s: SegmentFigures) => number) => all.reduce((a, s) => a + pick(s), 0) - pick(segment);
  return { value: '(rest)', num0: sum((s) => s.num0), den0: sum((s) => s.den0), num1: sum((s) => s.num1), den1: sum((s) => s.den1) };
}

/**
 * Recompute the driver's dimension without the reference segment (each value minus its part inside it): if what
 * remains of the driver's contribution is less than half of it, or has the other sign, the driver is an echo.
 */
function isEcho(kind: MetricKind, driver: Driver, dimensions: readonly DimensionSegments[], inside: readonly DimensionSegments[]): boolean {
  const insideSegments = inside.find((d) => d.dimension === driver.dimension)?.segments;
  if (!insideSegments) return false;
  const within = new Map(insideSegments.map((s) => [s.value, s]));
  const outside = segmentsOf(dimensions, driver.dimension).map((s) => {
    const part = within.get(s.value);
    if (!part) return s;
    return { value: s.value, num0: s.num0 - part.num0, den0: s.den0 - part.den0, num1: s.num1 - part.num1, den1: s.den1 - part.den1 };
  });
  const remaining = decompose(kind, outside).segments.find((c) => c.value === driver.value)?.contribution ?? 0;
  if (Math.sign(remaining) !== Math.sign(driver.contribution)) return true;
  if (Math.abs(remaining) < ECHO_OUTSIDE_SHARE * Math.abs(driver.contribution)) return true;
  // Outside the reference the segment must still move unlike its peers, or what is left is the overall trend.
  return !isDistinct(kind, driver, [{ dimension: driver.dimension, segments: outside }]);
}
