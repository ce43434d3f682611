import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, eachDay, isoWeekday } from '../../src/domain/calendar.ts';
import { bucketKeyOfDate, bucketKeys, defaultInterval, fillBuckets, fillBucketsWith, parseInterval } from '../../src/domain/interval.ts';
import { expectAppError, thrownBy } from './expect-app-error.ts';

describe('parseInterval', () => {
  it.each([
    [undefined, { name: 'today', days: 1 }, 'hour'],
    [undefined, { name: 'yesterday', days: 1 }, 'hour'],
    [undefined, { name: '7days', days: 7 }, 'day'],
    [undefined, { name: '90days', days: 90 }, 'day'],
    [undefined, { name: 'custom_2026-01-01_2026-03-31', days: 90 }, 'day'],
    [undefined, { name: 'custom_2026-01-01_2026-04-01', days: 91 }, 'week'],
    [undefined, { name: '180days', days: 180 }, 'week'],
    ['', { name: '365days', days: 365 }, 'week'],
    ['month', { name: '365days', days: 365 }, 'month'],
    ['day', { name: 'today', days: 1 }, 'day'],
    ['hour', { name: '7days', days: 7 }, 'hour'],
    ['hour', { name: 'custom_2026-01-01_2026-01-10', days: 10 }, 'hour'],
  ])('%j for %j → %s', (raw, period, expected) => {
    expect(parseInterval(raw, period)).toBe(expected);
    if (raw === undefined) expect(defaultInterval(period)).toBe(expected);
  });

  it.each([
    ['minute', { name: '7days', days: 7 }, ['"minute"', 'hour, day, week, month']],
    ['Day', { name: '7days', days: 7 }, ['"Day"']],
    ['hour', { name: '28days', days: 28 }, ['"hour"', '"28days"', 'at most 10 days']],
    ['hour', { name: 'custom_2026-01-01_2026-01-11', days: 11 }, ['"custom_2026-01-01_2026-01-11"']],
  ])('rejects %j for %j', (raw, period, includes) => {
    expectAppError(() => parseInterval(raw, period), { code: 'invalid_parameter', param: 'interval', includes });
  });
});

describe('bucketKeys', () => {
  it('day: every date', () => {
    expect(bucketKeys({ start: '2026-02-27', end: '2026-03-02' }, 'day', 'UTC')).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
  });

  it('week: ISO weeks from Monday, the first clipped to the start', () => {
    // 2026-11-19 is a Thursday.
    expect(bucketKeys({ start: '2026-11-19', end: '2026-12-08' }, 'week', 'UTC')).toEqual(['2026-11-19', '2026-11-23', '2026-11-30', '2026-12-07']);
  });

  it('month: first of each month, the first clipped to the start', () => {
    expect(bucketKeys({ start: '2025-11-22', end: '2026-02-03' }, 'month', 'UTC')).toEqual(['2025-11-22', '2025-12-01', '2026-01-01', '2026-02-01']);
  });

  it('hour: 23 buckets on the Berlin spring-forward day, 25 on the fall-back day', () => {
    expect(bucketKeys({ start: '2026-03-29', end: '2026-03-29' }, 'hour', 'Europe/Berlin')).toHaveLength(23);
    expect(bucketKeys({ start: '2026-10-25', end: '2026-10-25' }, 'hour', 'Europe/Berlin')).toHaveLength(25);
    expect(bucketKeys({ start: '2026-10-24', end: '2026-10-26' }, 'hour', 'Europe/Berlin')).toHaveLength(24 + 25 + 24);
    expect(bucketKeys({ start: '2026-11-01', end: '2026-11-01' }, 'hour', 'America/New_York')).toHaveLength(25);
  });

  it('hour: today so far stops at the current hour', () => {
    const keys = bucketKeys({ start: '2026-11-22', end: '2026-11-22' }, 'hour', 'Europe/Berlin', { now: new Date('2026-11-22T09:15:00Z') });
    expect(keys.at(0)).toBe('2026-11-22T00:00:00+01:00');
    expect(keys.at(-1)).toBe('2026-11-22T10:00:00+01:00');
    expect(keys).toHaveLength(11);
  });

  const range = fc
    .tuple(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 0, max: 400 }))
    .map(([s, len]) => ({ start: addDays('2016-01-01', s), end: addDays('2016-01-01', s + len) }));

  it('week and month buckets cover every day exactly once, in order', () => {
    fc.assert(
      fc.property(range, fc.constantFrom('day', 'week', 'month') as fc.Arbitrary<'day' | 'week' | 'month'>, (r, interval) => {
        const keys = bucketKeys(r, interval, 'UTC');
        const mapped = eachDay(r).map((d) => bucketKeyOfDate(d, interval, r));
        const distinct = [...new Set(mapped)];
        return (
          keys[0] === r.start &&
          JSON.stringify(distinct) === JSON.stringify(keys) &&
          (interval !== 'week' || keys.slice(1).every((k) => isoWeekday(k) === 1)) &&
          (interval !== 'month' || keys.slice(1).every((k) => k.endsWith('-01')))
        );
      }),
    );
  });
});

describe('fillBuckets', () => {
  const keys = ['2026-01-01', '2026-01-02', '2026-01-03'];

  it('fills missing buckets with 0 and keeps key order', () => {
    expect(fillBuckets([{ key: '2026-01-03', value: 5 }, { key: '2026-01-01', value: 2 }], keys)).toEqual([
      { key: '2026-01-01', value: 2 },
      { key: '2026-01-02', value: 0 },
      { key: '2026-01-03', value: 5 },
    ]);
  });

  it('fills with any empty value', () => {
    const empty = { clicks: 0, impressions: 0 };
    expect(fillBucketsWith([], keys.slice(0, 1), empty)).toEqual([{ key: '2026-01-01', value: empty }]);
  });

  it('refuses points outside the buckets and duplicate points (caller bugs, not data)', () => {
    const outside = thrownBy(() => fillBuckets([{ key: '2025-12-31', value: 1 }], keys));
    expect(outside).toBeInstanceOf(Error);
    expect((outside as Error).message).toBe('fillBuckets: point key "2025-12-31" is not a bucket of the range');
    const duplicate = thrownBy(() => fillBuckets([{ key: '2026-01-01', value: 1 }, { key: '2026-01-01', value: 2 }], keys));
    expect((duplicate as Error).message).toBe('fillBuckets: duplicate point key "2026-01-01"');
  });
});
