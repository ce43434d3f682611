// Calendar periods: month, quarter and year to date and the last whole month, quarter and year, in the project's
// zone, and the range each is compared with. `*_to_date` runs from the unit's first day to today (so far);
// compare=previous is the previous unit over the same number of days, clipped to that unit's end (Nov 1–25 vs
// Oct 1–25; Mar 1–31 vs Feb 1–28), or the whole previous unit for a whole unit; compare=year is the same calendar
// dates a year earlier (29 February becomes the 28th), or the whole same unit a year earlier — never weekday-aligned.
import { addDays, addYears, type DateRange, formatYmd, type IsoDate, rangeLength } from './calendar.ts';

export const CALENDAR_PERIODS = ['month_to_date', 'last_month', 'quarter_to_date', 'last_quarter', 'year_to_date', 'last_year'] as const;
export type CalendarPeriodName = (typeof CALENDAR_PERIODS)[number];

export type CalendarUnit = 'month' | 'quarter' | 'year';

/** What a calendar period is: its unit, and whether it runs to today or is the whole previous unit. */
export interface CalendarSpan {
  readonly unit: CalendarUnit;
  readonly toDate: boolean;
}

export const CALENDAR_SPANS: Readonly<Record<CalendarPeriodName, CalendarSpan>> = {
  month_to_date: { unit: 'month', toDate: true },
  last_month: { unit: 'month', toDate: false },
  quarter_to_date: { unit: 'quarter', toDate: true },
  last_quarter: { unit: 'quarter', toDate: false },
  year_to_date: { unit: 'year', toDate: true },
  last_year: { unit: 'year', toDate: false },
};

export function isCalendarPeriodName(value: string): value is CalendarPeriodName {
  return (CALENDAR_PERIODS as readonly string[]).includes(value);
}

const MONTHS: Readonly<Record<CalendarUnit, number>> = { month: 1, quarter: 3, year: 12 };

/** The first day of the unit containing `date`. */
export function startOfUnit(date: IsoDate, unit: CalendarUnit): IsoDate {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const size = MONTHS[unit];
  return formatYmd(year, Math.floor((month - 1) / size) * size + 1, 1);
}

/** The first day of the unit `count` units after (negative: before) the one starting on `start`. */
export function shiftUnit(start: IsoDate, unit: CalendarUnit, count: number): IsoDate {
  const months = Number(start.slice(0, 4)) * 12 + Number(start.slice(5, 7)) - 1 + count * MONTHS[unit];
  return formatYmd(Math.floor(months / 12), (months % 12) + 1, 1);
}

/** The whole unit starting on `start`. */
export function wholeUnit(start: IsoDate, unit: CalendarUnit): DateRange {
  return { start, end: addDays(shiftUnit(start, unit, 1), -1) };
}

/** The period's days on `today`: the unit so far, or the whole unit before today's. */
export function calendarRange(span: CalendarSpan, today: IsoDate): DateRange {
  const current = startOfUnit(today, span.unit);
  return span.toDate ? { start: current, end: today } : wholeUnit(shiftUnit(current, span.unit, -1), span.unit);
}

/** The range a calendar period (`range`, as `calendarRange` made it) is compared with. */
export function calendarComparison(range: DateRange, span: CalendarSpan, mode: 'previous' | 'year'): DateRange {
  const before = shiftUnit(range.start, span.unit, mode === 'previous' ? -1 : -12 / MONTHS[span.unit]);
  const unit = wholeUnit(before, span.unit);
  if (!span.toDate) return unit;
  const end = mode === 'previous' ? addDays(before, rangeLength(range) - 1) : addYears(range.end, -1);
  return { start: before, end: end < unit.end ? end : unit.end };
}
