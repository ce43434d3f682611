// Driver ranking and significance: the planted cause is significant, proportional movers are in_line, and an
// echo (desktop fell because Germany, mostly desktop, fell) is marked as such once the 2-D breakdown is known.
import { describe, expect, it } from 'vitest';
import { additiveSegment } from '../../../src/domain/insights/decompose.ts';
import { distinctValues, indexDimensions, isDistinct } from '../../../src/domain/insights/dimension-index.ts';
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
  const ranked = rankDrivers(indexDimensions('additive', dimensions), total, { perDimension: 5, max: 10 });

  it("counts a value cut from the answer's drivers as unlisted, though its dimension ranked it", () => {
    const cut = rankDrivers(indexDimensions('additive', dimensions), total, { perDimension: 5, max: 2 });
    expect(cut.drivers.map((d) => d.value)).toEqual(['Germany', 'desktop']);
    for (const summary of cut.dimensions) {
      const listed = cut.drivers.filter((d) => d.dimension === summary.dimension).reduce((a, d) => a + d.contribution, 0);
      expect(summary.unlisted).toBe(summary.delta - listed);
    }
    expect(cut.dimensions.find((d) => d.dimension === 'country')!.unlisted).toBe(20 - 10); // France +20, Spain −10
  });

  it('ranks across dimensions by |contribution|, with shares of the total change', () => {
    expect(ranked.drivers.map((d) => `${d.dimension}:${d.value}`).slice(0, 2)).toEqual(['country:Germany', 'deviceCategory:desktop']);
    expect(ranked.drivers[0]).toMatchObject({ contribution: -1200, share: -1200 / total });
    expect(ranked.dimensions.map((d) => d.delta)).toEqual([total, total]);
  });

  it('the planted cause is significant; its echo in another dimension is not', () => {
    const reference = strongestDistinct(indexDimensions('additive', dimensions), ranked.drivers);
    expect(reference).toMatchObject({ dimension: 'country', value: 'Germany' });
    const marked = markSignificance(indexDimensions('additive', dimensions), ranked.drivers, reference, insideGermany);
    const byKey = new Map(marked.map((d) => [`${d.dimension}:${d.value}`, d]));
    expect(byKey.get('country:Germany')).toMatchObject({ significant: true });
    expect(byKey.get('deviceCategory:desktop')).toMatchObject({ significant: false, reason: 'echo', echoOf: { dimension: 'country', value: 'Germany' } });
    expect(byKey.get('country:France')).toMatchObject({ significant: false, reason: 'small' });
  });

  it('without the 2-D breakdown the echo would pass as a cause (the test depends on it)', () => {
    const reference = strongestDistinct(indexDimensions('additive', dimensions), ranked.drivers);
    const marked = markSignificance(indexDimensions('additive', dimensions), ranked.drivers, reference, []);
    expect(marked.find((d) => d.value === 'desktop')).toMatchObject({ significant: true });
  });

  it('segments moving with the whole are in_line, not causes', () => {
    const even: DimensionSegments[] = [{ dimension: 'country', segments: [additiveSegment('A', 900, 1000), additiveSegment('B', 1800, 2000), additiveSegment('C', 2710, 3000)] }];
    const r = rankDrivers(indexDimensions('additive', even), -590, { perDimension: 5, max: 10 });
    const marked = markSignificance(indexDimensions('additive', even), r.drivers, strongestDistinct(indexDimensions('additive', even), r.drivers), []);
    expect(marked.map((d) => d.reason)).toEqual(['in_line', 'in_line', 'in_line']);
  });
});

