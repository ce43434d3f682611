// The in-process cache of verified API keys: digest → record, LRU-bounded, trusted for a short TTL, and
// invalidated by key id. A generation counter stops a lookup that raced an invalidation from re-caching.
// Past its TTL an entry is kept for a grace period, used only while the database cannot be asked (an outage).
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

export function createVerifiedKeyCache(options: { ttlMs: number; maxEntries: number; outageGraceMs?: number }): VerifiedKeyCache {
  const keepMs = options.ttlMs + (options.outageGraceMs ?? 0);
  // Map iteration order is recency: re-inserted on every hit, oldest evicted first.
  const byDigest = new Map<string, { record: ApiKeyRecord; cachedAt: number }>();
  const digestById = new Map<string, string>();
  let generation = 0;

  return {
    get(digest, now) {
      const entry = byDigest.get(digest);
      if (!entry) return undefined;
      byDigest.delete(digest);
      if (now - entry.cachedAt >= keepMs) {
        digestById.delete(entry.record.id);
        return undefined;
      }
      byDigest.set(digest, entry);
      return now - entry.cachedAt < options.ttlMs ? entry.record : undefined;
    },
    stale(digest, now) {
      const entry = byDigest.get(digest);
      return entry !== undefined && now - entry.cachedAt < keepMs ? entry.record : undefined;
    },
    set(record, now, startedAt) {
      if (startedAt !== generation || options.maxEntries <= 0) return;
      byDigest.delete(record.digest);
      byDigest.set(record.digest, { record, cachedAt: now });
      digestById.set(record.id, record.digest);
      while (byDigest.size > options.maxEntries) {
        const oldest = byDigest.entries().next().value;
        if (!oldest) break;
        byDigest.delete(oldest[0]);
        digestById.delete(oldest[1].record.id);
      }
    },
    generation: () => generation,
    invalidate(keyId) {
      generation += 1;
      const digest = digestById.get(keyId);
      if (digest !== undefined) byDigest.delete(digest);
      digestById.delete(keyId);
    },
    size: () => byDigest.size,
  };
}
