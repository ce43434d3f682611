import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, diffDays, isIsoDate } from '../../src/domain/calendar.ts';
import { previousRange } from '../../src/domain/compare.ts';
import {
  parseAndResolvePeriod,
  parsePeriod,
  RELATIVE_PERIODS,
  resolvePeriod,
  toPeriodJson,
} from '../../src/domain/period.ts';
import { todayInZone } from '../../src/domain/time-zone.ts';
import { expectAppError } from './expect-app-error.ts';

// 2026-11-22 23:30 UTC: already 2026-11-23 in Berlin, still 2026-11-22 in New York.
const NOW = new Date('2026-11-22T23:30:00Z');

describe('parsePeriod', () => {
  it.each([
    [undefined, { kind: 'last_days', name: '28days', days: 28 }],
    ['', { kind: 'last_days', name: '28days', days: 28 }],
    ['today', { kind: 'today', name: 'today' }],
    ['yesterday', { kind: 'yesterday', name: 'yesterday' }],
    ['7days', { kind: 'last_days', name: '7days', days: 7 }],
    ['365days', { kind: 'last_days', name: '365days', days: 365 }],
    ['custom_2026-01-01_2026-01-31', { kind: 'custom', name: 'custom_2026-01-01_2026-01-31', start: '2026-01-01', end: '2026-01-31' }],
    ['custom_2015-08-14_2015-08-14', { kind: 'custom', name: 'custom_2015-08-14_2015-08-14', start: '2015-08-14', end: '2015-08-14' }],
    ['custom_2020-03-01_2025-02-28', { kind: 'custom', name: 'custom_2020-03-01_2025-02-28', start: '2020-03-01', end: '2025-02-28' }],
  ])('%j', (raw, expected) => {
    expect(parsePeriod(raw)).toEqual(expected);
  });

  it.each([
    ['30days', 'expected one of'],
    ['Today', 'expected one of'],
    ['last_week', 'expected one of'],
    ['custom_2026-01-01', 'expected one of'],
    ['custom_2026-1-01_2026-01-31', 'START "2026-1-01" is not a calendar date'],
    ['custom_2026-01-01_2026-02-30', 'END "2026-02-30" is not a calendar date'],
    ['custom_2026-02-01_2026-01-31', 'START 2026-02-01 is after END 2026-01-31'],
    ['custom_2015-08-13_2015-09-01', 'before 2015-08-14'],
    ['custom_2020-03-01_2025-03-01', 'more than 5 years'],
    ['custom_2026-01-01_2026-01-31_x', 'expected one of'],
  ])('rejects %j (%s)', (raw, rule) => {
    expectAppError(() => parsePeriod(raw), { code: 'invalid_period', param: 'period', includes: [`"${raw}"`, rule] });
  });
});

