// Figures with an optional position, engine1 freshness and engine2 history cuts.
import { describe, expect, it } from 'vitest';
import { cutDaily, cutWeekly } from '../../src/reports/search-engine2.ts';
import { engine1Freshness, mergeFigures, toFiguresJson } from '../../src/reports/search-sources.ts';

describe('mergeFigures', () => {
  it('sums, recomputes CTR and weights the position by impressions of the parts that have one', () => {
    const merged = mergeFigures([
      { clicks: 10, impressions: 100, position: 2 },
      { clicks: 30, impressions: 300, position: 6 },
      { clicks: 60, impressions: 600, position: null },
    ]);
    expect(merged).toEqual({ clicks: 100, impressions: 1000, ctr: 0.1, position: 5 });
  });

  it('no positioned part: null position; nothing at all: zeros', () => {
    expect(mergeFigures([{ clicks: 1, impressions: 4, position: null }])).toEqual({ clicks: 1, impressions: 4, ctr: 0.25, position: null });
    expect(mergeFigures([])).toEqual({ clicks: 0, impressions: 0, ctr: 0, position: null });
  });

  it('compares each figure; an unknown position stays null', () => {
    const json = toFiguresJson({ clicks: 12, impressions: 100, ctr: 0.12, position: null }, { clicks: 10, impressions: 100, ctr: 0.1, position: 3 });
    expect(json.clicks).toEqual({ value: 12, previous: 10, delta: 2, deltaPct: 0.2 });
    expect(json.position).toBeNull();
  });
});

describe('engine1Freshness', () => {
  const range = { start: '2026-11-01', end: '2026-11-21' };
  it('warns when the range reaches the first incomplete day', () => {
    const f = engine1Freshness(range, '2026-11-19', '2026-11-18');
    expect(f.dataThrough).toBe('2026-11-18');
    expect(f.warnings).toEqual([expect.objectContaining({ code: 'incomplete_data' })]);
  });
  it('a range of final days is complete through its end', () => {
    expect(engine1Freshness(range, undefined, undefined)).toEqual({ dataThrough: '2026-11-21', warnings: [] });
    expect(engine1Freshness({ start: '2026-10-01', end: '2026-10-10' }, '2026-11-19', '2026-11-18')).toEqual({ dataThrough: '2026-10-10', warnings: [] });
  });
});

describe('engine2 history cuts', () => {
  const weekly = [
    { date: '2026-10-23', n: 1 },
    { date: '2026-10-30', n: 2 },
    { date: '2026-11-06', n: 3 },
    { date: '2026-11-13', n: 4 },
  ];
  it('counts a weekly bucket in the period it starts in, and says which weeks', () => {
    const cut = cutWeekly(weekly, { start: '2026-10-25', end: '2026-11-07' });
    expect(cut.rows.map((r) => r.n)).toEqual([2, 3]);
    expect(cut.warnings[0]!.message).toContain('2 week(s) starting 2026-10-30 to 2026-11-06');
  });
  it('no week starting inside the period: nothing, with a warning', () => {
    const cut = cutWeekly(weekly, { start: '2026-10-31', end: '2026-11-05' });
    expect(cut.rows).toEqual([]);
    expect(cut.warnings[0]!.code).toBe('weekly_data');
  });
  it('daily rows past the last day Bing has are flagged', () => {
    const daily = [{ date: '2026-11-18' }, { date: '2026-11-19' }];
    expect(cutDaily(daily, { start: '2026-11-19', end: '2026-11-21' })).toEqual({
      rows: [{ date: '2026-11-19' }],
      warnings: [expect.objectContaining({ code: 'incomplete_data', message: expect.stringContaining('2026-11-19') })],
    });
    expect(cutDaily(daily, { start: '2026-11-18', end: '2026-11-19' }).warnings).toEqual([]);
  });
});
