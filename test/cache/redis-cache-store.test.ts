import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CacheEntry } from '../../src/cache/cache-store.ts';
import { layeredCacheStore } from '../../src/cache/layered-cache-store.ts';
import { createMemoryCacheStore } from '../../src/cache/memory-cache-store.ts';
import { createRedisCacheStore } from '../../src/cache/redis-cache-store.ts';
import { closeRedis, createRedis } from '../../src/cache/redis-connection.ts';
import { connectTestRedis, DEAD_REDIS_URL, deleteByPrefix, manualClock, TEST_REDIS_URL, uniquePrefix } from './redis-helpers.ts';

const entryAt = (now: number, value: unknown): CacheEntry => ({
  value,
  source: 'engine1:sc-domain:example.com',
  storedAt: now,
  freshUntil: now + 1_000,
  revalidateUntil: now + 2_000,
  staleUntil: now + 60_000,
});

describe.skipIf(TEST_REDIS_URL === undefined)('redis cache store (real Redis)', () => {
  let redis: Redis;
  const prefix = uniquePrefix();
  beforeAll(async () => {
    redis = await connectTestRedis();
  });
  afterAll(async () => {
    await deleteByPrefix(redis, prefix);
    await closeRedis(redis);
  });

  it('round-trips an entry as JSON with a PX TTL of staleUntil - now', async () => {
    const store = createRedisCacheStore({ redis, prefix, now: Date.now });
    const entry = entryAt(Date.now(), { rows: [{ query: 'ä b', clicks: 3 }] });
    await store.set('k1', entry);
    expect(await store.get('k1')).toMatchObject({ ...entry, bytes: expect.any(Number) });
    const ttl = await redis.pttl(`${prefix}k1`);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    await store.delete('k1');
    expect(await store.get('k1')).toBeUndefined();
    expect(store.health()).toEqual({ status: 'ok' });
  });

  it('treats foreign or corrupt values under its key as a miss', async () => {
    const store = createRedisCacheStore({ redis, prefix });
    await redis.set(`${prefix}junk`, '{"not":"an entry"}', 'PX', 10_000);
    await redis.set(`${prefix}broken`, '{', 'PX', 10_000);
    expect(await store.get('junk')).toBeUndefined();
    expect(await store.get('broken')).toBeUndefined();
  });

  it('treats every value that is not a whole entry as a miss', async () => {
    const store = createRedisCacheStore({ redis, prefix });
    const whole = entryAt(Date.now(), 'v');
    const { source: _s, ...noSource } = whole;
    const { value: _v, ...noValue } = whole;
    const { staleUntil: _t, ...noStaleUntil } = whole;
    const values: Record<string, unknown> = { number: 42, null: null, string: 'entry', noSource, noValue, noStaleUntil, textTime: { ...whole, storedAt: 'now' } };
    for (const [name, value] of Object.entries(values)) await redis.set(`${prefix}bad-${name}`, JSON.stringify(value), 'PX', 10_000);
    for (const name of Object.keys(values)) expect(await store.get(`bad-${name}`), name).toBeUndefined();
    await redis.set(`${prefix}good`, JSON.stringify(whole), 'PX', 10_000);
    expect((await store.get('good'))?.value).toBe('v');
  });

  it('does not serve an entry past its stale window, even while Redis still holds it', async () => {
    const clock = manualClock(Date.now());
    const store = createRedisCacheStore({ redis, prefix, now: clock.now });
    await store.set('ageing', entryAt(clock.now(), 'old'));
    clock.advance(59_999);
    expect((await store.get('ageing'))?.value).toBe('old');
    clock.advance(1); // exactly staleUntil
    expect(await redis.exists(`${prefix}ageing`)).toBe(1);
    expect(await store.get('ageing')).toBeUndefined();
  });

  it('an already expired write removes the key instead of storing it', async () => {
    const clock = manualClock(Date.now());
    const store = createRedisCacheStore({ redis, prefix, now: clock.now });
    await store.set('replaced', entryAt(clock.now(), 'live'));
    await store.set('replaced', entryAt(clock.now() - 60_000, 'expired'));
    expect(await redis.exists(`${prefix}replaced`)).toBe(0);
  });

  it('layered: a local miss is filled from Redis, and writes reach both layers', async () => {
    const clock = manualClock(Date.now());
    const shared = createRedisCacheStore({ redis, prefix, now: clock.now });
    const local = createMemoryCacheStore({ now: clock.now });
    const layered = layeredCacheStore(local, shared);

    await shared.set('only-in-redis', entryAt(clock.now(), 'from redis'));
    expect(await local.get('only-in-redis')).toBeUndefined();
    expect((await layered.get('only-in-redis'))?.value).toBe('from redis');
    expect((await local.get('only-in-redis'))?.value).toBe('from redis');

    await layered.set('both', entryAt(clock.now(), 'written'));
    expect((await local.get('both'))?.value).toBe('written');
    expect((await shared.get('both'))?.value).toBe('written');
  });

  it('degrades to the fallback while disconnected and recovers after reconnecting', async () => {
    const own = await connectTestRedis();
    const logger = { warn: vi.fn(), info: vi.fn() };
    const fallback = createMemoryCacheStore();
    const store = createRedisCacheStore({ redis: own, prefix, fallback, logger });
    try {
      const ended = new Promise((resolve) => own.once('end', resolve));
      own.disconnect();
      await ended;
      await store.set('during-outage', entryAt(Date.now(), 'kept locally'));
      expect((await store.get('during-outage'))?.value).toBe('kept locally');
      expect(await fallback.get('during-outage')).toBeDefined();
      expect(store.health().status).toBe('degraded');
      expect(logger.warn).toHaveBeenCalledTimes(1); // once per outage, not per request

      await own.connect();
      await store.set('after-outage', entryAt(Date.now(), 'in redis'));
      expect(await redis.exists(`${prefix}after-outage`)).toBe(1);
      expect(store.health()).toEqual({ status: 'ok' });
      expect(logger.info).toHaveBeenCalledWith('redis cache recovered');
    } finally {
      await closeRedis(own);
    }
  });
});

describe('redis cache store with Redis unreachable', () => {
  it('keeps serving through the in-process fallback and reports degraded', async () => {
    const redis = await createRedis(DEAD_REDIS_URL, { overrides: { connectTimeout: 200 } });
    try {
      const store = createRedisCacheStore({ redis, prefix: uniquePrefix() });
      // Degraded from the start, before any call has failed.
      expect(store.health()).toEqual({ status: 'degraded', detail: `redis ${redis.status}` });
      const layered = layeredCacheStore(createMemoryCacheStore(), store);
      await layered.set('k', entryAt(Date.now(), 'still works'));
      expect((await layered.get('k'))?.value).toBe('still works');
      expect((await store.get('k'))?.value).toBe('still works');
      expect(store.health().status).toBe('degraded');
      expect(layered.health().status).toBe('degraded');
    } finally {
      await closeRedis(redis);
    }
  });
});
