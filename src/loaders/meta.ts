// The envelope's `meta` (SPEC §3) from the cached upstream results a response was built from.
import type { CachedResult, CacheState } from '../cache/cached-fetch.ts';

export interface Warning {
  code: string;
  message: string;
}

export interface Meta {
  cache: CacheState;
  fetchedAt: string;
  warnings: Warning[];
  sources: string[];
  dataThrough?: string;
}

/** Worst state wins: one stale part makes the answer stale; a forced refresh outranks a plain miss. */
const PRECEDENCE: CacheState[] = ['stale', 'refresh', 'miss', 'hit'];

export function buildMeta(input: { results: readonly CachedResult<unknown>[]; sources: readonly string[]; warnings?: readonly Warning[]; now: Date; dataThrough?: string }): Meta {
  const states = new Set(input.results.map((r) => r.cache));
  const cache = PRECEDENCE.find((s) => states.has(s)) ?? 'hit';
  const oldest = input.results.length ? Math.min(...input.results.map((r) => r.storedAt)) : input.now.getTime();
  const warnings = dedupe([...input.results.flatMap((r) => r.warnings), ...(input.warnings ?? [])]);
  return {
    cache,
    fetchedAt: new Date(oldest).toISOString(),
    warnings,
    sources: [...input.sources],
    ...(input.dataThrough ? { dataThrough: input.dataThrough } : {}),
  };
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
