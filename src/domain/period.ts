// Periods: the one grammar of the `period` parameter (REST, MCP and GraphQL all parse it here), resolving it to
// calendar days in a zone, and its echo in responses. Calendar units and their comparisons: ./calendar-periods.ts.

import { AppError } from '../errors/app-error.ts';
import { addDays, addYears, type DateRange, diffDays, type IsoDate, isIsoDate } from './calendar.ts';
import { CALENDAR_PERIODS, CALENDAR_SPANS, calendarRange, type CalendarPeriodName, type CalendarSpan, isCalendarPeriodName } from './calendar-periods.ts';
import { quoteInput } from './quote.ts';
import { assertTimeZone, todayInZone } from './time-zone.ts';

export const RELATIVE_PERIODS = ['today', 'yesterday', '7days', '28days', '90days', '180days', '365days'] as const;
export type RelativePeriodName = (typeof RELATIVE_PERIODS)[number];

/** Every named period, in the order docs and completions list them (`custom_START_END` besides). */
export const PERIOD_NAMES: readonly string[] = [...RELATIVE_PERIODS, ...CALENDAR_PERIODS];

/** The grammar in words, for parameter descriptions (REST, MCP, OpenAPI, GraphQL) and error messages. */
export const PERIOD_GRAMMAR =
  'today, yesterday, 7days, 28days, 90days, 180days, 365days (Ndays = the N complete days ending yesterday), month_to_date, quarter_to_date, year_to_date (from the first day of the month, quarter or year to today so far), last_month, last_quarter, last_year (the whole previous one), or custom_START_END with YYYY-MM-DD dates (inclusive) — calendar days in the project time zone.';

export const DEFAULT_PERIOD: RelativePeriodName = '28days';
/** GA4's launch: no property has data before it. */
export const EARLIEST_START: IsoDate = '2015-08-14';
export const MAX_CUSTOM_YEARS = 5;

/** A validated `period` value that does not yet depend on a clock or zone. */
export type PeriodSpec =
  | { readonly kind: 'today'; readonly name: 'today' }
  | { readonly kind: 'yesterday'; readonly name: 'yesterday' }
  | { readonly kind: 'last_days'; readonly name: RelativePeriodName; readonly days: number }
  | { readonly kind: 'calendar'; readonly name: CalendarPeriodName; readonly span: CalendarSpan }
  | { readonly kind: 'custom'; readonly name: string; readonly start: IsoDate; readonly end: IsoDate };

/** A period pinned to calendar days in a zone. `name` is the canonical `period` value. */
export interface ResolvedPeriod extends DateRange {
  readonly name: string;
  readonly timezone: string;
  /** Number of calendar days, inclusive. */
  readonly days: number;
  /** True when the period ends today, so its last day is still incomplete. */
  readonly includesToday: boolean;
  /** Calendar periods: the unit, which decides the comparison range (./compare.ts). */
  readonly calendar?: CalendarSpan;
}

/** The `period` object of a response. */
export interface PeriodJson {
  readonly name: string;
  readonly start: IsoDate;
  readonly end: IsoDate;
  readonly timezone: string;
  readonly previous?: { readonly start: IsoDate; readonly end: IsoDate };
}

const CUSTOM = /^custom_([^_]*)_([^_]*)$/;
const LAST_DAYS = /^(\d+)days$/;
const ALLOWED_TEXT = `${PERIOD_NAMES.join(', ')} or custom_START_END (dates as YYYY-MM-DD)`;

function periodError(raw: string, rule: string): AppError {
  return new AppError('invalid_period', `Invalid period ${quoteInput(raw)}: ${rule}.`, { param: 'period' });
}

/**
 * Parses a `period` value. Absent or empty means `28days`. Checks everything that does not need a
 * clock (format, real dates, START <= END, earliest start, span); `resolvePeriod` checks END <= today.
 */
export function parsePeriod(raw: string | undefined): PeriodSpec {
  if (raw === undefined || raw === '') return parsePeriod(DEFAULT_PERIOD);
  if (raw === 'today') return { kind: 'today', name: 'today' };
  if (raw === 'yesterday') return { kind: 'yesterday', name: 'yesterday' };
  if (isCalendarPeriodName(raw)) return { kind: 'calendar', name: raw, span: CALENDAR_SPANS[raw] };
  const days = LAST_DAYS.exec(raw);
  if (days !== null && (RELATIVE_PERIODS as readonly string[]).includes(raw)) {
    return { kind: 'last_days', name: raw as RelativePeriodName, days: Number(days[1]) };
  }
  const custom = CUSTOM.exec(raw);
  if (custom === null) throw periodError(raw, `expected one of ${ALLOWED_TEXT}`);
  const start = custom[1] ?? '';
  const end = custom[2] ?? '';
  for (const [label, value] of [
    ['START', start],
    ['END', end],
  ] as const) {
    if (!isIsoDate(value)) throw periodError(raw, `${label} "${value}" is not a calendar date written YYYY-MM-DD`);
  }
  if (start > end) throw periodError(raw, `START ${start} is after END ${end}`);
  if (start < EARLIEST_START) throw periodError(raw, `START ${start} is before ${EARLIEST_START}, the earliest date with data`);
  // The span limit lies past year 9999 for a START from 9995 on: no writable END can break it then
  // (and `resolvePeriod` refuses such an END as after today).
  const firstTooLate = addYears(start, MAX_CUSTOM_YEARS);
  if (isIsoDate(firstTooLate) && end >= firstTooLate) {
    const latestEnd = addDays(firstTooLate, -1);
    throw periodError(raw, `the range spans more than ${MAX_CUSTOM_YEARS} years (END may be ${latestEnd} at the latest)`);
  }
  return { kind: 'custom', name: raw, start, end };
}

export interface ResolveOptions {
  /** IANA zone of the project (its analytics property's zone). */
  readonly timezone: string;
  readonly now: Date;
}

/** Pins a period to calendar days in `timezone` as of `now`. `Ndays` = the N complete days ending yesterday. */
export function resolvePeriod(spec: PeriodSpec, { timezone, now }: ResolveOptions): ResolvedPeriod {
  assertTimeZone(timezone);
  const today = todayInZone(timezone, now);
  const yesterday = addDays(today, -1);
  let start: IsoDate;
  let end: IsoDate;
  switch (spec.kind) {
    case 'today':
      start = end = today;
      break;
    case 'yesterday':
      start = end = yesterday;
      break;
    case 'last_days':
      end = yesterday;
      start = addDays(yesterday, 1 - spec.days);
      break;
    case 'calendar':
      ({ start, end } = calendarRange(spec.span, today));
      break;
    case 'custom':
      if (spec.end > today) {
        throw periodError(spec.name, `END ${spec.end} is after today (${today} in ${timezone})`);
      }
      start = spec.start;
      end = spec.end;
      break;
  }
  const resolved = { name: spec.name, start, end, timezone, days: diffDays(start, end) + 1, includesToday: end === today };
  return spec.kind === 'calendar' ? { ...resolved, calendar: spec.span } : resolved;
}

/** Parse and resolve in one step. */
export function parseAndResolvePeriod(raw: string | undefined, options: ResolveOptions): ResolvedPeriod {
  return resolvePeriod(parsePeriod(raw), options);
}

/** The exact `period` echo of a response, with `previous` when a comparison is present. */
export function toPeriodJson(period: ResolvedPeriod, previous?: DateRange): PeriodJson {
  const base = { name: period.name, start: period.start, end: period.end, timezone: period.timezone };
  return previous === undefined ? base : { ...base, previous: { start: previous.start, end: previous.end } };
}
