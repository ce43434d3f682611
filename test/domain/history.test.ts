import { describe, expect, it } from 'vitest';
import { comparisonUnavailable, coversRange, earliestDay, engine1History, engine1WindowStart, historyFromRows } from '../../src/domain/history.ts';

describe('provider history', () => {
  it("engine1's window starts 486 Pacific days before today", () => {
    // 2026-03-02 05:00 UTC is still 2026-03-01 in Los Angeles.
    expect(engine1WindowStart(new Date('2026-03-02T05:00:00Z'))).toBe('2024-10-31');
    expect(engine1WindowStart(new Date('2026-03-02T12:00:00Z'))).toBe('2024-11-01');
    expect(engine1History(new Date('2026-03-02T12:00:00Z'))).toEqual({ provider: 'engine1', firstDay: '2024-11-01' });
  });

  it('the earliest day of the rows, never below the floor; none without rows', () => {
    expect(earliestDay(['2024-03-05', '2024-01-09', '2024-02-01'])).toBe('2024-01-09');
    expect(earliestDay(['2024-03-05', '2010-01-01', '2024-02-01'])).toBe('2024-02-01'); // before the default floor
    expect(earliestDay(['2024-03-05', '2024-02-01'], '2024-02-01')).toBe('2024-02-01');
    expect(earliestDay(['2024-03-05', '2024-02-01'], '2024-02-02')).toBe('2024-03-05');
    expect(earliestDay([])).toBeUndefined();
    expect(historyFromRows('engine2', new Set(['2025-06-02', '2025-05-30']))).toEqual({ provider: 'engine2', firstDay: '2025-05-30' });
    expect(historyFromRows('analytics', [])).toEqual({ provider: 'analytics', firstDay: undefined });
  });

  it('covers a range that starts on or after the first day', () => {
    const history = { provider: 'analytics' as const, firstDay: '2025-01-10' };
    expect(coversRange(history, { start: '2025-01-10', end: '2025-01-20' })).toBe(true);
    expect(coversRange(history, { start: '2025-01-09', end: '2025-01-20' })).toBe(false);
    expect(coversRange({ provider: 'analytics', firstDay: undefined }, { start: '2030-01-01', end: '2030-01-02' })).toBe(false);
  });

  it('explains an uncovered comparison, with or without data', () => {
    const range = { start: '2024-01-01', end: '2024-01-31' };
    expect(comparisonUnavailable({ provider: 'engine2', firstDay: '2024-03-01' }, range)).toEqual({
      code: 'comparison_unavailable',
      message: 'engine2 has data from 2024-03-01 on, so the comparison range 2024-01-01 – 2024-01-31 is not covered: its comparison is null, not 0.',
    });
    expect(comparisonUnavailable({ provider: 'analytics', firstDay: undefined }, range, 'it is left out').message).toBe(
      'analytics has no data yet, so the comparison range 2024-01-01 – 2024-01-31 is not covered: it is left out.',
    );
  });
});
