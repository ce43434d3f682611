// Driver ranking and significance: the planted cause is significant, proportional movers are in_line, and an
// echo (desktop fell because Germany, mostly desktop, fell) is marked as such once the 2-D breakdown is known.
import { describe, expect, it } from 'vitest';
import { additiveSegment } from '../../../src/domain/insights/decompose.ts';
import { markSignificance, rankDrivers, strongestDistinct, type DimensionSegments } from '../../../src/domain/insights/drivers.ts';

// Germany: 300 sessions, 90% desktop; it loses 40%. The rest (700 sessions, 50% desktop) holds.
const dimensions: DimensionSegments[] = [
  { dimension: 'country', segments: [additiveSegment('Germany', 180, 300), additiveSegment('France', 402, 400), additiveSegment('Spain', 299, 300)] },
  { dimension: 'deviceCategory', segments: [additiveSegment('desktop', 270 * 0.6 + 350, 270 + 350), additiveSegment('mobile', 30 * 0.6 + 351, 30 + 350)] },
];
const insideGermany: DimensionSegments[] = [{ dimension: 'deviceCategory', segments: [additiveSegment('desktop', 162, 270), additiveSegment('mobile', 18, 30)] }];

describe('drivers', () => {
  const total = 180 + 402 + 299 - 1000;
  const ranked = rankDrivers('additive', total, dimensions, { perDimension: 5, max: 10 });

  it('ranks across dimensions by |contribution|, with shares of the total change', () => {
    expect(ranked.drivers.map((d) => `${d.dimension}:${d.value}`).slice(0, 3)).toEqual(['country:Germany', 'deviceCategory:desktop', 'deviceCategory:mobile']);
    expect(ranked.drivers[0]).toMatchObject({ contribution: -120, share: -120 / total });
    expect(ranked.dimensions.map((d) => d.delta)).toEqual([total, total]);
  });

  it('the planted cause is significant; its echo in another dimension is not', () => {
    const reference = strongestDistinct('additive', ranked.drivers, dimensions);
    expect(reference).toMatchObject({ dimension: 'country', value: 'Germany' });
    const marked = markSignificance('additive', ranked.drivers, dimensions, reference, insideGermany);
    const byKey = new Map(marked.map((d) => [`${d.dimension}:${d.value}`, d]));
    expect(byKey.get('country:Germany')).toMatchObject({ significant: true });
    expect(byKey.get('deviceCategory:desktop')).toMatchObject({ significant: false, reason: 'echo', echoOf: { dimension: 'country', value: 'Germany' } });
    expect(byKey.get('country:France')).toMatchObject({ significant: false, reason: 'small' });
  });

  it('without the 2-D breakdown the echo would pass as a cause (the test depends on it)', () => {
    const reference = strongestDistinct('additive', ranked.drivers, dimensions);
    const marked = markSignificance('additive', ranked.drivers, dimensions, reference, []);
    expect(marked.find((d) => d.value === 'desktop')).toMatchObject({ significant: true });
  });

  it('segments moving with the whole are in_line, not causes', () => {
    const even: DimensionSegments[] = [{ dimension: 'country', segments: [additiveSegment('A', 90, 100), additiveSegment('B', 180, 200)] }];
    const r = rankDrivers('additive', -30, even, { perDimension: 5, max: 10 });
    const marked = markSignificance('additive', r.drivers, even, strongestDistinct('additive', r.drivers, even), []);
    expect(marked.map((d) => d.reason)).toEqual(['in_line', 'in_line']);
  });
});
