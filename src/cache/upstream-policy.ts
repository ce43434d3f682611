// Cache policy inputs for a provider request: what kind of data it is and the last day it covers, in the
// project's calendar.
import { freshnessFor, type CachePolicy } from './ttl-policy.ts';
import { todayInZone } from '../domain/time-zone.ts';
import { addDays, type IsoDate } from '../domain/calendar.ts';

export function reportPolicy(endDate: IsoDate, timezone: string, now: Date): CachePolicy {
  return freshnessFor({ kind: 'report', endDate, today: todayInZone(timezone, now) }, now.getTime());
}

/** GA keeps processing a day for 24–48 h after it ends (its data-freshness help); those days must refresh soon. */
export const ANALYTICS_PROCESSING_DAYS = 2;
const ANALYTICS_RECENT_FRESH_MS = 15 * 60_000;

/** The first day, in the property's calendar, that GA may still be processing at `now`. */
export function firstProcessingDay(timezone: string, now: Date): IsoDate {
  return addDays(todayInZone(timezone, now), -ANALYTICS_PROCESSING_DAYS);
}

/** reportPolicy, but a period reaching into days GA is still processing is cached briefly (15 min at most). */
export function analyticsReportPolicy(endDate: IsoDate, timezone: string, now: Date): CachePolicy {
  const policy = reportPolicy(endDate, timezone, now);
  if (endDate < firstProcessingDay(timezone, now) || policy.freshMs <= ANALYTICS_RECENT_FRESH_MS) return policy;
  return { freshMs: ANALYTICS_RECENT_FRESH_MS, revalidateMs: ANALYTICS_RECENT_FRESH_MS, staleIfErrorMs: policy.staleIfErrorMs };
}

export function realtimePolicy(now: Date): CachePolicy {
  return freshnessFor({ kind: 'realtime' }, now.getTime());
}

export function metadataPolicy(now: Date): CachePolicy {
  return freshnessFor({ kind: 'metadata' }, now.getTime());
}

export function historyPolicy(now: Date): CachePolicy {
  return freshnessFor({ kind: 'history' }, now.getTime());
}
