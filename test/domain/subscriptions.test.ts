import { describe, expect, it } from 'vitest';
import { idempotencyKeyOf, RETRY_CAP_MS, retryDelayMs, spreadOffsetMs } from '../../src/domain/delivery-timing.ts';
import { changeExceeds, latestDueOccasion, parseSubscription } from '../../src/domain/subscriptions.ts';

describe('parseSubscription', () => {
  it('reads a weekly report and a change alert', () => {
    expect(parseSubscription({ kind: 'report', name: ' Weekly ', cadence: 'weekly', hour: '8' })).toEqual({ kind: 'report', name: 'Weekly', schedule: { cadence: 'weekly', hour: 8 } });
    expect(parseSubscription({ kind: 'alert', name: 'Clicks', metric: 'search_clicks', condition: 'change', threshold_percent: '30', baseline: 'previous_year' })).toEqual({
      kind: 'alert',
      name: 'Clicks',
      rule: { metric: 'search_clicks', condition: 'change', thresholdPercent: 30, baseline: 'previous_year' },
    });
    expect(parseSubscription({ kind: 'alert', name: 'Odd days', metric: 'sessions', condition: 'anomaly' })).toEqual({ kind: 'alert', name: 'Odd days', rule: { metric: 'sessions', condition: 'anomaly' } });
  });

  it('names every bad parameter, the first one in the problem', () => {
    const refuse = (fields: Record<string, string>) => {
      try {
        parseSubscription(fields);
      } catch (error) {
        return error as { param: string; errors: Array<{ param: string }> };
      }
      throw new Error('accepted');
    };
    const report = refuse({ kind: 'report', name: 'x', cadence: 'hourly', hour: '24' });
    expect(report.param).toBe('cadence');
    expect(report.errors.map((e) => e.param)).toEqual(['cadence', 'hour']);
    expect(refuse({ kind: 'alert', name: 'x', metric: 'sessions', condition: 'change', threshold_percent: '0', baseline: 'previous_period' }).param).toBe('threshold_percent');
    expect(refuse({ kind: 'digest', name: 'x' }).param).toBe('kind');
    expect(refuse({ kind: 'report', name: '', cadence: 'daily', hour: '1' }).param).toBe('name');
  });
});

describe('changeExceeds', () => {
  it('compares the relative change with the threshold, both ways', () => {
    expect(changeExceeds(70, 100, 30)).toBe(false);
    expect(changeExceeds(69, 100, 30)).toBe(true);
    expect(changeExceeds(131, 100, 30)).toBe(true);
    expect(changeExceeds(5, 0, 30)).toBe(true);
    expect(changeExceeds(0, 0, 30)).toBe(false);
  });
});

describe('latestDueOccasion', () => {
  const at = (iso: string) => Date.parse(iso);
  it('daily: today once the local hour has come, else yesterday', () => {
    // 07:30 UTC is 08:30 in Berlin (CET).
    expect(latestDueOccasion({ cadence: 'daily', hour: 8 }, 'Europe/Berlin', at('2026-11-26T07:30:00Z'))).toEqual({ periodKey: '2026-11-26', dueAt: at('2026-11-26T07:00:00Z') });
    expect(latestDueOccasion({ cadence: 'daily', hour: 9 }, 'Europe/Berlin', at('2026-11-26T07:30:00Z'))).toEqual({ periodKey: '2026-11-25', dueAt: at('2026-11-25T08:00:00Z') });
  });

  it('weekly: the Monday of the week; monthly: the first of the month', () => {
    // Thursday 26 November 2026.
    expect(latestDueOccasion({ cadence: 'weekly', hour: 6 }, 'UTC', at('2026-11-26T12:00:00Z'))).toEqual({ periodKey: '2026-11-23', dueAt: at('2026-11-23T06:00:00Z') });
    expect(latestDueOccasion({ cadence: 'monthly', hour: 6 }, 'UTC', at('2026-11-26T12:00:00Z'))).toEqual({ periodKey: '2026-11', dueAt: at('2026-11-01T06:00:00Z') });
    // Before the hour on the first: the previous month's occasion.
    expect(latestDueOccasion({ cadence: 'monthly', hour: 6 }, 'UTC', at('2026-12-01T05:00:00Z'))).toEqual({ periodKey: '2026-11', dueAt: at('2026-11-01T06:00:00Z') });
  });

  it('follows the zone across a date line: in Tokyo it is already Monday', () => {
    expect(latestDueOccasion({ cadence: 'weekly', hour: 0 }, 'Asia/Tokyo', at('2026-11-29T15:30:00Z')).periodKey).toBe('2026-11-30');
  });

  it('refuses an unknown zone naming it', () => {
    expect(() => latestDueOccasion({ cadence: 'daily', hour: 1 }, 'Mars/Olympus', 0)).toThrow(/Mars\/Olympus/);
  });
});

describe('delivery timing', () => {
  it('spreads jobs over the window, the same key always to the same offset', () => {
    const offsets = Array.from({ length: 200 }, (_, i) => spreadOffsetMs(idempotencyKeyOf(`sub_${i}`, '2026-11-23'), 3_600_000));
    expect(offsets.every((o) => o >= 0 && o < 3_600_000)).toBe(true);
    expect(spreadOffsetMs('sub_1:2026-11-23', 3_600_000)).toBe(spreadOffsetMs('sub_1:2026-11-23', 3_600_000));
    // Not a burst: no six-minute slice holds more than a quarter of them.
    const slices = Array.from({ length: 10 }, (_, slice) => offsets.filter((o) => Math.floor(o / 360_000) === slice).length);
    expect(Math.max(...slices)).toBeLessThan(50);
    expect(spreadOffsetMs('x', 0)).toBe(0);
  });

  it('backs off exponentially up to the cap', () => {
    expect([1, 2, 3].map(retryDelayMs)).toEqual([30_000, 60_000, 120_000]);
    expect(retryDelayMs(20)).toBe(RETRY_CAP_MS);
  });
});
