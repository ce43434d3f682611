// The verified-key cache on its own: TTL edge, LRU eviction by recency, invalidation by key id, and the
// generation guard that keeps a lookup racing an invalidation from re-caching a revoked key.
import { describe, expect, it } from 'vitest';
import { createVerifiedKeyCache } from '../../src/auth/api-key-cache.ts';
import type { ApiKeyRecord } from '../../src/store/api-keys-repository.ts';

const record = (id: string): ApiKeyRecord => ({ id, digest: `digest-${id}` }) as ApiKeyRecord;

describe('verified key cache', () => {
  it('trusts an entry for less than ttlMs after it was cached', () => {
    const cache = createVerifiedKeyCache({ ttlMs: 1_000, maxEntries: 10 });
    cache.set(record('a'), 5_000, cache.generation());
    expect(cache.get('digest-a', 5_999)?.id).toBe('a');
    expect(cache.get('digest-a', 6_000)).toBeUndefined();
    expect(cache.size()).toBe(0);
  });

  it('evicts the least recently used entry beyond maxEntries', () => {
    const cache = createVerifiedKeyCache({ ttlMs: 60_000, maxEntries: 2 });
    cache.set(record('a'), 0, cache.generation());
    cache.set(record('b'), 0, cache.generation());
    expect(cache.get('digest-a', 1)?.id).toBe('a'); // a is now the most recent
    cache.set(record('c'), 2, cache.generation());
    expect(cache.size()).toBe(2);
    expect(cache.get('digest-b', 3)).toBeUndefined();
    expect(cache.get('digest-a', 3)?.id).toBe('a');
    expect(cache.get('digest-c', 3)?.id).toBe('c');
  });

  it('re-caching the same key keeps one entry', () => {
    const cache = createVerifiedKeyCache({ ttlMs: 60_000, maxEntries: 2 });
    cache.set(record('a'), 0, cache.generation());
    cache.set(record('a'), 1, cache.generation());
    cache.set(record('b'), 1, cache.generation());
    expect(cache.size()).toBe(2);
    expect(cache.get('digest-a', 2)?.id).toBe('a');
  });

  it('drops a key on invalidation, and refuses a set that started before it', () => {
    const cache = createVerifiedKeyCache({ ttlMs: 60_000, maxEntries: 10 });
    const before = cache.generation();
    cache.set(record('a'), 0, before);
    cache.invalidate('a');
    expect(cache.get('digest-a', 1)).toBeUndefined();
    expect(cache.generation()).toBe(before + 1);
    cache.set(record('a'), 2, before); // a lookup that read the key before the revocation
    expect(cache.get('digest-a', 3)).toBeUndefined();
    cache.set(record('a'), 4, cache.generation());
    expect(cache.get('digest-a', 5)?.id).toBe('a');
  });

  it('caches nothing with maxEntries 0', () => {
    const cache = createVerifiedKeyCache({ ttlMs: 60_000, maxEntries: 0 });
    cache.set(record('a'), 0, cache.generation());
    expect(cache.size()).toBe(0);
    expect(cache.get('digest-a', 1)).toBeUndefined();
  });

  it('forgets an entry on invalidation and evicts the least recently used', () => {
    const cache = createVerifiedKeyCache({ ttlMs: 60_000, maxEntries: 2 });
    cache.set(record('a'), 0, cache.generation());
    cache.set(record('b'), 0, cache.generation());
    cache.invalidate('a');
    expect(cache.get('digest-a', 1)).toBeUndefined();
    expect(cache.get('digest-b', 1)?.id).toBe('b'); // b is now the most recent
    cache.set(record('c'), 2, cache.generation());
    cache.set(record('d'), 3, cache.generation());
    expect(cache.size()).toBe(2);
    expect(cache.get('digest-b', 4)).toBeUndefined();
    expect(cache.get('digest-c', 4)?.id).toBe('c');
    expect(cache.get('digest-d', 4)?.id).toBe('d');
  });

  it('a lookup keeps the entry recent, so a key in use is not the one evicted', () => {
    const cache = createVerifiedKeyCache({ ttlMs: 60_000, maxEntries: 2 });
    cache.set(record('a'), 0, cache.generation());
    cache.set(record('b'), 0, cache.generation());
    expect(cache.get('digest-a', 1)?.id).toBe('a');
    cache.set(record('c'), 2, cache.generation());
    expect(cache.get('digest-a', 3)?.id).toBe('a');
    expect(cache.get('digest-b', 3)).toBeUndefined();
  });

  it('re-caching a digest replaces the entry', () => {
    const cache = createVerifiedKeyCache({ ttlMs: 60_000, maxEntries: 10 });
    cache.set(record('a'), 0, cache.generation());
    cache.set(record('a'), 1, cache.generation());
    expect(cache.size()).toBe(1);
    expect(cache.get('digest-a', 2)?.id).toBe('a');
  });

  it('keeps an expired entry for the outage grace only, for use while the database is away', () => {
    const cache = createVerifiedKeyCache({ ttlMs: 1_000, maxEntries: 10, outageGraceMs: 5_000 });
    cache.set(record('a'), 0, cache.generation());
    expect(cache.stale('digest-a', 500)?.id).toBe('a');
    expect(cache.get('digest-a', 1_000)).toBeUndefined(); // past the TTL: not trusted without asking the database
    expect(cache.stale('digest-a', 5_999)?.id).toBe('a');
    expect(cache.stale('digest-a', 6_000)).toBeUndefined();
    expect(cache.stale('digest-b', 1)).toBeUndefined();
  });
});