describe('drivers of a ratio metric (engagement rate: engaged sessions / sessions)', () => {
  const segment = (value: string, num0: number, den0: number, num1: number, den1: number) => ({ value, num0, den0, num1, den1 });
  // Twenty sources hold at 50 %; "email" drops to 25 % at the same volume; "ads" doubles its sessions at the same
  // rate (a mix shift, which moves nothing here: its rate is the overall one); "new" did not exist before and
  // engages 90 % of 20 sessions — too few, and nothing before, to tell its rate from chance.
  const steady = Array.from({ length: 20 }, (_, i) => segment(`s${String(i).padStart(2, '0')}`, 500, 1000, 500, 1000));
  const segments = [...steady, segment('email', 500, 1000, 250, 1000), segment('ads', 500, 1000, 1000, 2000), segment('new', 0, 0, 18, 20)];
  const dims: DimensionSegments[] = [{ dimension: 'source', segments }];

  it('names the segments whose rate or weight moved unlike the rest; the steady ones are in line', () => {
    expect([...distinctValues('ratio', segments)].sort()).toEqual(['ads', 'email']);
    // The same rate drop over a handful of sessions is chance: no volume, not distinct.
    const tiny = [...steady, segment('few', 5, 10, 2, 10)];
    expect(distinctValues('ratio', tiny).has('few')).toBe(false);
    expect(isDistinct(indexDimensions('ratio', dims), { dimension: 'source', value: 'email' })).toBe(true);
    expect(isDistinct(indexDimensions('ratio', dims), { dimension: 'source', value: 'ads' })).toBe(true);
    expect(isDistinct(indexDimensions('ratio', dims), { dimension: 'source', value: 's03' })).toBe(false);
    expect(isDistinct(indexDimensions('ratio', dims), { dimension: 'source', value: 'unknown' })).toBe(false);
    expect(isDistinct(indexDimensions('ratio', dims), { dimension: 'device', value: 'email' })).toBe(false);
  });

  it('ranks the rate drop first; a dimension summary says what its listed drivers leave out', () => {
    const before = (20 * 500 + 500 + 500) / (20 * 1000 + 2000);
    const after = (20 * 500 + 250 + 1000 + 18) / (20 * 1000 + 3000 + 20);
    const ranked = rankDrivers(indexDimensions('ratio', dims), after - before, { perDimension: 2, max: 5 });
    expect(ranked.drivers.map((d) => d.value)).toEqual(['email', 'new']);
    expect(ranked.drivers[0]!.share).toBeCloseTo(ranked.drivers[0]!.contribution / (after - before), 12);
    const [summary] = ranked.dimensions;
    expect(summary).toMatchObject({ dimension: 'source', segments: 23 });
    expect(summary!.delta).toBeCloseTo(after - before, 12);
    expect(summary!.unlisted).toBeCloseTo(summary!.delta - ranked.drivers.reduce((a, d) => a + d.contribution, 0), 12);
  });

  it('marks the in-line sources and never calls a ratio driver small for its share of the total count', () => {
    const ranked = rankDrivers(indexDimensions('ratio', dims), 0, { perDimension: 30, max: 30 });
    expect(ranked.drivers.every((d) => d.share === null)).toBe(true); // the total did not change
    const marked = markSignificance(indexDimensions('ratio', dims), ranked.drivers, strongestDistinct(indexDimensions('ratio', dims), ranked.drivers), []);
    expect(marked.length).toBeGreaterThan(0);
    const email = marked.find((d) => d.value === 'email')!;
    expect(email).toMatchObject({ significant: true });
    expect(marked[0]!.significant).toBe(true);
    expect(marked.filter((d) => d.value.startsWith('s')).every((d) => d.reason === 'in_line' || d.reason === 'small')).toBe(true);
  });
});

describe('two-valued dimensions', () => {
  it('mark only the value that moved most: the other one drifting a little is not a second cause', () => {
    const engines = [additiveSegment('engine1', 9410, 10_000), additiveSegment('engine2', 2000, 4000)];
    expect([...distinctValues('additive', engines)]).toEqual(['engine2']);
  });

  it('mark neither when both moved alike', () => {
    expect(distinctValues('additive', [additiveSegment('engine1', 11_000, 10_000), additiveSegment('engine2', 4450, 4000)]).size).toBe(0);
  });
});

describe('a halved segment behind growth', () => {
  it('is significant, not small, though its contribution is a sliver of the growth', () => {
    const growing = Array.from({ length: 8 }, (_, i) => additiveSegment(`c${i}`, 13_000, 10_000));
    const dims: DimensionSegments[] = [{ dimension: 'country', segments: [...growing, additiveSegment('India', 960, 2000)] }];
    const index = indexDimensions('additive', dims);
    const total = 8 * 3000 - 1040;
    const ranked = rankDrivers(index, total, { perDimension: 5, max: 5 });
    expect(ranked.drivers.map((d) => d.value)).toContain('India');
    const marked = markSignificance(index, ranked.drivers, strongestDistinct(index, ranked.drivers), []);
    expect(marked[0]).toMatchObject({ value: 'India', significant: true });
  });
});

describe('distinct counts', () => {
  it('need a 10-point gap from the typical segment that stands out from chance and the dimension’s own spread', () => {
    const counts = [
      additiveSegment('a', 1000, 1000),
      additiveSegment('b', 1010, 1000),
      additiveSegment('c', 990, 1000),
      additiveSegment('d', 1005, 1000),
      additiveSegment('e', 600, 1000), // −40 %: the cause
      additiveSegment('tiny', 2, 1), // +100 % of one session: chance
      additiveSegment('born', 50, 0), // new
      additiveSegment('gone', 0, 0),
    ];
    expect([...distinctValues('additive', counts)].sort()).toEqual(['born', 'e']);
  });

  it('with fewer than five segments the spread is not used, only the gap and its size', () => {
    const counts = [additiveSegment('a', 1000, 1000), additiveSegment('b', 1500, 1000), additiveSegment('c', 1030, 1000)];
    expect([...distinctValues('additive', counts)]).toEqual(['b']);
  });
});

