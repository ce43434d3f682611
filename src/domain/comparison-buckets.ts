// A timeseries' comparison, bucket by bucket. The comparison range pairs with the period by offset: day k of the
// comparison range belongs to the bucket of day k of the period, as GA's `nthDay` counts days from each range's own
// start. A calendar period's comparison can be longer than the period (February against January): its days past
// the period's last day count in the period's last bucket; a shorter one (March against February) leaves the
// period's last buckets fewer (or no) days. Both sides then have exactly the period's buckets, every day of the
// comparison range counts in exactly one of them, and the points' previous values of a count add up to the
// comparison range's total. Hours pair by wall clock: an hour of comparison day k belongs to the same local hour of
// the period's day k.
import { addDays, type DateRange, diffDays, type IsoDate } from './calendar.ts';
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
  if (comparison.start > comparison.end || period.start > period.end) {
    throw new Error(`comparisonPairing: ${comparison.start}…${comparison.end} or ${period.start}…${period.end} is not a range`);
  }
  return { period, comparison, shift: diffDays(comparison.start, period.start) };
}

const within = (date: IsoDate, range: DateRange) => date >= range.start && date <= range.end;

/** The period's day a day of the comparison range pairs with: the same offset, or the period's last day past it. */
function pairedDay(pairing: ComparisonPairing, date: IsoDate): IsoDate {
  const day = addDays(date, pairing.shift);
  return day > pairing.period.end ? pairing.period.end : day;
}

/** The period's `day`, `week` or `month` bucket key a day of the comparison range belongs to (undefined outside it). */
export function pairedBucketOfDate(pairing: ComparisonPairing, date: IsoDate, interval: DayInterval): IsoDate | undefined {
  return within(date, pairing.comparison) ? bucketKeyOfDate(pairedDay(pairing, date), interval, pairing.period) : undefined;
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
    return own && bucketOf(pairedDay(pairing, date), own.localHour)?.key;
  };
}

/** The days of the comparison range paired with one of the period's buckets. */
export interface PairedRange extends DateRange {
  /** The period's bucket key. */
  readonly key: IsoDate;
}

/**
 * The comparison range's days paired with each of the period's `day`, `week` or `month` buckets, in bucket order;
 * a bucket no comparison day pairs with (a shorter comparison range) is left out.
 */
export function pairedRanges(pairing: ComparisonPairing, interval: DayInterval): PairedRange[] {
  const keys = bucketKeys(pairing.period, interval, 'UTC');
  const ranges: PairedRange[] = [];
  keys.forEach((key, i) => {
    const last = i + 1 === keys.length;
    const start = addDays(key, -pairing.shift);
    const end = last ? pairing.comparison.end : addDays(keys[i + 1]!, -pairing.shift - 1);
    const clipped = end < pairing.comparison.end ? end : pairing.comparison.end;
    if (start <= clipped) ranges.push({ key, start, end: clipped });
  });
  return ranges;
}

/**
 * True when the comparison range's own calendar buckets (its days, ISO weeks or months, clipped to it) are exactly
 * the paired ones — each pairs whole with one of the period's buckets, one to one, in order — so the provider can be
 * asked for both ranges by the same bucket dimension: always for days of equal ranges, for weeks when the shift is
 * whole weeks (compare=year, or a period of whole weeks), for months when both ranges are whole months (calendar
 * periods), hardly ever otherwise.
 */
export function ownBucketsArePaired(pairing: ComparisonPairing, interval: DayInterval): boolean {
  const own = bucketKeys(pairing.comparison, interval, 'UTC');
  const paired = bucketKeys(pairing.period, interval, 'UTC');
  if (own.length !== paired.length) return false;
  return own.every((key, i) => {
    const last = i + 1 < own.length ? addDays(own[i + 1]!, -1) : pairing.comparison.end;
    const bucket = pairedBucketOfDate(pairing, key, interval);
    return bucket === paired[i] && pairedBucketOfDate(pairing, last, interval) === bucket;
  });
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
