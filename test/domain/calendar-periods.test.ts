// Calendar periods (month/quarter/year to date, last month/quarter/year): the days they cover in the project's zone
// and the ranges compare=previous and compare=year give — table-driven at year boundaries and in leap years, and
// as properties over any day, any zone and the hours around clock changes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, addYears, daysInMonth, diffDays, isIsoDate, rangeLength } from '../../src/domain/calendar.ts';
import { CALENDAR_PERIODS, CALENDAR_SPANS, calendarComparison, calendarRange, shiftUnit, startOfUnit, type CalendarPeriodName } from '../../src/domain/calendar-periods.ts';
import { comparisonRange, previousRange } from '../../src/domain/compare.ts';
import { parseAndResolvePeriod, parsePeriod, PERIOD_NAMES, resolvePeriod, toPeriodJson } from '../../src/domain/period.ts';
import { todayInZone } from '../../src/domain/time-zone.ts';

type Row = [name: CalendarPeriodName, today: string, period: string, previous: string, year: string];
const range = (text: string) => {
  const [start, end] = text.split('..') as [string, string];
  return { start, end };
};

describe('calendar periods on a given day', () => {
  it.each<Row>([
    // November 25: Nov 1–25 vs Oct 1–25 (the documented example), a year earlier the same dates.
    ['month_to_date', '2026-11-25', '2026-11-01..2026-11-25', '2026-10-01..2026-10-25', '2025-11-01..2025-11-25'],
    ['last_month', '2026-11-25', '2026-10-01..2026-10-31', '2026-09-01..2026-09-30', '2025-10-01..2025-10-31'],
    // March 31 to date: February is shorter, so the previous month is clipped to its end.
    ['month_to_date', '2026-03-31', '2026-03-01..2026-03-31', '2026-02-01..2026-02-28', '2025-03-01..2025-03-31'],
    ['month_to_date', '2024-03-30', '2024-03-01..2024-03-30', '2024-02-01..2024-02-29', '2023-03-01..2023-03-30'],
    // Leap day: to date on 29 February compares with 28 February a year earlier; the whole February with the whole one.
    ['month_to_date', '2024-02-29', '2024-02-01..2024-02-29', '2024-01-01..2024-01-29', '2023-02-01..2023-02-28'],
    ['last_month', '2024-03-15', '2024-02-01..2024-02-29', '2024-01-01..2024-01-31', '2023-02-01..2023-02-28'],
    ['last_month', '2025-03-15', '2025-02-01..2025-02-28', '2025-01-01..2025-01-31', '2024-02-01..2024-02-29'],
    // Year boundaries: January 1 and the month, quarter and year before it.
    ['month_to_date', '2027-01-01', '2027-01-01..2027-01-01', '2026-12-01..2026-12-01', '2026-01-01..2026-01-01'],
    ['last_month', '2027-01-01', '2026-12-01..2026-12-31', '2026-11-01..2026-11-30', '2025-12-01..2025-12-31'],
    ['quarter_to_date', '2027-01-01', '2027-01-01..2027-01-01', '2026-10-01..2026-10-01', '2026-01-01..2026-01-01'],
    ['last_quarter', '2027-01-01', '2026-10-01..2026-12-31', '2026-07-01..2026-09-30', '2025-10-01..2025-12-31'],
    ['year_to_date', '2027-01-01', '2027-01-01..2027-01-01', '2026-01-01..2026-01-01', '2026-01-01..2026-01-01'],
    ['last_year', '2027-01-01', '2026-01-01..2026-12-31', '2025-01-01..2025-12-31', '2025-01-01..2025-12-31'],
    // Quarters: Q3 has 92 days, Q2 91 (clipped), Q1 of a leap year 91.
    ['quarter_to_date', '2026-09-30', '2026-07-01..2026-09-30', '2026-04-01..2026-06-30', '2025-07-01..2025-09-30'],
    ['quarter_to_date', '2026-05-31', '2026-04-01..2026-05-31', '2026-01-01..2026-03-02', '2025-04-01..2025-05-31'],
    ['last_quarter', '2024-05-10', '2024-01-01..2024-03-31', '2023-10-01..2023-12-31', '2023-01-01..2023-03-31'],
    // A leap year to date at its end: 366 days against 365, clipped to the previous year's end.
    ['year_to_date', '2024-12-31', '2024-01-01..2024-12-31', '2023-01-01..2023-12-31', '2023-01-01..2023-12-31'],
    ['year_to_date', '2024-03-01', '2024-01-01..2024-03-01', '2023-01-01..2023-03-02', '2023-01-01..2023-03-01'],
    ['last_year', '2025-06-01', '2024-01-01..2024-12-31', '2023-01-01..2023-12-31', '2023-01-01..2023-12-31'],
  ])('%s on %s covers %s; previous %s; year %s', (name, today, period, previous, year) => {
    const span = CALENDAR_SPANS[name];
    const days = calendarRange(span, today);
    expect(days).toEqual(range(period));
    expect(calendarComparison(days, span, 'previous')).toEqual(range(previous));
    expect(calendarComparison(days, span, 'year')).toEqual(range(year));
  });
});

const anyDay = fc.integer({ min: 0, max: 365 * 25 }).map((n) => addDays('2016-01-01', n));
const calendarName = fc.constantFrom(...CALENDAR_PERIODS);

