// Figures with an optional position, engine1 freshness and engine2 history cuts.
import { describe, expect, it } from 'vitest';
import { cutDaily, cutWeekly } from '../../src/reports/search-engine2.ts';
import { AppError } from '../../src/errors/app-error.ts';
import type { Warning } from '../../src/reports/meta.ts';
import { rejectionOf } from '../domain/expect-app-error.ts';
import { engine1Freshness, mergeFigures, settleEngines, toFiguresJson } from '../../src/reports/search-sources.ts';

describe('mergeFigures', () => {
  it('sums, recomputes CTR and weights the position by impressions of the parts that have one', () => {
    const merged = mergeFigures([
      { clicks: 10, impressions: 100, position: 2 },
      { clicks: 30, impressions: 300, position: 6 },
      { clicks: 60, impressions: 600, position: null },
    ]);
    expect(merged).toEqual({ clicks: 100, impressions: 1000, ctr: 0.1, position: 5 });
  });

  it('two engines: totals summed, position weighted by impressions (engine totals go through this one merge)', () => {
    const merged = mergeFigures([
      { clicks: 90, impressions: 3000, position: 8 },
      { clicks: 10, impressions: 1000, position: 4 },
    ]);
    expect(merged).toEqual({ clicks: 100, impressions: 4000, ctr: 0.025, position: 7 });
  });

  it('an engine without a position does not pull the mean towards 0 (null, not 0)', () => {
    expect(mergeFigures([{ clicks: 5, impressions: 50, position: 3 }, { clicks: 5, impressions: 5000, position: null }]).position).toBe(3);
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

describe('settleEngines', () => {
  const failing = (provider: string, code: 'upstream_error' | 'upstream_timeout' | 'invalid_parameter' = 'upstream_error') =>
    Promise.reject(new AppError(code, `${provider} failed`, { provider }));
  const rejection = async (promise: Promise<unknown>) => {
    const error = await rejectionOf(promise);
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  };

  it('both answering: both values, no warning', async () => {
    const warnings: Warning[] = [];
    expect(await settleEngines('all', Promise.resolve(1), Promise.resolve(2), warnings)).toEqual([1, 2]);
    expect(warnings).toEqual([]);
  });

  it.each([
    ['engine1', 0],
    ['engine2', 1],
  ] as const)('sp=all, %s failing upstream: the other answers and the failed one is named in a warning', async (engine, index) => {
    const warnings: Warning[] = [];
    const parts: [Promise<number>, Promise<number>] = [Promise.resolve(1), Promise.resolve(2)];
    parts[index] = failing(engine, 'upstream_timeout');
    const settled = await settleEngines('all', parts[0], parts[1], warnings);
    expect(settled[index]).toBeUndefined();
    expect(settled[1 - index]).toBe(index === 0 ? 2 : 1);
    expect(warnings).toEqual([{ code: 'source_failed', message: `${engine} could not answer (upstream_timeout); its data is left out. ${engine} failed` }]);
  });

  it('sp=all, both failing: the request fails with the first failure, never an empty answer', async () => {
    const warnings: Warning[] = [];
    const error = await rejection(settleEngines('all', failing('engine1'), failing('engine2'), warnings));
    expect(error).toMatchObject({ code: 'upstream_error', provider: 'engine1', status: 502 });
    expect(warnings).toEqual([]);
  });

  it('a caller error is not tolerated even with sp=all', async () => {
    const error = await rejection(settleEngines('all', failing('engine1', 'invalid_parameter'), Promise.resolve(2), []));
    expect(error).toMatchObject({ code: 'invalid_parameter', provider: 'engine1' });
  });

  it('an engine asked for alone, or sp=all with one engine connected, fails as usual', async () => {
    expect(await rejection(settleEngines('engine1', failing('engine1'), undefined, []))).toMatchObject({ code: 'upstream_error', provider: 'engine1' });
    expect(await rejection(settleEngines('all', undefined, failing('engine2'), []))).toMatchObject({ code: 'upstream_error', provider: 'engine2' });
    expect(await rejection(settleEngines('engine2', Promise.resolve(1), failing('engine2'), []))).toMatchObject({ code: 'upstream_error', provider: 'engine2' });
  });
});
