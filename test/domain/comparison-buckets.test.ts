import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, eachDay, rangeLength } from '../../src/domain/calendar.ts';
import { previousRange } from '../../src/domain/compare.ts';
import { comparisonPairing, ownBucketsArePaired, pairedBucketOfDate, pairedHourBuckets, pairedRanges, sumByBucket, type DayInterval } from '../../src/domain/comparison-buckets.ts';
import { CALENDAR_PERIODS, CALENDAR_SPANS, calendarComparison, calendarRange } from '../../src/domain/calendar-periods.ts';
import { bucketKeys } from '../../src/domain/interval.ts';
import { thrownBy } from './expect-app-error.ts';

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** Any period the API accepts (up to 5 years) and either comparison. */
const period = fc
  .tuple(fc.integer({ min: 0, max: 4000 }), fc.integer({ min: 0, max: 1826 }))
  .map(([s, len]) => ({ start: addDays('2016-01-01', s), end: addDays('2016-01-01', s + len) }));
const mode = fc.constantFrom('previous' as const, 'year' as const);
const dayInterval = fc.constantFrom<DayInterval>('day', 'week', 'month');
/** 2025's clock changes in ZONES (Berlin, New York, Santiago and Lord Howe, Chatham, Casablanca's Ramadan). */
const CLOCK_CHANGES = ['2025-03-30', '2025-10-26', '2025-03-09', '2025-11-02', '2025-04-06', '2025-09-07', '2025-10-05', '2025-09-28', '2025-02-23'];
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'America/Santiago', 'Australia/Lord_Howe', 'Pacific/Chatham', 'Asia/Kolkata', 'Africa/Casablanca'];

/** Wall-clock hours a provider may report for a day: 0–23 (the hour clocks skip too, as the sandbox does). */
const HOURS = Array.from({ length: 24 }, (_, h) => h);

