// Calendar arithmetic on ISO dates (`YYYY-MM-DD` strings): validation, day offsets, weekdays, weeks, months.

/**
 * A calendar day written `YYYY-MM-DD`. Plain strings keep values JSON- and cache-key-friendly;
 * anything that did not come from this module must pass `isIsoDate` first.
 */
export type IsoDate = string;

/** An inclusive range of calendar days. */
export interface DateRange {
  readonly start: IsoDate;
  readonly end: IsoDate;
}

const MS_PER_DAY = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when `value` is a real calendar day written `YYYY-MM-DD` (so `2026-02-30` is false). */
export function isIsoDate(value: string): value is IsoDate {
  const m = ISO_DATE.exec(value);
  if (m === null) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  // Four-digit years from 1000 on: Date.UTC maps years 0–99 to 1900–1999.
  if (year < 1000 || month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

/** Days since 1970-01-01 (negative before). The date must be valid. */
export function toEpochDay(date: IsoDate): number {
  const m = ISO_DATE.exec(date);
  if (m === null) throw new TypeError(`Not an ISO date: ${JSON.stringify(date)}`);
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / MS_PER_DAY;
}

/** The ISO date of a day number from `toEpochDay`. */
export function fromEpochDay(epochDay: number): IsoDate {
  const d = new Date(epochDay * MS_PER_DAY);
  return formatYmd(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
}

export function formatYmd(year: number, month: number, day: number): IsoDate {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export function addDays(date: IsoDate, days: number): IsoDate {
  return fromEpochDay(toEpochDay(date) + days);
}

/** `to - from` in days (so `diffDays(d, addDays(d, n)) === n`). */
export function diffDays(from: IsoDate, to: IsoDate): number {
  return toEpochDay(to) - toEpochDay(from);
}

/** Number of days in an inclusive range (a one-day range has 1). */
export function rangeLength(range: DateRange): number {
  return diffDays(range.start, range.end) + 1;
}

/** ISO weekday: 1 = Monday … 7 = Sunday. */
export function isoWeekday(date: IsoDate): number {
  // 1970-01-01 was a Thursday (4).
  return ((((toEpochDay(date) + 3) % 7) + 7) % 7) + 1;
}

/** The Monday of the ISO week containing `date`. */
export function startOfIsoWeek(date: IsoDate): IsoDate {
  return addDays(date, 1 - isoWeekday(date));
}

/** The Monday starting ISO week `week` (1–53) of ISO year `isoYear` (the analytics `isoYearIsoWeek` value `202647` is 2026, 47). */
export function isoWeekStart(isoYear: number, week: number): IsoDate {
  // 4 January is always in ISO week 1.
  const jan4 = formatYmd(isoYear, 1, 4);
  return addDays(startOfIsoWeek(jan4), (week - 1) * 7);
}

export function startOfMonth(date: IsoDate): IsoDate {
  return `${date.slice(0, 8)}01`;
}

/** The first day of the month after the one containing `date`. */
export function startOfNextMonth(date: IsoDate): IsoDate {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  return month === 12 ? formatYmd(year + 1, 1, 1) : formatYmd(year, month + 1, 1);
}

/** Same month and day `years` later; 29 February becomes 28 February in common years. */
export function addYears(date: IsoDate, years: number): IsoDate {
  const year = Number(date.slice(0, 4)) + years;
  const month = Number(date.slice(5, 7));
  const day = Math.min(Number(date.slice(8, 10)), daysInMonth(year, month));
  return formatYmd(year, month, day);
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Every day of the range, in order. */
export function eachDay(range: DateRange): IsoDate[] {
  const first = toEpochDay(range.start);
  const last = toEpochDay(range.end);
  const days: IsoDate[] = [];
  for (let d = first; d <= last; d++) days.push(fromEpochDay(d));
  return days;
}

export function maxDate(a: IsoDate, b: IsoDate): IsoDate {
  return a >= b ? a : b;
}
