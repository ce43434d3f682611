// The envelope's `meta` from the cached upstream results a response was built from.
import type { CachedResult, CacheState } from '../cache/cached-fetch.ts';
import type { QuotaRemaining } from '../providers/analytics/normalize.ts';
import { isSource, type Source } from '../domain/sources.ts';

export interface Warning {
  code: string;
  message: string;
}

export interface Meta {
  cache: CacheState;
  fetchedAt: string;
  warnings: Warning[];
  sources: Source[];
  dataThrough?: string;
  /** The analytics property's quota left (smallest remaining per bucket among the reports used), when known. */
  quota?: QuotaRemaining;
}

/** Worst state wins: one stale part makes the answer stale; a forced refresh outranks a plain miss. */
const PRECEDENCE: CacheState[] = ['stale', 'refresh', 'miss', 'hit'];

/** `zone`: the time zone the period was resolved in; an analytics report read in another zone is flagged. */
export function buildMeta(input: { results: readonly CachedResult<unknown>[]; sources: readonly string[]; warnings?: readonly Warning[]; now: Date; dataThrough?: string; zone?: string }): Meta {
  const states = new Set(input.results.map((r) => r.cache));
  const cache = PRECEDENCE.find((s) => states.has(s)) ?? 'hit';
  const oldest = input.results.length ? Math.min(...input.results.map((r) => r.storedAt)) : input.now.getTime();
  const warnings = dedupe([...input.results.flatMap((r) => r.warnings), ...(input.warnings ?? []), ...zoneChanged(input.results, input.zone)]);
  const quota = lowestQuota(input.results);
  return {
    cache,
    fetchedAt: new Date(oldest).toISOString(),
    warnings,
    sources: input.sources.filter(isSource),
    ...(input.dataThrough ? { dataThrough: input.dataThrough } : {}),
    ...(quota ? { quota } : {}),
  };
}

/** Analytics reports carry `quota` (GA's propertyQuota); the tightest bucket state among them is what is left. */
function lowestQuota(results: readonly CachedResult<unknown>[]): QuotaRemaining | undefined {
  let lowest: QuotaRemaining | undefined;
  for (const result of results) {
    const quota = (result.value as { quota?: QuotaRemaining } | null)?.quota;
    if (quota === undefined) continue;
    lowest ??= {};
    for (const [bucket, remaining] of Object.entries(quota) as [keyof QuotaRemaining, number][]) {
      lowest[bucket] = Math.min(lowest[bucket] ?? remaining, remaining);
    }
  }
  return lowest;
}

function dedupe(warnings: Warning[]): Warning[] {
  const seen = new Set<string>();
  return warnings.filter((w) => {
    const key = `${w.code}\u0000${w.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The property's zone changed since it was stored: this answer's days were cut in the old one (the next will not be). */
function zoneChanged(results: readonly CachedResult<unknown>[], zone: string | undefined): Warning[] {
  if (zone === undefined) return [];
  const seen = results.map((r) => (r.value as { timeZone?: string } | null)?.timeZone).find((z) => z !== undefined && z !== zone);
  if (seen === undefined) return [];
  return [{ code: 'timezone_changed', message: `The analytics property reports in ${seen}, but this answer's period was resolved in ${zone}; the next request uses ${seen}.` }];
}