describe('comparisonPairing', () => {
  it('pairs day k of the comparison range with day k of the period', () => {
    const pairing = comparisonPairing({ start: '2025-07-08', end: '2025-07-30' }, { start: '2025-06-15', end: '2025-07-07' });
    expect(pairing.shift).toBe(23);
    expect(pairedBucketOfDate(pairing, '2025-06-15', 'week')).toBe('2025-07-08');
    expect(pairedBucketOfDate(pairing, '2025-06-20', 'week')).toBe('2025-07-08');
    expect(pairedBucketOfDate(pairing, '2025-06-21', 'week')).toBe('2025-07-14');
    expect(pairedBucketOfDate(pairing, '2025-07-07', 'week')).toBe('2025-07-28');
    expect(pairedBucketOfDate(pairing, '2025-07-08', 'week')).toBeUndefined();
    expect(pairedRanges(pairing, 'week')).toEqual([
      { key: '2025-07-08', start: '2025-06-15', end: '2025-06-20' },
      { key: '2025-07-14', start: '2025-06-21', end: '2025-06-27' },
      { key: '2025-07-21', start: '2025-06-28', end: '2025-07-04' },
      { key: '2025-07-28', start: '2025-07-05', end: '2025-07-07' },
    ]);
    expect(ownBucketsArePaired(pairing, 'week')).toBe(false);
    expect(ownBucketsArePaired(pairing, 'day')).toBe(true);
  });

  it('a longer comparison range (a calendar unit) counts its extra days in the last bucket; a shorter one leaves the last buckets short', () => {
    // February against January: January 29–31 pair with February 28.
    const february = comparisonPairing({ start: '2025-02-01', end: '2025-02-28' }, { start: '2025-01-01', end: '2025-01-31' });
    expect(pairedBucketOfDate(february, '2025-01-28', 'day')).toBe('2025-02-28');
    expect(pairedBucketOfDate(february, '2025-01-31', 'day')).toBe('2025-02-28');
    expect(pairedRanges(february, 'day').at(-1)).toEqual({ key: '2025-02-28', start: '2025-01-28', end: '2025-01-31' });
    expect(ownBucketsArePaired(february, 'day')).toBe(false);
    // Whole months pair whole: one request by month serves both.
    expect(ownBucketsArePaired(february, 'month')).toBe(true);
    // March against February: March 29–31 have no paired day.
    const march = comparisonPairing({ start: '2025-03-01', end: '2025-03-31' }, { start: '2025-02-01', end: '2025-02-28' });
    expect(pairedRanges(march, 'day').map((r) => r.key).at(-1)).toBe('2025-03-28');
    expect(pairedRanges(march, 'week').at(-1)).toEqual({ key: '2025-03-24', start: '2025-02-24', end: '2025-02-28' });
    expect(ownBucketsArePaired(march, 'month')).toBe(true);
  });

  it('refuses a range that is not one (a bug in the caller)', () => {
    expect(thrownBy(() => comparisonPairing({ start: '2025-07-01', end: '2025-07-31' }, { start: '2025-06-30', end: '2025-06-01' }))).toBeInstanceOf(Error);
  });

  it('Σ previous buckets = the previous total for calendar periods, whose comparison ranges differ in length', () => {
    const calendar = fc
      .tuple(fc.constantFrom(...CALENDAR_PERIODS), fc.integer({ min: 0, max: 365 * 20 }), mode, dayInterval)
      .map(([name, n, m, interval]) => {
        const p = calendarRange(CALENDAR_SPANS[name], addDays('2016-01-01', n));
        return { p, comparison: calendarComparison(p, CALENDAR_SPANS[name], m), interval };
      });
    fc.assert(
      fc.property(calendar, ({ p, comparison, interval }) => {
        const pairing = comparisonPairing(p, comparison);
        const keys = bucketKeys(p, interval, 'UTC');
        const days = eachDay(comparison).map((date, i) => ({ date, value: i + 1 }));
        const buckets = sumByBucket(keys, days.map(({ date, value }) => ({ key: pairedBucketOfDate(pairing, date, interval), value })));
        expect(sum(buckets)).toBe(sum(days.map((d) => d.value)));
        // The paired ranges tile the comparison range in bucket order, and hold what the buckets sum.
        const ranges = pairedRanges(pairing, interval);
        expect(ranges[0]!.start).toBe(comparison.start);
        expect(ranges.at(-1)!.end).toBe(comparison.end);
        for (const r of ranges) expect(sum(eachDay(r).map((d) => days.find((x) => x.date === d)!.value))).toBe(buckets[keys.indexOf(r.key)]);
        // One request by the bucket dimension serves both ranges only when each own bucket lands whole in its own paired one.
        if (ownBucketsArePaired(pairing, interval)) expect(bucketKeys(comparison, interval, 'UTC').map((key) => pairedBucketOfDate(pairing, key, interval))).toEqual(keys);
      }),
      { numRuns: 60 },
    );
  });

  it('hours pair by wall clock: a skipped hour goes to the hour the clocks jumped to, a repeated one is counted once', () => {
    // Europe/Berlin: 2025-03-30 has no 02:00; 2025-10-26 has it twice.
    const spring = pairedHourBuckets(comparisonPairing({ start: '2025-03-30', end: '2025-03-30' }, { start: '2025-03-29', end: '2025-03-29' }), 'Europe/Berlin');
    expect(spring('2025-03-29', 1)).toBe('2025-03-30T01:00:00+01:00');
    expect(spring('2025-03-29', 2)).toBe('2025-03-30T03:00:00+02:00');
    expect(spring('2025-03-29', 3)).toBe('2025-03-30T03:00:00+02:00');
    const autumn = pairedHourBuckets(comparisonPairing({ start: '2025-10-26', end: '2025-10-26' }, { start: '2025-10-25', end: '2025-10-25' }), 'Europe/Berlin');
    expect(autumn('2025-10-25', 2)).toBe('2025-10-26T02:00:00+02:00');
    expect(autumn('2025-10-25', 3)).toBe('2025-10-26T03:00:00+01:00');
    expect(autumn('2025-10-24', 3)).toBeUndefined();
    // An hour reported for a day that skips it counts in that day's own bucket (03:00), and pairs as such.
    const skipped = pairedHourBuckets(comparisonPairing({ start: '2025-03-31', end: '2025-03-31' }, { start: '2025-03-30', end: '2025-03-30' }), 'Europe/Berlin');
    expect(skipped('2025-03-30', 2)).toBe('2025-03-31T03:00:00+02:00');
  });

  it('Σ previous buckets = the previous total, for any period, day/week/month interval and compare mode', () => {
    fc.assert(
      fc.property(period, mode, dayInterval, fc.integer({ min: 1, max: 2 ** 31 }), (p, m, interval, seed) => {
        const comparison = previousRange(p, m);
        const pairing = comparisonPairing(p, comparison);
        const keys = bucketKeys(p, interval, 'UTC');
        const days = eachDay(comparison).map((date, i) => ({ date, value: (seed * (i + 7)) % 1009 }));
        const buckets = sumByBucket(keys, days.map(({ date, value }) => ({ key: pairedBucketOfDate(pairing, date, interval), value })));
        expect(buckets).toHaveLength(keys.length);
        expect(sum(buckets)).toBe(sum(days.map((d) => d.value)));
        // The paired ranges are the same buckets as date ranges: they tile the comparison range in order.
        const ranges = pairedRanges(pairing, interval);
        expect(ranges).toHaveLength(keys.length);
        expect(ranges[0]!.start).toBe(comparison.start);
        expect(ranges.at(-1)!.end).toBe(comparison.end);
        ranges.forEach((r, i) => {
          if (i > 0) expect(r.start).toBe(addDays(ranges[i - 1]!.end, 1));
          expect(pairedBucketOfDate(pairing, r.start, interval)).toBe(keys[i]);
          expect(pairedBucketOfDate(pairing, r.end, interval)).toBe(keys[i]);
          expect(rangeLength(r)).toBe(rangeLength({ start: keys[i]!, end: i + 1 < keys.length ? addDays(keys[i + 1]!, -1) : p.end }));
        });
      }),
    );
  });

  it('Σ previous hours = the previous total, in any zone and across clock changes (every reported hour counted once)', () => {
    const anyDays = fc.tuple(fc.integer({ min: 0, max: 4000 }), fc.integer({ min: 0, max: 4 })).map(([s, len]) => ({ start: addDays('2016-01-01', s), end: addDays('2016-01-01', s + len) }));
    // Periods or comparison ranges around a clock change, in both directions.
    const nearClockChange = fc
      .tuple(fc.constantFrom(...CLOCK_CHANGES), fc.integer({ min: -3, max: 2 }), fc.integer({ min: 0, max: 3 }))
      .map(([date, from, len]) => ({ start: addDays(date, from), end: addDays(date, from + len) }));
    const short = fc.oneof(anyDays, nearClockChange);
    fc.assert(
      fc.property(short, mode, fc.constantFrom(...ZONES), (p, m, zone) => {
        const pairing = comparisonPairing(p, previousRange(p, m));
        const keys = bucketKeys(p, 'hour', zone);
        const pairedHour = pairedHourBuckets(pairing, zone);
        const hours = eachDay(pairing.comparison).flatMap((date) => HOURS.map((hour, i) => ({ key: pairedHour(date, hour), value: i + 1 })));
        for (const h of hours) expect(keys).toContain(h.key);
        expect(sum(sumByBucket(keys, hours))).toBe(sum(hours.map((h) => h.value)));
      }),
      { numRuns: 40 },
    );
  });

  it('own buckets are paired exactly when the comparison range’s calendar buckets, shifted, are the period’s', () => {
    fc.assert(
      fc.property(period, mode, dayInterval, (p, m, interval) => {
        const pairing = comparisonPairing(p, previousRange(p, m));
        const own = bucketKeys(pairing.comparison, interval, 'UTC');
        if (ownBucketsArePaired(pairing, interval)) {
          // Then a provider row of the comparison range's own bucket lands in the bucket its first day pairs with.
          expect(own.map((key) => pairedBucketOfDate(pairing, key, interval))).toEqual(bucketKeys(p, interval, 'UTC'));
        }
        if (interval === 'day' || (interval === 'week' && pairing.shift % 7 === 0)) expect(ownBucketsArePaired(pairing, interval)).toBe(true);
        if (m === 'year' && interval === 'week') expect(ownBucketsArePaired(pairing, interval)).toBe(true);
      }),
    );
  });
});
