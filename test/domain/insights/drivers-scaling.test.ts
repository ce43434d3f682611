// Drivers on large dimensions (a site's 26,000 queries): the indexed implementation gives exactly the answer of the
// quadratic one it replaced (reference-drivers.ts) on random dimensions, and reads each segment's figures a bounded
// number of times however many segments there are — counted, not timed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MetricKind, SegmentFigures } from '../../../src/domain/insights/decompose.ts';
import { indexDimensions } from '../../../src/domain/insights/dimension-index.ts';
import { markSignificance, rankDrivers, strongestDistinct, type DimensionSegments } from '../../../src/domain/insights/drivers.ts';
import * as reference from './reference-drivers.ts';

const OPTIONS = { perDimension: 5, max: 12 };

interface Analysis {
  ranked: ReturnType<typeof rankDrivers>;
  strongest: ReturnType<typeof strongestDistinct>;
  marked: ReturnType<typeof markSignificance>;
}

/** The report's sequence (rank, pick the reference, mark) on the indexed implementation. */
function analyse(kind: MetricKind, dimensions: DimensionSegments[], totalDelta: number, inside: (driver: { dimension: string; value: string }) => DimensionSegments[]): Analysis {
  const index = indexDimensions(kind, dimensions);
  const ranked = rankDrivers(index, totalDelta, OPTIONS);
  const strongest = strongestDistinct(index, ranked.drivers);
  const marked = markSignificance(index, ranked.drivers, strongest, strongest ? inside(strongest) : []);
  return { ranked, strongest, marked };
}

function analyseWithReference(kind: MetricKind, dimensions: DimensionSegments[], totalDelta: number, inside: (driver: { dimension: string; value: string }) => DimensionSegments[]): Analysis {
  const ranked = reference.rankDrivers(kind, totalDelta, dimensions, OPTIONS);
  const strongest = reference.strongestDistinct(kind, ranked.drivers, dimensions);
  const marked = reference.markSignificance(kind, ranked.drivers, dimensions, strongest, strongest ? inside(strongest) : []);
  return { ranked, strongest, marked };
}

/** The other dimensions inside a driver's segment: each of their segments scaled down by a fixed share. */
const insideBy = (dimensions: DimensionSegments[], share: number) => (driver: { dimension: string }) =>
  dimensions
    .filter((d) => d.dimension !== driver.dimension)
    .map((d) => ({ dimension: d.dimension, segments: d.segments.map((s) => ({ value: s.value, num0: Math.floor(s.num0 * share), den0: Math.floor(s.den0 * share), num1: Math.floor(s.num1 * share), den1: Math.floor(s.den1 * share) })) }));

const additiveSegment = fc.record({ num0: fc.nat(5_000), num1: fc.nat(5_000) }).map((f) => ({ ...f, den0: 1, den1: 1 }));
const ratioSegment = fc
  .record({ den0: fc.nat(5_000), den1: fc.nat(5_000), p0: fc.double({ min: 0, max: 1, noNaN: true }), p1: fc.double({ min: 0, max: 1, noNaN: true }) })
  .map(({ den0, den1, p0, p1 }) => ({ den0, den1, num0: Math.round(den0 * p0), num1: Math.round(den1 * p1) }));

function dimensionsOf(segment: fc.Arbitrary<Omit<SegmentFigures, 'value'>>): fc.Arbitrary<DimensionSegments[]> {
  const dimension = (name: string) => fc.array(segment, { minLength: 1, maxLength: 40 }).map((figures) => ({ dimension: name, segments: figures.map((f, i) => ({ value: `${name}${i}`, ...f })) }));
  return fc.tuple(dimension('country'), dimension('device'), dimension('query'));
}

describe('drivers on large dimensions', () => {
  it('answer exactly as the quadratic reference did, counts and ratios, echoes included', () => {
    for (const [kind, segment] of [['additive', additiveSegment], ['ratio', ratioSegment]] as const) {
      fc.assert(
        fc.property(dimensionsOf(segment), fc.double({ min: 0.05, max: 0.95, noNaN: true }), (dimensions, share) => {
          const delta = dimensions[0]!.segments.reduce((a, s) => a + s.num1 - s.num0, 0);
          expect(analyse(kind, dimensions, delta, insideBy(dimensions, share))).toEqual(analyseWithReference(kind, dimensions, delta, insideBy(dimensions, share)));
        }),
        { numRuns: 150 },
      );
    }
  });

  it('read each segment a bounded number of times: eight times the segments, eight times the reads', () => {
    for (const kind of ['additive', 'ratio'] as const) {
      const small = readsPerSegment(kind, 500, analyse);
      const large = readsPerSegment(kind, 4_000, analyse);
      expect(large, kind).toBeLessThanOrEqual(small * 1.1);
      // The reference reads a whole dimension per segment: its reads per segment grow with the dimension.
      expect(readsPerSegment(kind, 640, analyseWithReference), kind).toBeGreaterThan(2 * readsPerSegment(kind, 160, analyseWithReference));
    }
  });
});

/**
 * Figure reads per segment of one analysis over a dimension of `n` queries with one planted mover, next to a device
 * dimension of three values; every segment's num/den are getters that count.
 */
function readsPerSegment(kind: MetricKind, n: number, run: typeof analyse): number {
  let reads = 0;
  const counted = (value: string, f: Omit<SegmentFigures, 'value'>): SegmentFigures => {
    const segment = { value } as SegmentFigures;
    for (const key of ['num0', 'den0', 'num1', 'den1'] as const) {
      Object.defineProperty(segment, key, { enumerable: true, get: () => (reads++, f[key]) });
    }
    return segment;
  };
  const figures = (i: number) => {
    const before = 100 + ((i * 7_919) % 900);
    const after = i === 3 ? Math.round(before * 0.3) : before + ((i * 31) % 11) - 5;
    return kind === 'additive' ? { num0: before, den0: 1, num1: after, den1: 1 } : { num0: Math.round(before * 0.05), den0: before, num1: Math.round(after * 0.05), den1: after };
  };
  const queries = Array.from({ length: n }, (_, i) => counted(`query ${i}`, figures(i)));
  const devices = ['desktop', 'mobile', 'tablet'].map((d, i) => counted(d, figures(i + 10)));
  const dimensions = [{ dimension: 'query', segments: queries }, { dimension: 'device', segments: devices }];
  run(kind, dimensions, -1, insideBy(dimensions, 0.5));
  return reads / n;
}
