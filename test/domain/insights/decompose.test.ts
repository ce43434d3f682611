// The decomposition math: additive contributions and ratio mix + rate effects sum to the total change.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { additiveSegment, decomposeAdditive, decomposeRatio, relativeChanges, totalsOf, type SegmentFigures } from '../../../src/domain/insights/decompose.ts';

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe('additive decomposition', () => {
  it('each segment contributes its own change, signs kept, summing to the total change', () => {
    const result = decomposeAdditive([additiveSegment('Germany', 60, 100), additiveSegment('France', 80, 70), additiveSegment('Spain', 0, 5)]);
    expect(result).toMatchObject({ current: 140, previous: 175, delta: -35 });
    expect(result.segments.map((s) => [s.value, s.contribution])).toEqual([
      ['Germany', -40],
      ['France', 10],
      ['Spain', -5],
    ]);
    expect(sum(result.segments.map((s) => s.contribution))).toBe(result.delta);
  });

  it('property: contributions of any segments sum to the total change', () => {
    const segment = fc.record({ value: fc.string(), now: fc.integer({ min: 0, max: 1e6 }), before: fc.integer({ min: 0, max: 1e6 }) });
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 30 }), (segments) => {
        const result = decomposeAdditive(segments.map((s) => additiveSegment(s.value, s.now, s.before)));
        expect(sum(result.segments.map((s) => s.contribution))).toBe(result.delta);
        expect(result.delta).toBe(sum(segments.map((s) => s.now)) - sum(segments.map((s) => s.before)));
      }),
    );
  });
});

describe('ratio decomposition (mix + rate)', () => {
  // Engagement rate: mobile (rate 0.5) grows from 40% to 60% of sessions while its rate holds; desktop (0.8) holds too.
  const moreMobile: SegmentFigures[] = [
    { value: 'mobile', num0: 200, den0: 400, num1: 300, den1: 600 },
    { value: 'desktop', num0: 480, den0: 600, num1: 320, den1: 400 },
  ];

  it('more traffic in a weaker segment is a mix effect, with no rate effect', () => {
    const result = decomposeRatio(moreMobile);
    expect(result.previous).toBeCloseTo(0.68, 12);
    expect(result.current).toBeCloseTo(0.62, 12);
    for (const s of result.segments) expect(s.rate).toBeCloseTo(0, 12);
    // mobile: (0.6 − 0.4)·(0.5 − 0.68) = −0.036; desktop: (0.4 − 0.6)·(0.8 − 0.68) = −0.024
    expect(result.segments[0]!.mix).toBeCloseTo(-0.036, 12);
    expect(result.segments[1]!.mix).toBeCloseTo(-0.024, 12);
    expect(sum(result.segments.map((s) => s.contribution))).toBeCloseTo(result.delta, 12);
  });

  it('a segment whose own ratio fell is a rate effect weighted by its current share', () => {
    const worse: SegmentFigures[] = [
      { value: 'mobile', num0: 200, den0: 400, num1: 120, den1: 400 },
      { value: 'desktop', num0: 480, den0: 600, num1: 480, den1: 600 },
    ];
    const [mobile, desktop] = decomposeRatio(worse).segments;
    expect(mobile!.mix).toBeCloseTo(0, 12);
    expect(mobile!.rate).toBeCloseTo(0.4 * (0.3 - 0.5), 12);
    expect(desktop!.contribution).toBeCloseTo(0, 12);
  });

  it('a segment new in the current range still sums exactly', () => {
    const result = decomposeRatio([
      { value: 'a', num0: 50, den0: 100, num1: 50, den1: 100 },
      { value: 'new', num0: 0, den0: 0, num1: 90, den1: 100 },
    ]);
    expect(result.delta).toBeCloseTo(0.2, 12);
    expect(sum(result.segments.map((s) => s.contribution))).toBeCloseTo(result.delta, 12);
    expect(result.segments[1]!.previous).toBeNull();
  });

  it('property: mix + rate is each contribution, and the contributions sum to R1 − R0', () => {
    const segment = fc
      .record({ den0: fc.integer({ min: 0, max: 10_000 }), den1: fc.integer({ min: 0, max: 10_000 }), r0: fc.double({ min: 0, max: 1, noNaN: true }), r1: fc.double({ min: 0, max: 1, noNaN: true }) })
      .map((s, i = 0) => ({ value: String(i), den0: s.den0, den1: s.den1, num0: s.den0 * s.r0, num1: s.den1 * s.r1 }));
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 20 }), (segments) => {
        fc.pre(sum(segments.map((s) => s.den0)) > 0 && sum(segments.map((s) => s.den1)) > 0);
        const result = decomposeRatio(segments);
        const expected = sum(segments.map((s) => s.num1)) / sum(segments.map((s) => s.den1)) - sum(segments.map((s) => s.num0)) / sum(segments.map((s) => s.den0));
        expect(result.delta).toBeCloseTo(expected, 9);
        expect(sum(result.segments.map((s) => s.contribution))).toBeCloseTo(result.delta, 9);
        for (const s of result.segments) expect(s.mix! + s.rate!).toBeCloseTo(s.contribution, 12);
      }),
    );
  });
});

describe('decomposition edges', () => {
  it('a ratio with no denominator in one range has no change to explain: every contribution is 0', () => {
    const before = decomposeRatio([
      { value: 'a', num0: 0, den0: 0, num1: 30, den1: 60 },
      { value: 'b', num0: 0, den0: 0, num1: 10, den1: 40 },
    ]);
    expect(before).toEqual({
      current: 0.4,
      previous: null,
      delta: 0,
      segments: [
        { value: 'a', current: 0.5, previous: null, contribution: 0 },
        { value: 'b', current: 0.25, previous: null, contribution: 0 },
      ],
    });
    const after = decomposeRatio([{ value: 'a', num0: 5, den0: 10, num1: 0, den1: 0 }]);
    expect(after).toMatchObject({ current: null, previous: 0.5, delta: 0, segments: [{ value: 'a', current: null, previous: 0.5, contribution: 0 }] });
  });

  it("relative changes: the segment's own growth and the rest of its dimension's", () => {
    const all = [additiveSegment('a', 150, 100), additiveSegment('b', 90, 100), additiveSegment('c', 110, 100)];
    expect(relativeChanges(all[0]!, totalsOf(all))).toEqual({ own: 0.5, rest: 0 });
    expect(relativeChanges(all[1]!, totalsOf(all))).toEqual({ own: -0.1, rest: 0.3 });
    const born = additiveSegment('new', 20, 0);
    expect(relativeChanges(born, totalsOf([...all, born]))).toEqual({ own: null, rest: 50 / 300 });
    expect(relativeChanges(all[0]!, totalsOf([all[0]!]))).toEqual({ own: 0.5, rest: null });
  });
});
