// Comparisons: the `compare` parameter, the previous range it selects, and Compared numbers.

import { invalidParameter } from '../errors/app-error.ts';
import { addDays, type DateRange, rangeLength } from './calendar.ts';
import { calendarComparison, type CalendarSpan } from './calendar-periods.ts';
import { quoteInput } from './quote.ts';

export const COMPARE_MODES = ['previous', 'year', 'none'] as const;
export type CompareMode = (typeof COMPARE_MODES)[number];

/**
 * A number next to its value in the comparison range. `previous` (and with it `delta` and `deltaPct`)
 * is null when the provider's history does not reach the comparison range: a missing range is never a 0.
 */
export interface Compared {
  readonly value: number;
  readonly previous: number | null;
  readonly delta: number | null;
  /** `delta / |previous|`, 4 decimals; null when previous is 0 or unknown. */
  readonly deltaPct: number | null;
}

const WEEK = 7;
const YEAR_SHIFT_DAYS = 364;

/** Parses `compare`; absent or empty gives `fallback` (`previous` on summaries, `none` elsewhere). */
export function parseCompare(raw: string | undefined, fallback: CompareMode): CompareMode {
  if (raw === undefined || raw === '') return fallback;
  if ((COMPARE_MODES as readonly string[]).includes(raw)) return raw as CompareMode;
  throw invalidParameter('compare', `Invalid compare ${quoteInput(raw)}: expected one of ${COMPARE_MODES.join(', ')}.`);
}

/** A range to compare, with the calendar unit it is when it is a calendar period (month_to_date, last_month, …). */
export interface ComparableRange extends DateRange {
  readonly calendar?: CalendarSpan;
}

/**
 * The range a period is compared with. `previous`: the same number of days immediately before.
 * `year`: 364 days (52 weeks) earlier so weekdays line up; a period longer than 364 days moves back
 * by the smallest whole number of weeks that is at least its length, so the two never overlap.
 * Calendar periods compare by calendar unit instead (./calendar-periods.ts): their comparison range can be
 * shorter or longer than the period (February against January).
 */
export function previousRange(period: ComparableRange, mode: Exclude<CompareMode, 'none'>): DateRange {
  if (period.calendar) return calendarComparison(period, period.calendar, mode);
  const days = rangeLength(period);
  const shift = mode === 'previous' ? days : Math.max(YEAR_SHIFT_DAYS, Math.ceil(days / WEEK) * WEEK);
  return { start: addDays(period.start, -shift), end: addDays(period.end, -shift) };
}

/** `previousRange` for any mode; undefined for `none`. */
export function comparisonRange(period: ComparableRange, mode: CompareMode): DateRange | undefined {
  return mode === 'none' ? undefined : previousRange(period, mode);
}

/** Removes binary floating-point noise (0.3 - 0.1) by rounding to 10 decimals, far below any metric's precision. */
function clean(value: number): number {
  return Number.parseFloat(value.toFixed(10));
}

/**
 * `{ value, previous, delta, deltaPct }`; deltaPct is rounded to 4 decimals and null when previous is 0.
 * A null `previous` (history not covering the range) gives null delta and deltaPct.
 */
export function compared(value: number, previous: number | null): Compared {
  if (previous === null) return { value, previous: null, delta: null, deltaPct: null };
  const delta = clean(value - previous);
  const deltaPct = previous === 0 ? null : Math.round((delta / Math.abs(previous)) * 10_000) / 10_000;
  return { value, previous, delta, deltaPct: Object.is(deltaPct, -0) ? 0 : deltaPct };
}
