import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  addYears,
  diffDays,
  eachDay,
  fromEpochDay,
  isIsoDate,
  isoWeekday,
  isoWeekStart,
  rangeLength,
  startOfIsoWeek,
  startOfMonth,
  startOfNextMonth,
  toEpochDay,
} from '../../src/domain/calendar.ts';

const anyDate = fc.integer({ min: toEpochDay('1990-01-01'), max: toEpochDay('2100-12-31') }).map(fromEpochDay);

describe('isIsoDate', () => {
  it.each([
    ['2026-01-31', true],
    ['2024-02-29', true],
    ['2025-02-29', false],
    ['2026-02-30', false],
    ['2026-13-01', false],
    ['2026-00-10', false],
    ['2026-1-01', false],
    ['20260101', false],
    ['2026-01-01T00:00', false],
    ['0999-01-01', false],
    ['', false],
  ])('%s → %s', (value, expected) => {
    expect(isIsoDate(value)).toBe(expected);
  });
});

describe('day arithmetic', () => {
  it.each([
    ['2026-03-01', -1, '2026-02-28'],
    ['2024-03-01', -1, '2024-02-29'],
    ['2025-12-31', 1, '2026-01-01'],
    ['2026-01-15', 0, '2026-01-15'],
    ['2026-01-15', -364, '2025-01-16'],
  ])('addDays(%s, %i) = %s', (date, days, expected) => {
    expect(addDays(date, days)).toBe(expected);
    expect(diffDays(date, expected)).toBe(days);
  });

  it('addDays and diffDays are inverse', () => {
    fc.assert(
      fc.property(anyDate, fc.integer({ min: -4000, max: 4000 }), (date, n) => {
        const moved = addDays(date, n);
        return isIsoDate(moved) && diffDays(date, moved) === n && addDays(moved, -n) === date;
      }),
    );
  });

  it('rangeLength and eachDay agree', () => {
    expect(rangeLength({ start: '2026-01-30', end: '2026-02-02' })).toBe(4);
    expect(eachDay({ start: '2026-01-30', end: '2026-02-02' })).toEqual(['2026-01-30', '2026-01-31', '2026-02-01', '2026-02-02']);
  });
});

describe('weeks and months', () => {
  it.each([
    ['2026-03-30', 1],
    ['2026-03-29', 7],
    ['1970-01-01', 4],
    ['2024-02-29', 4],
  ])('isoWeekday(%s) = %i', (date, weekday) => {
    expect(isoWeekday(date)).toBe(weekday);
  });

  it('isoWeekday matches Date#getUTCDay', () => {
    fc.assert(fc.property(anyDate, (date) => isoWeekday(date) === (new Date(`${date}T00:00:00Z`).getUTCDay() || 7)));
  });

  it('startOfIsoWeek is a Monday at most 6 days earlier', () => {
    fc.assert(
      fc.property(anyDate, (date) => {
        const monday = startOfIsoWeek(date);
        const back = diffDays(monday, date);
        return isoWeekday(monday) === 1 && back >= 0 && back <= 6;
      }),
    );
  });

  it.each([
    ['2026-01-31', '2026-01-01', '2026-02-01'],
    ['2026-12-05', '2026-12-01', '2027-01-01'],
  ])('month of %s', (date, first, next) => {
    expect(startOfMonth(date)).toBe(first);
    expect(startOfNextMonth(date)).toBe(next);
  });

  it.each([
    ['2020-02-29', 5, '2025-02-28'],
    ['2020-02-29', 4, '2024-02-29'],
    ['2021-06-15', 5, '2026-06-15'],
  ])('addYears(%s, %i) = %s', (date, years, expected) => {
    expect(addYears(date, years)).toBe(expected);
  });
});

describe('isoWeekStart', () => {
  it.each([
    [2026, 1, '2025-12-29'],
    [2026, 47, '2026-11-16'],
    [2020, 53, '2020-12-28'],
    [2021, 1, '2021-01-04'],
  ])('ISO %i-W%i starts %s', (year, week, monday) => {
    expect(isoWeekStart(year, week)).toBe(monday);
  });

  it('is the Monday of any date in that week', () => {
    fc.assert(
      fc.property(anyDate, (date) => {
        // The ISO year of a date is the year of the Thursday of its week.
        const thursday = addDays(startOfIsoWeek(date), 3);
        const isoYear = Number(thursday.slice(0, 4));
        const week = Math.floor(diffDays(isoWeekStart(isoYear, 1), startOfIsoWeek(date)) / 7) + 1;
        return isoWeekStart(isoYear, week) === startOfIsoWeek(date) && week >= 1 && week <= 53;
      }),
    );
  });
});
