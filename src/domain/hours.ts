// Local clock hours of a day in a zone, keyed as ISO-8601 with the offset in force (23 or 25 on DST days).

import type { IsoDate } from './calendar.ts';
import { addDays } from './calendar.ts';
import { formatOffset, localTimeAt, startOfDayInZone, zoneOffsetMinutes } from './time-zone.ts';

/** One local clock hour. `key` is e.g. `2026-10-25T02:00:00+01:00`. */
export interface HourBucket {
  readonly key: string;
  /** Epoch ms of the first instant in the bucket. */
  readonly start: number;
  readonly localDate: IsoDate;
  /** Wall-clock hour 0–23 (repeated on the day clocks go back). */
  readonly localHour: number;
}

const STEP_MS = 15 * 60_000; // finer than any offset change (30-min DST shifts exist, e.g. Australia/Lord_Howe)

/** The key of the local clock hour containing `instant` in `timeZone`. */
export function hourKeyAt(instant: number, timeZone: string): string {
  const local = localTimeAt(instant, timeZone);
  return `${local.date}T${String(local.hour).padStart(2, '0')}:00:00${formatOffset(zoneOffsetMinutes(instant, timeZone))}`;
}

/**
 * Every local clock hour of `date` in `timeZone`, in time order. A repeated hour (clocks going back)
 * appears twice with different offsets; a skipped hour (clocks going forward) does not appear.
 */
export function hourBucketsOfDay(date: IsoDate, timeZone: string): HourBucket[] {
  const start = startOfDayInZone(date, timeZone);
  const end = startOfDayInZone(addDays(date, 1), timeZone);
  const buckets: HourBucket[] = [];
  let lastKey = '';
  for (let t = start; t < end; t += STEP_MS) {
    const key = hourKeyAt(t, timeZone);
    if (key === lastKey) continue;
    lastKey = key;
    const local = localTimeAt(t, timeZone);
    buckets.push({ key, start: t, localDate: local.date, localHour: local.hour });
  }
  return buckets;
}

/**
 * The bucket each local hour a provider reports (a date and a wall-clock hour) counts in: the first of a repeated
 * hour (clocks going back); for an hour the day skips (clocks going forward), which a provider should not report
 * but a sandbox may, the hour the clocks jumped to. So every reported hour counts once. Each day is worked out once.
 */
export function localHourBuckets(timeZone: string): (date: IsoDate, hour: number) => HourBucket | undefined {
  const days = new Map<IsoDate, HourBucket[]>();
  return (date, hour) => {
    let hours = days.get(date);
    if (!hours) days.set(date, (hours = hourBucketsOfDay(date, timeZone).filter((b) => b.localDate === date)));
    return hours.find((b) => b.localHour >= hour) ?? hours.at(-1);
  };
}
