// Anomalies: a weekday-aware robust baseline finds a planted spike and the first day of a shift, ignores the
// weekly rhythm and noise, and never judges an incomplete day.
import { describe, expect, it } from 'vitest';
import { DAILY, expectedAt, findAnomalies, median, type SeriesPoint } from '../../../src/domain/insights/anomalies.ts';

const WEEKLY = [1.2, 1.1, 1.0, 1.0, 0.9, 0.6, 0.5];
/** A deterministic wobble of about ±5%. */
const wobble = (i: number) => 1 + 0.05 * Math.sin(i * 2.7) * Math.cos(i * 1.3);
function series(days: number, shape: (i: number) => number = () => 1): SeriesPoint[] {
  return Array.from({ length: days }, (_, i) => ({ key: `d${String(i).padStart(3, '0')}`, value: Math.round(1000 * WEEKLY[i % 7]! * wobble(i) * shape(i)) }));
}
const options = { ...DAILY, from: 28 };

describe('anomalies', () => {
  it('a weekly rhythm with noise has none', () => {
    expect(findAnomalies(series(118), options)).toEqual([]);
  });

  it('a weekend dip is not an anomaly, but a Saturday at a Monday level is', () => {
    const found = findAnomalies(series(118, (i) => (i === 61 ? 2.2 : 1)), options);
    expect(found.map((a) => a.key)).toEqual(['d061']);
  });

  it('finds a one-day spike with its expected value, score and direction', () => {
    const found = findAnomalies(series(118, (i) => (i === 60 ? 5 : 1)), options);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ key: 'd060', direction: 'up', kind: 'spike', length: 1 });
    expect(found[0]!.expected).toBe(median([53, 46, 39, 32].map((d) => series(118)[d]!.value)));
    expect(found[0]!.score).toBeGreaterThan(DAILY.threshold);
  });

  it('reports a level shift once, on its first day', () => {
    const found = findAnomalies(series(118, (i) => (i >= 70 ? 0.5 : 1)), options);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ key: 'd070', direction: 'down', kind: 'shift' });
    expect(found[0]!.length).toBeGreaterThanOrEqual(3);
  });

  it('does not judge a day marked incomplete, however far off', () => {
    const points = series(118, (i) => (i === 117 ? 0.1 : 1)).map((p, i) => (i === 117 ? { ...p, incomplete: true } : p));
    expect(findAnomalies(points, options)).toEqual([]);
  });
});

describe('anomaly rules, exactly', () => {
  const day = (i: number) => `2026-01-${String(1 + (i % 28)).padStart(2, '0')}#${i}`;
  const series = (values: number[]) => values.map((value, i) => ({ key: day(i), value }));
  // A weekly rhythm with a little noise, so spreads are real: weekdays around 100, weekends around 60.
  const rhythm = (weeks: number, at: (i: number) => number = () => 0) =>
    Array.from({ length: weeks * 7 }, (_, i) => (i % 7 >= 5 ? 60 : 100) + ((i * 7) % 3) - 1 + at(i));

  it('median: middle value, mean of the middle two, NaN for nothing', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('expectedAt: the median of the same phase in earlier cycles, complete points only, at least two of them', () => {
    const points = series([10, 0, 20, 0, 30, 0, 99]);
    expect(expectedAt(points, 6, { season: 2, cycles: 3 })).toBe(20); // 30, 20, 10
    expect(expectedAt(points, 2, { season: 2, cycles: 3 })).toBeUndefined(); // one earlier cycle only
    expect(expectedAt(points, 2, { season: 2, cycles: 1 })).toBe(10); // one cycle asked, one is enough
    const withIncomplete = points.map((p, i) => (i === 4 ? { ...p, incomplete: true } : p));
    expect(expectedAt(withIncomplete, 6, { season: 2, cycles: 3 })).toBe(15); // 20, 10
    expect(expectedAt(withIncomplete, 6, { season: 2, cycles: 2 })).toBeUndefined(); // 20 alone
  });

  it('a spike of counts is found on its day only, from `from` on, with the direction of its score', () => {
    const values = rhythm(8, (i) => (i === 45 ? 150 : i === 20 ? 150 : i === 50 ? -90 : 0));
    const found = findAnomalies(series(values), { ...DAILY, from: 28 });
    expect(found.map((a) => [a.index, a.kind, a.direction, a.length])).toEqual([
      [45, 'spike', 'up', 1],
      [50, 'spike', 'down', 1],
    ]);
    const base = (i: number) => 100 + ((i * 7) % 3) - 1;
    expect(found[0]).toMatchObject({ observed: values[45], expected: median([17, 24, 31, 38].map(base)) });
    expect(found[0]!.score).toBeGreaterThanOrEqual(DAILY.threshold);
    expect(found[1]!.score).toBeLessThanOrEqual(-DAILY.threshold);
  });

  it('a run of three days off is one shift on its first day; two days off are neither shift nor (small) spikes', () => {
    // −12 %: under the 15 % a spike needs, over the 9 % each day of a run needs.
    const shifted = rhythm(8, (i) => (i >= 36 && i <= 38 ? -12 : 0));
    expect(findAnomalies(series(shifted), { ...DAILY, from: 28 }).map((a) => [a.index, a.kind, a.length])).toEqual([[36, 'shift', 3]]);
    const twoDays = rhythm(8, (i) => (i >= 36 && i <= 37 ? -12 : 0));
    expect(findAnomalies(series(twoDays), { ...DAILY, from: 28 })).toEqual([]);
  });

  it('rates compare on a linear scale: a jump from 0.50 to 0.80 is a spike, 0.50 to 0.52 is not', () => {
    const rates = Array.from({ length: 56 }, (_, i) => 0.5 + ((i * 3) % 7) / 1000 + (i === 44 ? 0.3 : 0) + (i === 47 ? 0.02 : 0));
    const found = findAnomalies(series(rates), { ...DAILY, from: 28, scale: 'linear' });
    expect(found.map((a) => [a.index, a.kind, a.direction])).toEqual([[44, 'spike', 'up']]);
    expect(found[0]!.expected).toBeCloseTo(0.5 + ((44 * 3) % 7) / 1000, 3);
  });
});
