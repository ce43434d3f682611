// The policy a provider request is cached under: the report's last day in the property's calendar, and GA's
// processing window (days it may still revise are cached 15 minutes at most).
import { describe, expect, it } from 'vitest';
import { ANALYTICS_PROCESSING_DAYS, analyticsReportPolicy, firstProcessingDay, historyPolicy, metadataPolicy, realtimePolicy, reportPolicy } from '../../src/cache/upstream-policy.ts';
import { freshnessFor } from '../../src/cache/ttl-policy.ts';

const QUARTER_HOUR = 15 * 60_000;
// 06:00 UTC on 2026-05-10 is still 2026-05-09 in Los Angeles and already 2026-05-10 in Tokyo.
const now = new Date('2026-05-10T06:00:00Z');

describe('upstream cache policy', () => {
  it("reads the report's age in the property's own calendar", () => {
    expect(reportPolicy('2026-05-09', 'America/Los_Angeles', now)).toEqual(freshnessFor({ kind: 'report', endDate: '2026-05-09', today: '2026-05-09' }, now.getTime()));
    expect(reportPolicy('2026-05-09', 'Asia/Tokyo', now)).toEqual(freshnessFor({ kind: 'report', endDate: '2026-05-09', today: '2026-05-10' }, now.getTime()));
    expect(reportPolicy('2026-05-09', 'America/Los_Angeles', now)).not.toEqual(reportPolicy('2026-05-09', 'Asia/Tokyo', now));
  });

  it("GA's processing window starts two days before today in the property's zone", () => {
    expect(ANALYTICS_PROCESSING_DAYS).toBe(2);
    expect(firstProcessingDay('America/Los_Angeles', now)).toBe('2026-05-07');
    expect(firstProcessingDay('Asia/Tokyo', now)).toBe('2026-05-08');
  });

  it('caches a period GA may still be processing for 15 minutes at most, with its stale-if-error kept', () => {
    for (const end of ['2026-05-08', '2026-05-07']) {
      const base = reportPolicy(end, 'America/Los_Angeles', now);
      expect(base.freshMs).toBeGreaterThan(QUARTER_HOUR);
      expect(analyticsReportPolicy(end, 'America/Los_Angeles', now)).toEqual({ freshMs: QUARTER_HOUR, revalidateMs: QUARTER_HOUR, staleIfErrorMs: base.staleIfErrorMs });
    }
  });

  it('leaves older periods, and periods already cached shorter than 15 minutes, as the report policy says', () => {
    expect(analyticsReportPolicy('2026-05-06', 'America/Los_Angeles', now)).toEqual(reportPolicy('2026-05-06', 'America/Los_Angeles', now));
    const today = reportPolicy('2026-05-09', 'America/Los_Angeles', now);
    expect(today.freshMs).toBeLessThanOrEqual(QUARTER_HOUR);
    expect(analyticsReportPolicy('2026-05-09', 'America/Los_Angeles', now)).toEqual(today);
  });

  it('realtime, metadata and history use their kinds', () => {
    expect(realtimePolicy(now)).toEqual(freshnessFor({ kind: 'realtime' }, now.getTime()));
    expect(metadataPolicy(now)).toEqual(freshnessFor({ kind: 'metadata' }, now.getTime()));
    expect(historyPolicy(now)).toEqual(freshnessFor({ kind: 'history' }, now.getTime()));
    expect(realtimePolicy(now).revalidateMs).toBe(0);
  });
});
