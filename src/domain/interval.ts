// Timeseries intervals: the `interval` parameter, the bucket keys of a range, and zero-filling missing buckets.

import { invalidParameter } from '../errors/app-error.ts';
import {
  addDays,
  type DateRange,
  eachDay,
  type IsoDate,
  maxDate,
  startOfIsoWeek,
  startOfMonth,
  startOfNextMonth,
} from './calendar.ts';
import { hourBucketsOfDay } from './hours.ts';
import { quoteInput } from './quote.ts';

export const INTERVALS = ['hour', 'day', 'week', 'month'] as const;
export type Interval = (typeof INTERVALS)[number];

/** Longest period for `interval=hour` (240 points; also engine1's hourly window of 10 days). */
export const MAX_HOURLY_DAYS = 10;
/** Periods up to this many days default to `day`, longer ones to `week`. */
export const MAX_DAILY_DEFAULT_DAYS = 90;

/** The parts of a resolved period that interval choice depends on. */
export interface IntervalContext {
  readonly name: string;
  readonly days: number;
}

/** The default interval: `hour` for today/yesterday, `day` up to 90 days, `week` above. */
export function defaultInterval(period: IntervalContext): Interval {
  if (period.name === 'today' || period.name === 'yesterday') return 'hour';
  return period.days <= MAX_DAILY_DEFAULT_DAYS ? 'day' : 'week';
}

/** Parses `interval` for a period; `hour` is refused for periods over 10 days. */
export function parseInterval(raw: string | undefined, period: IntervalContext): Interval {
  if (raw === undefined || raw === '') return defaultInterval(period);
  if (!(INTERVALS as readonly string[]).includes(raw)) {
    throw invalidParameter('interval', `Invalid interval ${quoteInput(raw)}: expected one of ${INTERVALS.join(', ')}.`);
  }
  const interval = raw as Interval;
  if (interval === 'hour' && period.days > MAX_HOURLY_DAYS) {
    throw invalidParameter(
      'interval',
      `Invalid interval "hour" for period ${quoteInput(period.name)}: hourly data is available for periods of at most ${MAX_HOURLY_DAYS} days (this one has ${period.days}); use day, week or month.`,
    );
  }
  return interval;
}

export interface BucketOptions {
  /** For `hour`: leave out hours that start after this instant (today so far). */
  readonly now?: Date;
}

/**
 * The key of every bucket of `range`, in order. `day`: each date. `week`: ISO weeks (Monday first),
 * keyed by their first date inside the range. `month`: keyed by the first date inside the range.
 * `hour`: ISO-8601 local hours with offset in `timeZone` (23 or 25 on DST days).
 */
export function bucketKeys(range: DateRange, interval: Interval, timeZone: string, options: BucketOptions = {}): string[] {
  switch (interval) {
    case 'day':
      return eachDay(range);
    case 'week':
    case 'month': {
      const keys: string[] = [];
      for (let d = range.start; d <= range.end; d = nextBucketStart(d, interval)) keys.push(d);
      return keys;
    }
    case 'hour': {
      const until = options.now?.getTime() ?? Number.POSITIVE_INFINITY;
      return eachDay(range).flatMap((date) =>
        hourBucketsOfDay(date, timeZone)
          .filter((b) => b.start <= until)
          .map((b) => b.key),
      );
    }
  }
}

function nextBucketStart(date: IsoDate, interval: 'week' | 'month'): IsoDate {
  return interval === 'week' ? addDays(startOfIsoWeek(date), 7) : startOfNextMonth(date);
}

/** The `day`, `week` or `month` bucket key of `date` within `range` (for rolling daily rows up). */
export function bucketKeyOfDate(date: IsoDate, interval: Exclude<Interval, 'hour'>, range: DateRange): IsoDate {
  switch (interval) {
    case 'day':
      return date;
    case 'week':
      return maxDate(startOfIsoWeek(date), range.start);
    case 'month':
      return maxDate(startOfMonth(date), range.start);
  }
}

export interface BucketPoint<V> {
  readonly key: string;
  readonly value: V;
}

/**
 * One point per key, in key order, with `empty` where `points` has none. A point whose key is not a
 * bucket, or a key given twice, is a bug in the caller (not something to paper over): it throws.
 */
export function fillBucketsWith<V>(points: Iterable<BucketPoint<V>>, keys: readonly string[], empty: V): BucketPoint<V>[] {
  const byKey = new Map<string, V>();
  const known = new Set(keys);
  for (const p of points) {
    if (!known.has(p.key)) throw new Error(`fillBuckets: point key ${JSON.stringify(p.key)} is not a bucket of the range`);
    if (byKey.has(p.key)) throw new Error(`fillBuckets: duplicate point key ${JSON.stringify(p.key)}`);
    byKey.set(p.key, p.value);
  }
  return keys.map((key) => ({ key, value: byKey.has(key) ? (byKey.get(key) as V) : empty }));
}

/** `fillBucketsWith` for plain numbers, filling with 0 (missing buckets are 0). */
export function fillBuckets(points: Iterable<BucketPoint<number>>, keys: readonly string[]): BucketPoint<number>[] {
  return fillBucketsWith(points, keys, 0);
}
