import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, type DateRange } from '../../src/domain/calendar.ts';
import { compared } from '../../src/domain/compare.ts';
import {
  comparisonUnavailable,
  coveredPrevious,
  coversRange,
  decideCoverage,
  earliestDay,
  engine1History,
  engine1WindowStart,
  historyFromRows,
  type Coverage,
  type CoverageOptions,
  type History,
} from '../../src/domain/history.ts';
import type { Source } from '../../src/domain/sources.ts';

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

describe('decideCoverage: the one decision every report and insight reads', () => {
  const range = { start: '2025-10-19', end: '2025-11-15' };
  const engine1 = { provider: 'engine1' as const, firstDay: '2025-07-28' };
  const engine2 = { provider: 'engine2' as const, firstDay: '2026-05-27' };
  const analytics = { provider: 'analytics' as const, firstDay: '2021-01-01' };
  const messages = (c: Coverage) => c.warnings.map((w) => w.message);

  it.each<[string, History[], DateRange | undefined, CoverageOptions, { covered: Source[]; uncovered: Source[]; messages: string[] }]>([
    ['not comparing: everything counts as covered, no warning', [engine1, engine2], undefined, {}, { covered: ['engine1', 'engine2'], uncovered: [], messages: [] }],
    ['one provider, covered', [analytics], range, {}, { covered: ['analytics'], uncovered: [], messages: [] }],
    [
      'one provider without data at all',
      [{ provider: 'analytics', firstDay: undefined }],
      range,
      {},
      { covered: [], uncovered: ['analytics'], messages: ['analytics has no data yet, so the comparison range 2025-10-19 – 2025-11-15 is not covered: its comparison is null, not 0.'] },
    ],
    [
      "a report's combined totals: not compared, the covered engine keeps its own comparison",
      [engine1, engine2],
      range,
      { combined: 'null' },
      {
        covered: ['engine1'],
        uncovered: ['engine2'],
        messages: ['engine2 has data from 2026-05-27 on, so the comparison range 2025-10-19 – 2025-11-15 is not covered: its comparison is null, not 0; the combined totals are not compared (byProvider.engine1 compares like for like).'],
      },
    ],
    [
      'an insight: like for like over the covered engine',
      [engine1, engine2],
      range,
      { combined: 'like_for_like' },
      {
        covered: ['engine1'],
        uncovered: ['engine2'],
        messages: ['engine2 has data from 2026-05-27 on, so the comparison range 2025-10-19 – 2025-11-15 is not covered: it is left out, and the comparison is engine1 alone over both ranges (like for like), never a 0 for the missing range.'],
      },
    ],
    [
      'like for like with no engine covering: null',
      [{ ...engine1, firstDay: '2026-01-01' }, engine2],
      range,
      { combined: 'like_for_like' },
      {
        covered: [],
        uncovered: ['engine1', 'engine2'],
        messages: [
          'engine1 has data from 2026-01-01 on, so the comparison range 2025-10-19 – 2025-11-15 is not covered: its comparison is null, not 0.',
          'engine2 has data from 2026-05-27 on, so the comparison range 2025-10-19 – 2025-11-15 is not covered: its comparison is null, not 0.',
        ],
      },
    ],
    [
      'a stated consequence (an anomaly baseline)',
      [engine2],
      range,
      { consequence: 'days before 2026-05-27 are no baseline' },
      { covered: [], uncovered: ['engine2'], messages: ['engine2 has data from 2026-05-27 on, so the comparison range 2025-10-19 – 2025-11-15 is not covered: days before 2026-05-27 are no baseline.'] },
    ],
  ])('%s', (_name, histories, compareWith, options, expected) => {
    const coverage = decideCoverage(histories, compareWith, options);
    expect({ covered: coverage.covered, uncovered: coverage.uncovered, messages: messages(coverage) }).toEqual(expected);
    expect(coverage.warnings.every((w) => w.code === 'comparison_unavailable')).toBe(true);
  });
});

describe('property: coverage never yields 0 for an uncovered range', () => {
  const day = fc.integer({ min: 0, max: 3000 }).map((n) => addDays('2018-01-01', n));
  const history = (provider: Source) => fc.record({ provider: fc.constant(provider), firstDay: fc.option(day, { nil: undefined }) });
  const histories = fc.subarray(['analytics', 'engine1', 'engine2'] as Source[], { minLength: 1 }).chain((ps) => fc.tuple(...ps.map(history)));
  const range = fc.tuple(day, fc.integer({ min: 0, max: 400 })).map(([start, length]) => ({ start, end: addDays(start, length) }));

  it('an uncovered provider compares with null (whatever it would have counted), is named with its first day, and a covered one keeps its number', () => {
    fc.assert(
      fc.property(histories, range, fc.constantFrom<CoverageOptions['combined']>('null', 'like_for_like'), (hs, r, combined) => {
        const coverage = decideCoverage(hs, r, { combined });
        for (const h of hs) {
          const reaches = h.firstDay !== undefined && h.firstDay <= r.start;
          // What a provider answers for days it has no data for is 0: the decision must never let that through.
          const previous = coveredPrevious(coverage, h.provider, 0);
          expect(previous, `${h.provider} ${h.firstDay} ${r.start}`).toBe(reaches ? 0 : null);
          expect(compared(5, previous).previous).toBe(reaches ? 0 : null);
          const named = coverage.warnings.filter((w) => w.message.startsWith(`${h.provider} `));
          expect(named).toHaveLength(reaches ? 0 : 1);
          if (!reaches) expect(named[0]!.message).toContain(h.firstDay === undefined ? 'has no data yet' : `has data from ${h.firstDay} on`);
        }
        expect([...coverage.covered, ...coverage.uncovered].sort()).toEqual(hs.map((h) => h.provider).sort());
      }),
      { numRuns: 500 },
    );
  });
});