describe('resolvePeriod', () => {
  it.each([
    ['today', 'Europe/Berlin', '2026-11-23', '2026-11-23', 1],
    ['today', 'America/New_York', '2026-11-22', '2026-11-22', 1],
    ['yesterday', 'Europe/Berlin', '2026-11-22', '2026-11-22', 1],
    ['7days', 'UTC', '2026-11-15', '2026-11-21', 7],
    ['28days', 'Europe/Berlin', '2026-10-26', '2026-11-22', 28],
    ['28days', 'America/New_York', '2026-10-25', '2026-11-21', 28],
    ['90days', 'UTC', '2026-08-24', '2026-11-21', 90],
    ['365days', 'UTC', '2025-11-22', '2026-11-21', 365],
    ['custom_2026-11-01_2026-11-23', 'Europe/Berlin', '2026-11-01', '2026-11-23', 23],
  ])('%s in %s → %s..%s (%i days)', (raw, timezone, start, end, days) => {
    const period = resolvePeriod(parsePeriod(raw), { timezone, now: NOW });
    expect(period).toMatchObject({ name: raw, start, end, timezone, days });
  });

  it('flags periods that end today', () => {
    expect(parseAndResolvePeriod('today', { timezone: 'UTC', now: NOW }).includesToday).toBe(true);
    expect(parseAndResolvePeriod('7days', { timezone: 'UTC', now: NOW }).includesToday).toBe(false);
  });

  it('rejects a custom END after today in the project zone, naming the rule', () => {
    // 2026-11-23 is today in Berlin but tomorrow in New York.
    expect(parseAndResolvePeriod('custom_2026-11-01_2026-11-23', { timezone: 'Europe/Berlin', now: NOW }).end).toBe('2026-11-23');
    expectAppError(() => parseAndResolvePeriod('custom_2026-11-01_2026-11-23', { timezone: 'America/New_York', now: NOW }), {
      code: 'invalid_period',
      param: 'period',
      includes: ['"custom_2026-11-01_2026-11-23"', 'END 2026-11-23 is after today (2026-11-22 in America/New_York)'],
    });
  });

  it('any four-digit year parses; a far-future custom range is refused as after today, never thrown as a crash', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: 9999 }), fc.integer({ min: 0, max: 2000 }), (year, span) => {
        const start = `${year}-01-01`;
        const shifted = addDays(start, span);
        const end = isIsoDate(shifted) ? shifted : '9999-12-31';
        const raw = `custom_${start}_${end}`;
        try {
          parseAndResolvePeriod(raw, { timezone: 'UTC', now: NOW });
          return end <= '2026-11-22';
        } catch (error) {
          return (error as { code?: string }).code === 'invalid_period';
        }
      }),
      { numRuns: 300 },
    );
    expectAppError(() => parseAndResolvePeriod('custom_9995-01-01_9995-01-02', { timezone: 'UTC', now: NOW }), {
      code: 'invalid_period',
      param: 'period',
      includes: ['END 9995-01-02 is after today'],
    });
  });

  it('rejects an unknown zone', () => {
    expectAppError(() => parseAndResolvePeriod('7days', { timezone: 'Nowhere/Land', now: NOW }), { code: 'invalid_parameter', param: 'timezone' });
  });

  const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'America/Los_Angeles', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'America/Santiago'];
  const instants = fc.integer({ min: Date.parse('2016-01-01T00:00:00Z'), max: Date.parse('2035-12-31T00:00:00Z') });
  // DST change instants are covered by sampling the hours around them.
  const dstInstants = fc
    .constantFrom('2026-03-29T01:00:00Z', '2026-10-25T01:00:00Z', '2026-03-08T07:00:00Z', '2026-11-01T06:00:00Z', '2026-04-04T15:00:00Z')
    .chain((iso) => fc.integer({ min: -26 * 3600_000, max: 26 * 3600_000 }).map((d) => Date.parse(iso) + d));

  it('every relative period ends yesterday (or today) with the right length, in many zones and around DST changes', () => {
    fc.assert(
      fc.property(fc.constantFrom(...RELATIVE_PERIODS), fc.constantFrom(...ZONES), fc.oneof(instants, dstInstants), (name, timezone, t) => {
        const now = new Date(t);
        const today = todayInZone(timezone, now);
        const p = resolvePeriod(parsePeriod(name), { timezone, now });
        const expectedEnd = name === 'today' ? today : addDays(today, -1);
        const expectedDays = name === 'today' || name === 'yesterday' ? 1 : Number(name.replace('days', ''));
        return (
          isIsoDate(p.start) &&
          p.end === expectedEnd &&
          p.days === expectedDays &&
          diffDays(p.start, p.end) + 1 === p.days &&
          p.includesToday === (name === 'today')
        );
      }),
      { numRuns: 400 },
    );
  });

  it('any valid custom range round-trips through parse and resolve', () => {
    const day = fc.integer({ min: 0, max: 4000 }).map((n) => addDays('2015-08-14', n));
    fc.assert(
      fc.property(day, fc.integer({ min: 0, max: 1800 }), (start, span) => {
        const end = addDays(start, span);
        if (end > '2026-11-22') return true;
        const p = parseAndResolvePeriod(`custom_${start}_${end}`, { timezone: 'UTC', now: NOW });
        return p.start === start && p.end === end && p.days === span + 1;
      }),
    );
  });
});

describe('toPeriodJson', () => {
  const period = resolvePeriod(parsePeriod('28days'), { timezone: 'Europe/Berlin', now: new Date('2026-11-22T12:00:00Z') });

  it('echoes exactly name, start, end and timezone', () => {
    expect(toPeriodJson(period)).toStrictEqual({ name: '28days', start: '2026-10-25', end: '2026-11-21', timezone: 'Europe/Berlin' });
  });

  it('adds previous when compared', () => {
    expect(toPeriodJson(period, previousRange(period, 'previous'))).toStrictEqual({
      name: '28days',
      start: '2026-10-25',
      end: '2026-11-21',
      timezone: 'Europe/Berlin',
      previous: { start: '2026-09-27', end: '2026-10-24' },
    });
  });
});
