// Cache policy inputs for a provider request: what kind of data it is and the last day it covers, in the
// project's calendar (SPEC §9 TTLs).
import type { CachePolicy } from '../cache/ttl-policy.ts';
import { freshnessFor } from '../cache/ttl-policy.ts';
import { todayInZone } from '../domain/time-zone.ts';
import type { IsoDate } from '../domain/calendar.ts';

export function reportPolicy(endDate: IsoDate, timezone: string, now: Date): CachePolicy {
  return freshnessFor({ kind: 'report', endDate, today: todayInZone(timezone, now) }, now.getTime());
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
