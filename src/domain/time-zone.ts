// Time-zone math on IANA zones via Intl (no Temporal in Node 24): local dates, UTC offsets, starts of days, hours.

import { AppError } from '../errors/app-error.ts';
import { addDays, formatYmd, type IsoDate } from './calendar.ts';
import { quoteInput } from './quote.ts';

/** Wall-clock reading of an instant in a zone. */
export interface LocalTime {
  readonly date: IsoDate;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True for a zone name Intl accepts (IANA names such as `Europe/Berlin`, and `UTC`). */
export function isTimeZone(value: string): boolean {
  if (value === '' || value.length > 64) return false;
  try {
    formatterFor(value);
    return true;
  } catch {
    return false;
  }
}

/** Throws 400 `invalid_parameter` (param `timezone`) unless `value` is a known zone. */
export function assertTimeZone(value: string, param = 'timezone'): void {
  if (!isTimeZone(value)) {
    throw new AppError('invalid_parameter', `Unknown time zone ${quoteInput(value)}; use an IANA name such as "Europe/Berlin".`, {
      param,
    });
  }
}

/** The wall-clock date and time of `instant` (epoch ms) in `timeZone`. */
export function localTimeAt(instant: number, timeZone: string): LocalTime {
  const parts = formatterFor(timeZone).formatToParts(instant);
  let year = 0;
  let month = 0;
  let day = 0;
  let hour = 0;
  let minute = 0;
  let second = 0;
  for (const p of parts) {
    switch (p.type) {
      case 'year':
        year = Number(p.value);
        break;
      case 'month':
        month = Number(p.value);
        break;
      case 'day':
        day = Number(p.value);
        break;
      case 'hour':
        hour = Number(p.value);
        break;
      case 'minute':
        minute = Number(p.value);
        break;
      case 'second':
        second = Number(p.value);
        break;
      default:
        break;
    }
  }
  return { date: formatYmd(year, month, day), hour, minute, second };
}

/** The calendar date of `instant` in `timeZone`. */
export function localDateAt(instant: number, timeZone: string): IsoDate {
  return localTimeAt(instant, timeZone).date;
}

/** Today's calendar date in `timeZone` at `now`. */
export function todayInZone(timeZone: string, now: Date): IsoDate {
  return localDateAt(now.getTime(), timeZone);
}

/** Offset of `timeZone` from UTC at `instant`, in whole minutes (east positive: Berlin in winter = 60). */
export function zoneOffsetMinutes(instant: number, timeZone: string): number {
  const local = localTimeAt(instant, timeZone);
  const wallAsUtc = Date.UTC(
    Number(local.date.slice(0, 4)),
    Number(local.date.slice(5, 7)) - 1,
    Number(local.date.slice(8, 10)),
    local.hour,
    local.minute,
    local.second,
  );
  const instantSeconds = Math.floor(instant / 1000) * 1000;
  return Math.round((wallAsUtc - instantSeconds) / 60_000);
}

/** `+01:00`, `-05:00`, `+05:45`; UTC is `+00:00` (never `Z`, so every key has the same shape). */
export function formatOffset(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/**
 * The first instant (epoch ms) whose local date in `timeZone` is `date` or later. Usually local
 * midnight; where midnight falls into a DST gap it is the transition instant instead.
 */
export function startOfDayInZone(date: IsoDate, timeZone: string): number {
  const wall = Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
  // Fast path: two rounds of offset correction find midnight in every zone that has one.
  const guess = wall - zoneOffsetMinutes(wall - zoneOffsetMinutes(wall, timeZone) * 60_000, timeZone) * 60_000;
  const atGuess = localTimeAt(guess, timeZone);
  if (atGuess.date === date && atGuess.hour === 0 && atGuess.minute === 0 && atGuess.second === 0) {
    if (localDateAt(guess - 1000, timeZone) < date) return guess;
  }
  // Slow path (midnight skipped, or wall clock repeated across midnight): binary search on seconds.
  let lo = wall - 26 * 3_600_000; // local date certainly earlier
  let hi = wall + 26 * 3_600_000; // local date certainly `date` or later
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (localDateAt(mid, timeZone) >= date) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** Length of a local calendar day in hours (23 or 25 on DST change days in most zones). */
export function hoursInLocalDay(date: IsoDate, timeZone: string): number {
  return (startOfDayInZone(addDays(date, 1), timeZone) - startOfDayInZone(date, timeZone)) / 3_600_000;
}
