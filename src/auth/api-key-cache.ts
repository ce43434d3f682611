// The in-process cache of verified API keys: digest → record, LRU-bounded, trusted for a short TTL, and
// invalidated by key id. A generation counter stops a lookup that raced an invalidation from re-caching.
// Past its TTL an entry is kept for a grace period, used only while the database cannot be asked (an outage).
// An entry cached from a presented key is also found by that exact key string, so a known key is recognised
// without its checksum and SHA-256 on every request; it leaves with its entry (TTL, eviction, invalidation).
import type { ApiKeyRecord } from '../store/api-keys-repository.ts';

export interface VerifiedKeyCache {
  get(digest: string, now: number): ApiKeyRecord | undefined;
  /** The record of the key presented as exactly `key` and cached within the TTL; nothing is hashed. */
  getByKey(key: string, now: number): ApiKeyRecord | undefined;
  /** An entry past its TTL but within the outage grace (for when the database is unavailable). */
  stale(digest: string, now: number): ApiKeyRecord | undefined;
  /** Caches `record` (found by `key` too when given) unless an invalidation happened since `generation` was read. */
  set(record: ApiKeyRecord, now: number, generation: number, key?: string): void;
  generation(): number;
  invalidate(keyId: string): void;
  size(): number;
}

interface Entry {
  record: ApiKeyRecord;
  cachedAt: number;
  key: string | undefined;
}

export function createVerifiedKeyCache(options: { ttlMs: number; maxEntries: number; outageGraceMs?: number }): VerifiedKeyCache {
  const keepMs = options.ttlMs + (options.outageGraceMs ?? 0);
  // Map iteration order is recency: re-inserted on every hit, oldest evicted first.
  const byDigest = new Map<string, Entry>();
  const digestById = new Map<string, string>();
  const byKey = new Map<string, Entry>();
  let generation = 0;
  /** The entry last moved to the recent end: a key used again and again is not moved each time. */
  let newest: Entry | undefined;

  function drop(entry: Entry): void {
    if (entry === newest) newest = undefined;
    byDigest.delete(entry.record.digest);
    digestById.delete(entry.record.id);
    if (entry.key !== undefined) byKey.delete(entry.key);
  }

  /** Moves a live entry to the recent end; drops one past the grace; the record only within the TTL. */
  function use(entry: Entry, now: number): ApiKeyRecord | undefined {
    const age = now - entry.cachedAt;
    if (age >= keepMs) {
      drop(entry);
      return undefined;
    }
    if (entry !== newest) {
      byDigest.delete(entry.record.digest);
      byDigest.set(entry.record.digest, entry);
      newest = entry;
    }
    return age < options.ttlMs ? entry.record : undefined;
  }

  return {
    get(digest, now) {
      const entry = byDigest.get(digest);
      return entry === undefined ? undefined : use(entry, now);
    },
    getByKey(key, now) {
      const entry = byKey.get(key);
      return entry === undefined ? undefined : use(entry, now);
    },
    stale(digest, now) {
      const entry = byDigest.get(digest);
      return entry !== undefined && now - entry.cachedAt < keepMs ? entry.record : undefined;
    },
    set(record, now, startedAt, key) {
      if (startedAt !== generation || options.maxEntries <= 0) return;
      const previous = byDigest.get(record.digest);
      if (previous) drop(previous);
      const entry: Entry = { record, cachedAt: now, key };
      byDigest.set(record.digest, entry);
      newest = entry;
      digestById.set(record.id, record.digest);
      if (key !== undefined) byKey.set(key, entry);
      while (byDigest.size > options.maxEntries) {
        const oldest = byDigest.values().next().value;
        if (!oldest) break;
        drop(oldest);
      }
    },
    generation: () => generation,
    invalidate(keyId) {
      generation += 1;
      const digest = digestById.get(keyId);
      const entry = digest === undefined ? undefined : byDigest.get(digest);
      if (entry) drop(entry);
      digestById.delete(keyId);
    },
    size: () => byDigest.size,
  };
}
