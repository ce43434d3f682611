// Calendar arithmetic on epoch days (days since 1970-01-01 as a civil date) and wall-clock time in IANA zones.

export const PACIFIC = 'America/Los_Angeles';
const MS_PER_DAY = 86_400_000;

export interface ZonedParts {
  day: number;
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

function wallClock(instantMs: number, timeZone: string): { y: number; m: number; d: number; h: number; min: number; s: number } {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(instantMs)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return { y: parts.year!, m: parts.month!, d: parts.day!, h: parts.hour! % 24, min: parts.minute!, s: parts.second! };
}

/** The civil date, hour and minute of an instant in a zone. */
export function zonedParts(instant: Date, timeZone: string): ZonedParts {
  const w = wallClock(instant.getTime(), timeZone);
  return { day: Math.floor(Date.UTC(w.y, w.m - 1, w.d) / MS_PER_DAY), hour: w.h, minute: w.min };
}

/** Offset of the zone from UTC at an instant, in minutes (Pacific winter: −480). */
export function offsetMinutes(instantMs: number, timeZone: string): number {
  const w = wallClock(instantMs, timeZone);
  const asUtc = Date.UTC(w.y, w.m - 1, w.d, w.h, w.min, w.s);
  return Math.round((asUtc - Math.floor(instantMs / 1000) * 1000) / 60_000);
}

/** UTC instant of local midnight starting `day` in the zone (two passes settle DST edges). */
export function zonedMidnightMs(day: number, timeZone: string): number {
  const naive = day * MS_PER_DAY;
  let guess = naive - offsetMinutes(naive, timeZone) * 60_000;
  guess = naive - offsetMinutes(guess, timeZone) * 60_000;
  return guess;
}

/** "+0100" / "-0800" style offset. */
export function formatOffset(minutes: number, colon = false): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return colon ? `${sign}${hh}:${mm}` : `${sign}${hh}${mm}`;
}

export function isoDate(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

export function compactDate(day: number): string {
  return isoDate(day).replaceAll('-', '');
}

/** Parses a strict `YYYY-MM-DD` into an epoch day, or undefined. */
export function parseIsoDate(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return undefined;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const day = ms / MS_PER_DAY;
  return isoDate(day) === text ? day : undefined;
}

/** 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday). */
export function weekday(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

export function dateParts(day: number): { year: number; month: number; dayOfMonth: number; dayOfYear: number } {
  const d = new Date(day * MS_PER_DAY);
  const year = d.getUTCFullYear();
  const dayOfYear = day - Math.floor(Date.UTC(year, 0, 1) / MS_PER_DAY) + 1;
  return { year, month: d.getUTCMonth() + 1, dayOfMonth: d.getUTCDate(), dayOfYear };
}

/** GA's `week`: weeks start on Sunday; week 01 contains January 1st. */
export function gaWeek(day: number): { year: number; week: number } {
  const { year } = dateParts(day);
  const jan1 = Math.floor(Date.UTC(year, 0, 1) / MS_PER_DAY);
  const firstSunday = jan1 - weekday(jan1);
  return { year, week: Math.floor((day - firstSunday) / 7) + 1 };
}

/** ISO 8601 week (Monday first; week 1 holds the year's first Thursday), as GA's isoWeek/isoYear report it. */
export function isoWeekOf(day: number): { year: number; week: number } {
  const mondayBased = (weekday(day) + 6) % 7;
  const thursday = day - mondayBased + 3;
  const { year, dayOfYear } = dateParts(thursday);
  return { year, week: Math.floor((dayOfYear - 1) / 7) + 1 };
}
