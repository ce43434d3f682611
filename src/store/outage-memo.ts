// The last good answer of the store reads a report needs (the caller's projects, their data sources, credentials
// and funnels), kept in memory so reads keep being served for a bounded time while the database is away. Only an
// outage (`dependency_unavailable`) falls back to it; every other error, and every answer, goes through as is.
import { LRUCache } from 'lru-cache';
import { isDependencyUnavailable } from '../errors/app-error.ts';

/** How long a remembered store answer may stand in for the database during an outage. */
export const OUTAGE_GRACE_MS = 10 * 60_000;

export interface OutageMemo {
  /** `load()`; when the database is unavailable, the answer `load()` last gave for `key` (if young enough). */
  read<T>(key: string, load: () => Promise<T>): Promise<T>;
}

export interface OutageMemoOptions {
  graceMs?: number;
  maxEntries?: number;
  now?: () => number;
}

export function createOutageMemo(options: OutageMemoOptions = {}): OutageMemo {
  const graceMs = options.graceMs ?? OUTAGE_GRACE_MS;
  const now = options.now ?? Date.now;
  const remembered = new LRUCache<string, { value: unknown; at: number }>({ max: options.maxEntries ?? 10_000 });
  return {
    async read(key, load) {
      try {
        const value = await load();
        remembered.set(key, { value, at: now() });
        return value;
      } catch (error) {
        const last = isDependencyUnavailable(error) ? remembered.get(key) : undefined;
        if (last !== undefined && now() - last.at <= graceMs) return last.value as Awaited<ReturnType<typeof load>>;
        throw error;
      }
    },
  };
}
