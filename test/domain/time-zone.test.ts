import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, isIsoDate } from '../../src/domain/calendar.ts';
import { hourBucketsOfDay, hourKeyAt, localHourBuckets } from '../../src/domain/hours.ts';
import {
  assertTimeZone,
  formatOffset,
  hoursInLocalDay,
  isTimeZone,
  localTimeAt,
  startOfDayInZone,
  todayInZone,
  zoneOffsetMinutes,
} from '../../src/domain/time-zone.ts';
import { expectAppError } from './expect-app-error.ts';

const ZONES = [
  'UTC',
  'Europe/Berlin',
  'Europe/London',
  'America/New_York',
  'America/Los_Angeles',
  'America/Sao_Paulo',
  'America/Santiago',
  'America/St_Johns',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Asia/Tokyo',
  'Australia/Sydney',
  'Australia/Lord_Howe',
  'Pacific/Auckland',
  'Pacific/Chatham',
  'Pacific/Kiritimati',
  'Pacific/Pago_Pago',
  'Africa/Casablanca',
  'Asia/Tehran',
];

const at = (iso: string): number => Date.parse(iso);

describe('zones', () => {
  it.each(ZONES)('%s is a zone', (zone) => {
    expect(isTimeZone(zone)).toBe(true);
  });

  it.each(['Mars/Olympus', '', 'Europe/Berlin ', '../etc/passwd'])('%j is not a zone', (zone) => {
    expect(isTimeZone(zone)).toBe(false);
    expectAppError(() => assertTimeZone(zone), { code: 'invalid_parameter', param: 'timezone', includes: [JSON.stringify(zone)] });
  });
});

describe('todayInZone', () => {
  it.each([
    ['2026-11-22T22:30:00Z', 'UTC', '2026-11-22'],
    ['2026-11-22T23:30:00Z', 'Europe/Berlin', '2026-11-23'],
    ['2026-11-23T04:59:59Z', 'America/New_York', '2026-11-22'],
    ['2026-11-23T05:00:00Z', 'America/New_York', '2026-11-23'],
    ['2026-11-22T10:00:00Z', 'Pacific/Kiritimati', '2026-11-23'],
    ['2026-11-22T10:00:00Z', 'Pacific/Pago_Pago', '2026-11-21'],
    ['2026-11-22T18:29:59Z', 'Asia/Kolkata', '2026-11-22'],
    ['2026-11-22T18:30:00Z', 'Asia/Kolkata', '2026-11-23'],
  ])('%s in %s is %s', (instant, zone, date) => {
    expect(todayInZone(zone, new Date(instant))).toBe(date);
  });
});

describe('zoneOffsetMinutes', () => {
  it.each([
    ['2026-01-15T12:00:00Z', 'Europe/Berlin', 60],
    ['2026-07-15T12:00:00Z', 'Europe/Berlin', 120],
    ['2026-03-29T00:59:59Z', 'Europe/Berlin', 60],
    ['2026-03-29T01:00:00Z', 'Europe/Berlin', 120],
    ['2026-10-25T00:59:59Z', 'Europe/Berlin', 120],
    ['2026-10-25T01:00:00Z', 'Europe/Berlin', 60],
    ['2026-03-08T07:00:00Z', 'America/New_York', -240],
    ['2026-03-08T06:59:00Z', 'America/New_York', -300],
    ['2026-01-15T12:00:00Z', 'Asia/Kathmandu', 345],
    ['2026-01-15T12:00:00Z', 'America/St_Johns', -210],
    ['2026-01-15T12:00:00Z', 'Pacific/Chatham', 825],
    ['2026-01-15T12:00:00Z', 'UTC', 0],
  ])('%s %s → %i', (instant, zone, offset) => {
    expect(zoneOffsetMinutes(at(instant), zone)).toBe(offset);
  });

  it.each([
    [60, '+01:00'],
    [-300, '-05:00'],
    [345, '+05:45'],
    [-210, '-03:30'],
    [0, '+00:00'],
    [825, '+13:45'],
  ])('formatOffset(%i) = %s', (minutes, text) => {
    expect(formatOffset(minutes)).toBe(text);
  });
});

