// A timeseries' comparison, bucket by bucket. The comparison range always has as many days as the period
// (compare.ts), so it pairs with the period by offset: day k of the comparison range belongs to the bucket of day k
// of the period, as GA's `nthDay` counts days from each range's own start. Both sides then have exactly the
// period's buckets, every day of the comparison range counts in exactly one of them, and the points' previous values
// of a count add up to the comparison range's total. Hours pair by wall clock: an hour of comparison day k belongs
// to the same local hour of the period's day k.
import { addDays, type DateRange, diffDays, type IsoDate, rangeLength } from './calendar.ts';
import { localHourBuckets } from './hours.ts';
import { bucketKeyOfDate, bucketKeys, type Interval } from './interval.ts';

export type DayInterval = Exclude<Interval, 'hour'>;

/** How a comparison range lines up with the period it is compared with. */
export interface ComparisonPairing {
  readonly period: DateRange;
  readonly comparison: DateRange;
  /** Days from the comparison range to the period: the comparison's day `d` pairs with the period's `d + shift`. */
  readonly shift: number;
}

export function comparisonPairing(period: DateRange, comparison: DateRange): ComparisonPairing {
  if (rangeLength(period) !== rangeLength(comparison)) {
    throw new Error(`comparisonPairing: ${comparison.start}…${comparison.end} does not have as many days as ${period.start}…${period.end}`);
  }
  return { period, comparison, shift: diffDays(comparison.start, period.start) };
}

const within = (date: IsoDate, range: DateRange) => date >= range.start && date <= range.end;

/** The period's `day`, `week` or `month` bucket key a day of the comparison range belongs to (undefined outside it). */
export function pairedBucketOfDate(pairing: ComparisonPairing, date: IsoDate, interval: DayInterval): IsoDate | undefined {
  return within(date, pairing.comparison) ? bucketKeyOfDate(addDays(date, pairing.shift), interval, pairing.period) : undefined;
}

/**
 * The period's hour bucket key of each local hour of the comparison range (as providers report hours: a date and a
 * wall-clock hour): the hour is first placed in the comparison range's own bucket (localHourBuckets), whose
 * wall-clock hour then pairs with the same hour of the paired day — or, when that day skips it (clocks going
 * forward), the hour the clocks jumped to; when it repeats it, the first of the two. So every hour of the
 * comparison range counts once, whatever the two days' lengths.
 */
export function pairedHourBuckets(pairing: ComparisonPairing, timeZone: string): (date: IsoDate, hour: number) => string | undefined {
  const bucketOf = localHourBuckets(timeZone);
  return (date, hour) => {
    if (!within(date, pairing.comparison)) return undefined;
    const own = bucketOf(date, hour);
    return own && bucketOf(addDays(date, pairing.shift), own.localHour)?.key;
  };
}

/** The comparison range's days paired with each of the period's `day`, `week` or `month` buckets, in bucket order. */
export function pairedRanges(pairing: ComparisonPairing, interval: DayInterval): DateRange[] {
  const keys = bucketKeys(pairing.period, interval, 'UTC');
  return keys.map((key, i) => {
    const end = i + 1 < keys.length ? addDays(keys[i + 1]!, -1) : pairing.period.end;
    return { start: addDays(key, -pairing.shift), end: addDays(end, -pairing.shift) };
  });
}

/**
 * True when the comparison range's own calendar buckets (its days, ISO weeks or months, clipped to it) are exactly
 * the paired ones, so the provider can be asked for both ranges by the same bucket dimension: always for days,
 * for weeks when the shift is whole weeks (compare=year, or a period of whole weeks), for months hardly ever.
 */
export function ownBucketsArePaired(pairing: ComparisonPairing, interval: DayInterval): boolean {
  const own = bucketKeys(pairing.comparison, interval, 'UTC').map((key) => addDays(key, pairing.shift));
  const paired = bucketKeys(pairing.period, interval, 'UTC');
  return own.length === paired.length && own.every((key, i) => key === paired[i]);
}

/** Adds values up by bucket key, one sum per key in `keys` order (0 for none); values without a bucket are left out. */
export function sumByBucket(keys: readonly string[], values: Iterable<{ readonly key: string | undefined; readonly value: number }>): number[] {
  const index = new Map(keys.map((key, i) => [key, i]));
  const sums = keys.map(() => 0);
  for (const { key, value } of values) {
    const at = key === undefined ? undefined : index.get(key);
    if (at !== undefined) sums[at]! += value;
  }
  return sums;
}
