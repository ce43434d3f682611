// The in-process cache of verified API keys: digest → record, LRU-bounded, trusted for a short TTL, and
// invalidated by key id. A generation counter stops a lookup that raced an invalidation from re-caching.
// Past its TTL an entry is kept for a grace period, used only while the database cannot be asked (an outage).
// Entries are found by the key's SHA-256 digest only, never by the key itself: no secret lives on as a map key.
// (A second map by the plaintext key saved the one-shot digest, about 0.3 µs of a warm request's hundreds.)
import type { ApiKeyRecord } from '../store/api-keys-repository.ts';

export interface VerifiedKeyCache {
  get(digest: string, now: number): ApiKeyRecord | undefined;
  /** An entry past its TTL but within the outage grace (for when the database is unavailable). */
  stale(digest: string, now: number): ApiKeyRecord | undefined;
  /** Caches `record` unless an invalidation happened since `generation` was read. */
  set(record: ApiKeyRecord, now: number, generation: number): void;
  generation(): number;
  invalidate(keyId: string): void;
  size(): number;
}

interface Entry {
  record: ApiKeyRecord;
  cachedAt: number;
}

export function createVerifiedKeyCache(options: { ttlMs: number; maxEntries: number; outageGraceMs?: number }): VerifiedKeyCache {
  const keepMs = options.ttlMs + (options.outageGraceMs ?? 0);
  // Map iteration order is recency: re-inserted on every hit, oldest evicted first.
  const byDigest = new Map<string, Entry>();
  const digestById = new Map<string, string>();
  let generation = 0;
  /** The entry last moved to the recent end: a key used again and again is not moved each time. */
  let newest: Entry | undefined;

  function drop(entry: Entry): void {
    if (entry === newest) newest = undefined;
    byDigest.delete(entry.record.digest);
    digestById.delete(entry.record.id);
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
    stale(digest, now) {
      const entry = byDigest.get(digest);
      return entry !== undefined && now - entry.cachedAt < keepMs ? entry.record : undefined;
    },
    set(record, now, startedAt) {
      if (startedAt !== generation || options.maxEntries <= 0) return;
      const previous = byDigest.get(record.digest);
      if (previous) drop(previous);
      const entry: Entry = { record, cachedAt: now };
      byDigest.set(record.digest, entry);
      newest = entry;
      digestById.set(record.id, record.digest);
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
