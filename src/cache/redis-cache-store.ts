// Redis cache store shared by all instances; while Redis is unreachable it serves from an in-process fallback instead of failing.
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { entryBytes, type CacheEntry, type CacheStore, type StoreHealth } from './cache-store.ts';
import { systemClock, type Clock } from './clock.ts';
import { createMemoryCacheStore } from './memory-cache-store.ts';

export interface RedisCacheStoreOptions {
  redis: Redis;
  /** Namespace of the keys, e.g. `siteline:cache:`. */
  prefix?: string;
  /** Where reads and writes go while Redis fails (default: a fresh in-process store). */
  fallback?: CacheStore;
  logger?: Pick<Logger, 'warn' | 'info'>;
  now?: Clock;
}

export function createRedisCacheStore(options: RedisCacheStoreOptions): CacheStore {
  const { redis } = options;
  const prefix = options.prefix ?? 'siteline:cache:';
  const now = options.now ?? systemClock;
  const fallback = options.fallback ?? createMemoryCacheStore({ now });
  let failure: string | undefined;
  // A reconnect is a recovery even if no cache call has succeeded since (a warm process may make none for long).
  redis.on('ready', recovered);

  function recovered(): void {
    if (failure === undefined) return;
    failure = undefined;
    options.logger?.info('redis cache recovered');
  }

  // Every Redis call goes through here: on error the request still succeeds through the fallback,
  // the outage is logged once, and the first successful call afterwards clears the degraded state.
  async function attempt<T>(op: () => Promise<T>, degraded: () => Promise<T>): Promise<T> {
    if (redis.status !== 'ready') {
      markFailed(`redis ${redis.status}`);
      return degraded();
    }
    try {
      const result = await op();
      recovered();
      return result;
    } catch (err) {
      markFailed(err instanceof Error ? err.message : String(err));
      return degraded();
    }
  }

  function markFailed(reason: string): void {
    if (failure === undefined) options.logger?.warn({ reason }, 'redis cache unavailable; serving from in-process cache');
    failure = reason;
  }

  return {
    get(key) {
      return attempt(async () => {
        const raw = await redis.get(prefix + key);
        const entry = raw === null ? undefined : parseEntry(raw);
        return entry !== undefined && entry.staleUntil > now() ? entry : undefined;
      }, () => fallback.get(key));
    },
    set(key, entry) {
      const ttl = Math.ceil(entry.staleUntil - now());
      if (ttl <= 0) return this.delete(key);
      return attempt(async () => {
        const stored: CacheEntry = { ...entry, bytes: entryBytes(key, entry) };
        await redis.set(prefix + key, JSON.stringify(stored), 'PX', ttl);
      }, () => fallback.set(key, entry));
    },
    delete(key) {
      return attempt(async () => {
        await redis.del(prefix + key);
      }, () => fallback.delete(key));
    },
    health(): StoreHealth {
      if (redis.status !== 'ready') return { status: 'degraded', detail: `redis ${redis.status}` };
      return failure === undefined ? { status: 'ok' } : { status: 'degraded', detail: failure };
    },
  };
}

// Another version (or a hand edit) may have left something else under our key: treat it as a miss.
function parseEntry(raw: string): CacheEntry | undefined {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const e = parsed as Record<string, unknown>;
    const times = ['storedAt', 'freshUntil', 'revalidateUntil', 'staleUntil'] as const;
    if (!times.every((t) => typeof e[t] === 'number') || typeof e.source !== 'string' || !('value' in e)) return undefined;
    return parsed as CacheEntry;
  } catch {
    return undefined;
  }
}
