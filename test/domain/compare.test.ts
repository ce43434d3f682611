import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, diffDays, isoWeekday, rangeLength } from '../../src/domain/calendar.ts';
import { compared, comparisonRange, parseCompare, previousRange } from '../../src/domain/compare.ts';
import { expectAppError } from './expect-app-error.ts';

describe('parseCompare', () => {
  it.each([
    [undefined, 'previous', 'previous'],
    [undefined, 'none', 'none'],
    ['', 'none', 'none'],
    ['previous', 'none', 'previous'],
    ['year', 'previous', 'year'],
    ['none', 'previous', 'none'],
  ] as const)('%j (default %s) → %s', (raw, fallback, expected) => {
    expect(parseCompare(raw, fallback)).toBe(expected);
  });

  it.each(['Previous', 'yoy', 'last_year', '1'])('rejects %j', (raw) => {
    expectAppError(() => parseCompare(raw, 'none'), { code: 'invalid_parameter', param: 'compare', includes: [`"${raw}"`] });
  });
});

describe('previousRange', () => {
  it.each([
    [{ start: '2026-10-25', end: '2026-11-21' }, 'previous', { start: '2026-09-27', end: '2026-10-24' }],
    [{ start: '2026-11-22', end: '2026-11-22' }, 'previous', { start: '2026-11-21', end: '2026-11-21' }],
    [{ start: '2026-03-01', end: '2026-03-31' }, 'previous', { start: '2026-01-29', end: '2026-02-28' }],
    [{ start: '2026-10-25', end: '2026-11-21' }, 'year', { start: '2025-10-26', end: '2025-11-22' }],
    [{ start: '2025-11-22', end: '2026-11-21' }, 'year', { start: '2024-11-16', end: '2025-11-15' }],
  ] as const)('%j %s → %j', (range, mode, expected) => {
    expect(previousRange(range, mode)).toEqual(expected);
  });

  it('none has no range', () => {
    expect(comparisonRange({ start: '2026-01-01', end: '2026-01-02' }, 'none')).toBeUndefined();
  });

  const range = fc
    .tuple(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 0, max: 1826 }))
    .map(([s, len]) => ({ start: addDays('2016-01-01', s), end: addDays('2016-01-01', s + len) }));

  it('previous: same length, ends the day before', () => {
    fc.assert(
      fc.property(range, (r) => {
        const p = previousRange(r, 'previous');
        return rangeLength(p) === rangeLength(r) && diffDays(p.end, r.start) === 1;
      }),
    );
  });

  it('year: same length, same weekdays, never overlapping, 364 days back for periods up to 364 days', () => {
    fc.assert(
      fc.property(range, (r) => {
        const p = previousRange(r, 'year');
        const shift = diffDays(p.start, r.start);
        return (
          rangeLength(p) === rangeLength(r) &&
          isoWeekday(p.start) === isoWeekday(r.start) &&
          p.end < r.start &&
          (rangeLength(r) > 364 || shift === 364)
        );
      }),
    );
  });
});

describe('compared', () => {
  it.each([
    [1520, 1402, { value: 1520, previous: 1402, delta: 118, deltaPct: 0.0842 }],
    [0, 10, { value: 0, previous: 10, delta: -10, deltaPct: -1 }],
    [10, 0, { value: 10, previous: 0, delta: 10, deltaPct: null }],
    [0, 0, { value: 0, previous: 0, delta: 0, deltaPct: null }],
    [0.3, 0.1, { value: 0.3, previous: 0.1, delta: 0.2, deltaPct: 2 }],
    [0.5234, 0.5011, { value: 0.5234, previous: 0.5011, delta: 0.0223, deltaPct: 0.0445 }],
    [100, 100.000001, { value: 100, previous: 100.000001, delta: -0.000001, deltaPct: 0 }],
  ])('compared(%d, %d)', (value, previous, expected) => {
    expect(compared(value, previous)).toStrictEqual(expected);
  });

  it('deltaPct has at most 4 decimals and the sign of delta', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e7 }), fc.integer({ min: 1, max: 1e7 }), (v, p) => {
        const c = compared(v, p);
        const pct = c.deltaPct ?? Number.NaN;
        return Number(pct.toFixed(4)) === pct && (c.delta === 0 || pct === 0 || Math.sign(pct) === Math.sign(c.delta ?? 0));
      }),
    );
  });
});