describe('startOfDayInZone and day lengths (DST)', () => {
  it.each([
    ['2026-03-29', 'Europe/Berlin', '2026-03-28T23:00:00Z', 23],
    ['2026-10-25', 'Europe/Berlin', '2026-10-24T22:00:00Z', 25],
    ['2026-06-01', 'Europe/Berlin', '2026-05-31T22:00:00Z', 24],
    ['2026-03-08', 'America/New_York', '2026-03-08T05:00:00Z', 23],
    ['2026-11-01', 'America/New_York', '2026-11-01T04:00:00Z', 25],
    ['2026-04-05', 'Australia/Sydney', '2026-04-04T13:00:00Z', 25],
    ['2026-10-04', 'Australia/Sydney', '2026-10-03T14:00:00Z', 23],
    ['2026-04-05', 'Australia/Lord_Howe', '2026-04-04T13:00:00Z', 24.5],
    ['2026-01-15', 'Asia/Kathmandu', '2026-01-14T18:15:00Z', 24],
    ['2026-01-15', 'UTC', '2026-01-15T00:00:00Z', 24],
  ])('%s in %s starts at %s and has %d hours', (date, zone, start, hours) => {
    expect(new Date(startOfDayInZone(date, zone)).toISOString()).toBe(new Date(start).toISOString());
    expect(hoursInLocalDay(date, zone)).toBe(hours);
  });

  it('handles a zone whose midnight is skipped (America/Santiago, DST starts at 24:00)', () => {
    // 2026-09-06: clocks go from 00:00 to 01:00, so the day starts at 01:00 local (-03:00).
    const start = startOfDayInZone('2026-09-06', 'America/Santiago');
    const local = localTimeAt(start, 'America/Santiago');
    expect(local.date).toBe('2026-09-06');
    expect(localTimeAt(start - 1000, 'America/Santiago').date).toBe('2026-09-05');
    expect(hoursInLocalDay('2026-09-06', 'America/Santiago')).toBe(23);
  });

  it('start of day is the first instant of the local date, in many zones', () => {
    const zone = fc.constantFrom(...ZONES);
    const day = fc.integer({ min: 0, max: 3 * 366 }).map((n) => addDays('2025-01-01', n));
    fc.assert(
      fc.property(zone, day, (z, d) => {
        const start = startOfDayInZone(d, z);
        return localTimeAt(start, z).date === d && localTimeAt(start - 1000, z).date === addDays(d, -1);
      }),
      { numRuns: 300 },
    );
  });

  it('todayInZone always yields a valid date within a day of the UTC date', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), fc.integer({ min: at('2015-01-01T00:00:00Z'), max: at('2035-01-01T00:00:00Z') }), (z, t) => {
        const local = todayInZone(z, new Date(t));
        const utc = new Date(t).toISOString().slice(0, 10);
        return isIsoDate(local) && [addDays(utc, -1), utc, addDays(utc, 1)].includes(local);
      }),
    );
  });
});

describe('hour buckets', () => {
  it('Europe/Berlin spring-forward day has 23 hours and skips 02:00', () => {
    const keys = hourBucketsOfDay('2026-03-29', 'Europe/Berlin').map((b) => b.key);
    expect(keys).toHaveLength(23);
    expect(keys.slice(0, 3)).toEqual(['2026-03-29T00:00:00+01:00', '2026-03-29T01:00:00+01:00', '2026-03-29T03:00:00+02:00']);
    expect(keys.at(-1)).toBe('2026-03-29T23:00:00+02:00');
  });

  it('Europe/Berlin fall-back day has 25 hours and repeats 02:00', () => {
    const buckets = hourBucketsOfDay('2026-10-25', 'Europe/Berlin');
    expect(buckets).toHaveLength(25);
    expect(buckets.slice(1, 5).map((b) => b.key)).toEqual([
      '2026-10-25T01:00:00+02:00',
      '2026-10-25T02:00:00+02:00',
      '2026-10-25T02:00:00+01:00',
      '2026-10-25T03:00:00+01:00',
    ]);
    expect(buckets.filter((b) => b.localHour === 2)).toHaveLength(2);
  });

  it.each([
    ['2026-03-08', 'America/New_York', 23, '2026-03-08T03:00:00-04:00'],
    ['2026-11-01', 'America/New_York', 25, '2026-11-01T01:00:00-05:00'],
    ['2026-01-15', 'Asia/Kolkata', 24, '2026-01-15T05:00:00+05:30'],
    ['2026-01-15', 'UTC', 24, '2026-01-15T23:00:00+00:00'],
  ])('%s in %s: %i buckets including %s', (date, zone, count, key) => {
    const buckets = hourBucketsOfDay(date, zone);
    expect(buckets).toHaveLength(count);
    expect(buckets.map((b) => b.key)).toContain(key);
    expect(new Set(buckets.map((b) => b.key)).size).toBe(count);
  });

  it('bucket keys are parseable and their instants increase', () => {
    for (const zone of ZONES) {
      const buckets = hourBucketsOfDay('2026-10-25', zone);
      for (const [i, b] of buckets.entries()) {
        expect(Date.parse(b.key)).toBe(b.start);
        if (i > 0) expect(b.start).toBeGreaterThan(buckets[i - 1]?.start ?? 0);
      }
    }
  });

  it.each([
    ['2026-10-25', 2, '2026-10-25T02:00:00+02:00'],
    ['2026-10-25', 3, '2026-10-25T03:00:00+01:00'],
    ['2026-03-29', 2, '2026-03-29T03:00:00+02:00'],
    ['2026-03-29', 3, '2026-03-29T03:00:00+02:00'],
    ['2026-06-01', 23, '2026-06-01T23:00:00+02:00'],
  ])('localHourBuckets in Berlin: (%s, %i) counts in %s', (date, hour, key) => {
    expect(localHourBuckets('Europe/Berlin')(date, hour)?.key).toBe(key);
  });

  it('hourKeyAt names the hour containing an instant', () => {
    expect(hourKeyAt(at('2026-10-25T00:30:00Z'), 'Europe/Berlin')).toBe('2026-10-25T02:00:00+02:00');
    expect(hourKeyAt(at('2026-10-25T01:30:00Z'), 'Europe/Berlin')).toBe('2026-10-25T02:00:00+01:00');
    expect(hourKeyAt(at('2025-04-07T20:15:00Z'), 'America/Los_Angeles')).toBe('2025-04-07T13:00:00-07:00');
  });
});