describe('calendar period properties', () => {
  it('a to-date period starts on its unit’s first day and ends today; a whole one is the unit just before', () => {
    fc.assert(
      fc.property(calendarName, anyDay, (name, today) => {
        const span = CALENDAR_SPANS[name];
        const { start, end } = calendarRange(span, today);
        expect(start).toBe(startOfUnit(start, span.unit));
        if (span.toDate) {
          expect(end).toBe(today);
          expect(start).toBe(startOfUnit(today, span.unit));
        } else {
          expect(addDays(end, 1)).toBe(startOfUnit(today, span.unit));
          expect(shiftUnit(start, span.unit, 1)).toBe(addDays(end, 1));
        }
      }),
    );
  });

  it('compare=previous: the unit before, as many days (clipped to its end) to date, the whole unit otherwise — never overlapping', () => {
    fc.assert(
      fc.property(calendarName, anyDay, (name, today) => {
        const span = CALENDAR_SPANS[name];
        const period = calendarRange(span, today);
        const previous = calendarComparison(period, span, 'previous');
        const unitBefore = { start: shiftUnit(period.start, span.unit, -1), end: addDays(period.start, -1) };
        expect(previous.start).toBe(unitBefore.start);
        expect(previous.end < period.start).toBe(true);
        if (span.toDate) expect(rangeLength(previous)).toBe(Math.min(rangeLength(period), rangeLength(unitBefore)));
        else expect(previous).toEqual(unitBefore);
      }),
    );
  });

  it('compare=year: the same calendar dates a year earlier (29 February → 28th), whole units whole', () => {
    fc.assert(
      fc.property(calendarName, anyDay, (name, today) => {
        const span = CALENDAR_SPANS[name];
        const period = calendarRange(span, today);
        const year = calendarComparison(period, span, 'year');
        expect(year.start).toBe(addYears(period.start, -1));
        expect(year.end).toBe(span.toDate ? addYears(period.end, -1) : addDays(shiftUnit(year.start, span.unit, 1), -1));
        expect(Math.abs(rangeLength(year) - rangeLength(period))).toBeLessThanOrEqual(1);
      }),
    );
  });

  // Any instant, including the hours around clock changes, in zones east and west of UTC and with odd offsets.
  const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'America/Santiago', 'Asia/Kathmandu'];
  const instants = fc.integer({ min: Date.parse('2016-01-01T00:00:00Z'), max: Date.parse('2035-12-31T00:00:00Z') });
  const nearClockChanges = fc
    .constantFrom('2026-03-29T01:00:00Z', '2026-10-25T01:00:00Z', '2026-03-08T07:00:00Z', '2026-11-01T06:00:00Z', '2026-04-04T15:00:00Z', '2026-12-31T23:00:00Z', '2024-02-29T12:00:00Z')
    .chain((iso) => fc.integer({ min: -26 * 3_600_000, max: 26 * 3_600_000 }).map((d) => Date.parse(iso) + d));

  it('resolves in the project zone at any instant: the name echoed, days counted, today flagged only to date', () => {
    fc.assert(
      fc.property(calendarName, fc.constantFrom(...ZONES), fc.oneof(instants, nearClockChanges), (name, timezone, t) => {
        const now = new Date(t);
        const today = todayInZone(timezone, now);
        const period = resolvePeriod(parsePeriod(name), { timezone, now });
        expect(period).toMatchObject({ name, timezone, ...calendarRange(CALENDAR_SPANS[name], today), includesToday: CALENDAR_SPANS[name].toDate });
        expect(isIsoDate(period.start) && period.days === diffDays(period.start, period.end) + 1).toBe(true);
        // The comparison follows the calendar unit whatever the path to it.
        expect(previousRange(period, 'previous')).toEqual(calendarComparison(period, CALENDAR_SPANS[name], 'previous'));
        expect(comparisonRange(period, 'year')).toEqual(calendarComparison(period, CALENDAR_SPANS[name], 'year'));
      }),
      { numRuns: 300 },
    );
  });

  it('a whole month always has its real number of days, leap Februaries included', () => {
    fc.assert(
      fc.property(anyDay, (today) => {
        const { start, end } = calendarRange(CALENDAR_SPANS.last_month, today);
        return rangeLength({ start, end }) === daysInMonth(Number(start.slice(0, 4)), Number(start.slice(5, 7)));
      }),
    );
  });
});

describe('the period grammar names them', () => {
  it('lists every calendar period among the period names and parses each', () => {
    expect(PERIOD_NAMES).toEqual(expect.arrayContaining([...CALENDAR_PERIODS]));
    for (const name of CALENDAR_PERIODS) expect(parsePeriod(name)).toEqual({ kind: 'calendar', name, span: CALENDAR_SPANS[name] });
  });

  it('echoes the name given, with the calendar comparison as previous', () => {
    const period = parseAndResolvePeriod('last_month', { timezone: 'Europe/Berlin', now: new Date('2026-03-31T22:30:00Z') });
    // Already April 1 in Berlin: last month is March, compared with February.
    expect(toPeriodJson(period, previousRange(period, 'previous'))).toStrictEqual({
      name: 'last_month',
      start: '2026-03-01',
      end: '2026-03-31',
      timezone: 'Europe/Berlin',
      previous: { start: '2026-02-01', end: '2026-02-28' },
    });
  });
});
