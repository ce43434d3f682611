// In-process cache store: an LRU bounded by bytes whose entries vanish once their stale window ends.
import { LRUCache } from 'lru-cache';
import { entryBytes, type CacheEntry, type CacheStore } from './cache-store.ts';
import { deepFreeze } from './json-walk.ts';
import { systemClock, type Clock } from './clock.ts';

export const DEFAULT_MEMORY_CACHE_BYTES = 64 * 1024 * 1024;

export interface MemoryCacheStoreOptions {
  /** Upper bound of the summed entry sizes (see entryBytes); least recently used entries go first. */
  maxBytes?: number;
  now?: Clock;
}

export function createMemoryCacheStore(options: MemoryCacheStoreOptions = {}): CacheStore {
  const now = options.now ?? systemClock;
  const lru = new LRUCache<string, CacheEntry>({
    maxSize: options.maxBytes ?? DEFAULT_MEMORY_CACHE_BYTES,
    sizeCalculation: (entry, key) => entryBytes(key, entry),
    // TTL is measured on the injected clock; ttlResolution 0 stops lru-cache from memoising "now".
    perf: { now },
    ttlResolution: 0,
  });

  return {
    async get(key) {
      const entry = lru.get(key);
      if (entry === undefined) return undefined;
      if (entry.staleUntil <= now()) {
        lru.delete(key);
        return undefined;
      }
      return entry;
    },
    async set(key, entry) {
      const ttl = entry.staleUntil - now();
      if (ttl <= 0) {
        lru.delete(key);
        return;
      }
      // Cached values are shared by every later reader in this process; freezing turns an accidental
      // mutation by one request into a loud TypeError instead of silently wrong numbers for the next.
      const stored: CacheEntry = { ...entry, value: await deepFreeze(entry.value), bytes: entryBytes(key, entry) };
      lru.set(key, Object.freeze(stored), { ttl: Math.max(1, entry.staleUntil - now()) });
    },
    async delete(key) {
      lru.delete(key);
    },
    health() {
      return { status: 'ok' };
    },
  };
}
