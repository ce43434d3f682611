// Anomalies: a weekday-aware robust baseline finds a planted spike and the first day of a shift, ignores the
// weekly rhythm and noise, and never judges an incomplete day.
import { describe, expect, it } from 'vitest';
import { DAILY, findAnomalies, median, type SeriesPoint } from '../../../src/domain/insights/anomalies.ts';

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
