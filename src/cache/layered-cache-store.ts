// Two-level cache: the in-process store answers first, the shared (Redis) store fills it on a local miss.
import type { CacheStore, StoreHealth } from './cache-store.ts';

export function layeredCacheStore(local: CacheStore, shared: CacheStore): CacheStore {
  return {
    async get(key) {
      const near = await local.get(key);
      if (near !== undefined) return near;
      const far = await shared.get(key);
      if (far !== undefined) await local.set(key, far);
      return far;
    },
    async set(key, entry) {
      await Promise.all([local.set(key, entry), shared.set(key, entry)]);
    },
    async delete(key) {
      await Promise.all([local.delete(key), shared.delete(key)]);
    },
    health(): StoreHealth {
      const far = shared.health();
      return far.status === 'ok' ? local.health() : far;
    },
  };
}
