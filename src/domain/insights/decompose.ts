// How a metric's change between two ranges splits over the values of a dimension (the "drivers" of a change).
// Additive metrics (sessions, clicks…): a segment's contribution is its own change, so contributions add up to
// the total change. Ratio metrics (engagementRate, ctr, position…): the total is Σnum / Σden, and each segment's
// contribution is split into a mix effect (its weight in the denominator moved) and a rate effect (its own
// ratio moved); see `decomposeRatio` for the formula. Both keep signs, so a segment that grew against a falling
// total has a positive contribution and a negative share.

export type MetricKind = 'additive' | 'ratio';

/** One value of a dimension in both ranges: `num`/`den` (den is 1 for additive metrics, see `additiveSegment`). */
export interface SegmentFigures {
  value: string;
  num0: number;
  den0: number;
  num1: number;
  den1: number;
}

export interface Contribution {
  value: string;
  /** The metric for this segment in the current and previous range (its ratio for ratio metrics, null when undefined). */
  current: number | null;
  previous: number | null;
  /** This segment's part of the total change; the parts of one dimension sum to the dimension's total change. */
  contribution: number;
  /** Ratio metrics: the part due to the segment's weight changing, and the part due to its own ratio changing. */
  mix?: number;
  rate?: number;
  /** The segment's denominator (sessions, impressions) in both ranges; its weight is this over the dimension's. */
  weight1?: number;
  weight0?: number;
}

export interface Decomposition {
  /** The metric over all segments, current and previous. */
  current: number | null;
  previous: number | null;
  delta: number;
  segments: Contribution[];
}

export function additiveSegment(value: string, current: number, previous: number): SegmentFigures {
  return { value, num1: current, den1: 1, num0: previous, den0: 1 };
}

export function decompose(kind: MetricKind, segments: readonly SegmentFigures[]): Decomposition {
  return kind === 'ratio' ? decomposeRatio(segments) : decomposeAdditive(segments);
}

/** Each figure summed over the segments, left to right (the order the per-segment arithmetic relies on). */
export function totalsOf(segments: readonly SegmentFigures[]): SegmentFigures {
  let num0 = 0;
  let den0 = 0;
  let num1 = 0;
  let den1 = 0;
  for (const s of segments) {
    num0 += s.num0;
    den0 += s.den0;
    num1 += s.num1;
    den1 += s.den1;
  }
  return { value: '(all)', num0, den0, num1, den1 };
}

/** Additive metric: contribution = current − previous of the segment; they sum to the total change exactly. */
export function decomposeAdditive(segments: readonly SegmentFigures[]): Decomposition {
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
export function decomposeRatio(segments: readonly SegmentFigures[]): Decomposition {
  const totals = totalsOf(segments);
  const { den0, den1 } = totals;
  const r0Total = den0 > 0 ? totals.num0 / den0 : null;
  const r1Total = den1 > 0 ? totals.num1 / den1 : null;
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

/**
 * A segment's relative change set against the rest of its dimension's (what "moved unlike the others" means);
 * `totals` is `totalsOf` the dimension, summed once for all its segments.
 */
export function relativeChanges(segment: SegmentFigures, totals: SegmentFigures): { own: number | null; rest: number | null } {
  return { own: growth(segment.num1, segment.num0), rest: growth(totals.num1 - segment.num1, totals.num0 - segment.num0) };
}

/** The rest of a dimension: its totals less one segment (O(1) once the totals are known). */
export function restOf(segment: SegmentFigures, totals: SegmentFigures): SegmentFigures {
  return { value: '(rest)', num0: totals.num0 - segment.num0, den0: totals.den0 - segment.den0, num1: totals.num1 - segment.num1, den1: totals.den1 - segment.den1 };
}

export function growth(now: number, before: number): number | null {
  return before > 0 ? (now - before) / before : null;
}
