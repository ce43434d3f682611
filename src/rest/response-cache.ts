// The REST facade's micro-cache: a repeated GET by the same credential is answered with the body it got a moment
// ago, without running the operation again. Auth, scope and rate limits still run on every request. Entries live
// no longer than the data they were built from stays fresh, and at most MAX_TTL_MS, which also bounds how long a
// changed project grant can go unnoticed (the same bound as the API-key cache). Bodies carrying no `meta` (no
// provider data) are never cached.
import { LRUCache } from 'lru-cache';

export interface CachedResponse {
  text: string;
  contentType: string;
  /** meta.fetchedAt as epoch ms, for Age. */
  fetchedAt: number;
}

export interface ResponseCache {
  get(key: string): CachedResponse | undefined;
  /** Stores until `freshUntil` (capped); ignored when that is too close to be worth it. */
  set(key: string, response: CachedResponse, freshUntil: number): void;
  clear(): void;
}

export const MAX_TTL_MS = 30_000;
const MIN_TTL_MS = 1_000;

export function createResponseCache(options: { maxBytes?: number; now?: () => number } = {}): ResponseCache {
  const now = options.now ?? Date.now;
  const cache = new LRUCache<string, CachedResponse>({
    maxSize: options.maxBytes ?? 16 * 1024 * 1024,
    sizeCalculation: (entry, key) => entry.text.length * 2 + key.length * 2 + 64,
    ttlAutopurge: false,
    perf: { now },
  });
  return {
    get: (key) => cache.get(key),
    set(key, response, freshUntil) {
      const ttl = Math.min(MAX_TTL_MS, freshUntil - now());
      if (ttl >= MIN_TTL_MS) cache.set(key, response, { ttl });
    },
    clear: () => cache.clear(),
  };
}