describe('significance of count drivers', () => {
  // Twenty steady segments of 5,000 sessions and one that lost 20 % (−1,000): distinct, and the strongest.
  const steady = (n: number, size: number) => Array.from({ length: n }, (_, i) => additiveSegment(`s${i}`, size, size));
  const withLoser = (size: number): DimensionSegments[] => [{ dimension: 'country', segments: [...steady(20, size), additiveSegment('loser', 4_000, 5_000)] }];

  it('a cause is small when it moved less than 0.2 % of the previous total, however distinct', () => {
    for (const [size, expected] of [
      [100_000, { significant: false, reason: 'small' }], // total 2,005,000: 0.2 % is 4,010 > 1,000
      [20_000, { significant: true }], // total 405,000: 0.2 % is 810 < 1,000
    ] as const) {
      const dims = withLoser(size);
      const ranked = rankDrivers(indexDimensions('additive', dims), -1_000, { perDimension: 3, max: 3 });
      expect(ranked.drivers[0]).toMatchObject({ value: 'loser', contribution: -1_000, share: 1 });
      const marked = markSignificance(indexDimensions('additive', dims), ranked.drivers, strongestDistinct(indexDimensions('additive', dims), ranked.drivers), []);
      expect(marked.find((d) => d.value === 'loser')).toMatchObject(expected);
    }
  });

  it('without a reference the largest contribution is the yardstick; significant drivers lead the answer', () => {
    const dims: DimensionSegments[] = [
      {
        dimension: 'country',
        segments: [...steady(20, 5_000), additiveSegment('big', 3_000, 5_000), additiveSegment('mid', 4_500, 5_000), additiveSegment('crumb', 4_750, 5_000)],
      },
    ];
    const ranked = rankDrivers(indexDimensions('additive', dims), -2_750, { perDimension: 5, max: 5 });
    expect(ranked.drivers.map((d) => d.value)).toEqual(['big', 'mid', 'crumb']);
    const marked = markSignificance(indexDimensions('additive', dims), ranked.drivers, undefined, []);
    expect(marked.map((d) => [d.value, d.significant, d.reason ?? null])).toEqual([
      ['big', true, null],
      ['mid', true, null], // 500 ≥ 15 % of 2,000
      ['crumb', false, 'small'], // 250 < 15 % of 2,000 = 300
    ]);
    // A non-significant driver with a larger contribution still comes after the significant ones.
    const reordered = markSignificance(indexDimensions('additive', dims), [ranked.drivers[2]!, ranked.drivers[0]!], undefined, []);
    expect(reordered.map((d) => d.value)).toEqual(['big', 'crumb']);
  });
});

describe('echoes', () => {
  // Germany (90 % desktop) loses 40 %; what desktop does outside Germany decides whether desktop is a cause of
  // its own or Germany's echo.
  const build = (desktopOutsideNow: number) => {
    const others = [additiveSegment('France', 4_000, 4_000), additiveSegment('Spain', 3_000, 3_000), additiveSegment('Italy', 3_000, 3_000)];
    const dims: DimensionSegments[] = [
      { dimension: 'country', segments: [additiveSegment('Germany', 1_800, 3_000), ...others] },
      {
        dimension: 'deviceCategory',
        segments: [
          additiveSegment('desktop', 1_620 + desktopOutsideNow, 2_700 + 3_000),
          additiveSegment('mobile', 120 + 4_000, 200 + 4_000),
          additiveSegment('tablet', 60 + 3_000, 100 + 3_000),
        ],
      },
    ];
    const inside: DimensionSegments[] = [{ dimension: 'deviceCategory', segments: [additiveSegment('desktop', 1_620, 2_700), additiveSegment('mobile', 120, 200), additiveSegment('tablet', 60, 100)] }];
    const total = dims[0]!.segments.reduce((a, s) => a + s.num1 - s.num0, 0);
    const ranked = rankDrivers(indexDimensions('additive', dims), total, { perDimension: 5, max: 10 });
    const germany = ranked.drivers.find((d) => d.value === 'Germany')!;
    const marked = markSignificance(indexDimensions('additive', dims), ranked.drivers, germany, inside);
    return marked.find((d) => d.value === 'desktop');
  };

  it('desktop falling as much again outside Germany is a cause of its own', () => {
    expect(build(1_500)).toMatchObject({ significant: true });
  });

  it('desktop rising outside Germany is its echo (what is left has the other sign)', () => {
    expect(build(3_300)).toMatchObject({ significant: false, reason: 'echo', echoOf: { dimension: 'country', value: 'Germany' } });
  });

  it('desktop losing less than half of its drop outside Germany is its echo', () => {
    expect(build(2_100)).toMatchObject({ significant: false, reason: 'echo' }); // −900 of −1,980 outside
  });

  it('without the breakdown inside the reference nothing is judged an echo', () => {
    const dims: DimensionSegments[] = [
      { dimension: 'country', segments: [additiveSegment('Germany', 1_800, 3_000), additiveSegment('France', 4_000, 4_000)] },
      { dimension: 'deviceCategory', segments: [additiveSegment('desktop', 4_620, 5_700), additiveSegment('mobile', 1_180, 1_300)] },
    ];
    const ranked = rankDrivers(indexDimensions('additive', dims), -1_200, { perDimension: 5, max: 10 });
    const germany = ranked.drivers.find((d) => d.value === 'Germany')!;
    const other: DimensionSegments[] = [{ dimension: 'browser', segments: [additiveSegment('x', 1, 1)] }];
    expect(markSignificance(indexDimensions('additive', dims), ranked.drivers, germany, other).find((d) => d.value === 'desktop')?.reason).not.toBe('echo');
  });
});
