// Driver ranking and significance: the planted cause is significant, proportional movers are in_line, and an
// echo (desktop fell because Germany, mostly desktop, fell) is marked as such once the 2-D breakdown is known.
import { describe, expect, it } from 'vitest';
import { additiveSegment } from '../../../src/domain/insights/decompose.ts';
import { markSignificance, rankDrivers, strongestDistinct, type DimensionSegments } from '../../../src/domain/insights/drivers.ts';

// Germany: 3000 sessions, 90% desktop; it loses 40%. The rest (7000 sessions: 3000 desktop, 3000 mobile, 1000
// tablet) holds, so desktop falls 19% overall — an echo of Germany.
const dimensions: DimensionSegments[] = [
  { dimension: 'country', segments: [additiveSegment('Germany', 1800, 3000), additiveSegment('France', 4020, 4000), additiveSegment('Spain', 2990, 3000)] },
  {
    dimension: 'deviceCategory',
    segments: [additiveSegment('desktop', 1620 + 3000, 2700 + 3000), additiveSegment('mobile', 120 + 3010, 200 + 3000), additiveSegment('tablet', 60 + 1000, 100 + 1000)],
  },
];
const insideGermany: DimensionSegments[] = [{ dimension: 'deviceCategory', segments: [additiveSegment('desktop', 1620, 2700), additiveSegment('mobile', 120, 200), additiveSegment('tablet', 60, 100)] }];

describe('drivers', () => {
  const total = 1800 + 4020 + 2990 - 10_000;
  const ranked = rankDrivers('additive', total, dimensions, { perDimension: 5, max: 10 });

  it('ranks across dimensions by |contribution|, with shares of the total change', () => {
    expect(ranked.drivers.map((d) => `${d.dimension}:${d.value}`).slice(0, 2)).toEqual(['country:Germany', 'deviceCategory:desktop']);
    expect(ranked.drivers[0]).toMatchObject({ contribution: -1200, share: -1200 / total });
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
    const even: DimensionSegments[] = [{ dimension: 'country', segments: [additiveSegment('A', 900, 1000), additiveSegment('B', 1800, 2000), additiveSegment('C', 2710, 3000)] }];
    const r = rankDrivers('additive', -590, even, { perDimension: 5, max: 10 });
    const marked = markSignificance('additive', r.drivers, even, strongestDistinct('additive', r.drivers, even), []);
    expect(marked.map((d) => d.reason)).toEqual(['in_line', 'in_line', 'in_line']);
  });
});
