import { describe, expect, it, vi } from 'vitest';
import { BUS_CHANNELS } from '../../src/bus/channels.ts';
import { createSharedState } from '../../src/cache/shared-state.ts';
import { freshnessFor } from '../../src/cache/ttl-policy.ts';
import { DEAD_REDIS_URL, TEST_REDIS_URL, uniquePrefix } from './redis-helpers.ts';
import { connectTestRedis, deleteByPrefix } from './redis-helpers.ts';
import { closeRedis } from '../../src/cache/redis-connection.ts';

const fetchOptions = (load: () => Promise<unknown>) => ({
  key: 'summary',
  source: 'analytics:1',
  policy: freshnessFor({ kind: 'metadata' }),
  load,
});

describe('createSharedState', () => {
  it('works entirely in-process without Redis', async () => {
    const state = await createSharedState();
    expect(state.health()).toEqual({ status: 'ok', redis: 'disabled' });
    expect((await state.cachedFetch(fetchOptions(async () => 1))).cache).toBe('miss');
    expect((await state.cachedFetch(fetchOptions(async () => 2))).cache).toBe('hit');
    await state.limits.consumeRequest('key-1');
    await state.close();
  });

  it('starts and keeps serving, degraded, when Redis is unreachable', async () => {
    const logger = { warn: vi.fn(), info: vi.fn(), error: vi.fn() } as never;
    const state = await createSharedState({ redisUrl: DEAD_REDIS_URL, redisConnectTimeoutMs: 100, logger, keyPrefix: uniquePrefix() });
    try {
      expect(state.health()).toMatchObject({ status: 'degraded', redis: 'degraded' });
      let loads = 0;
      const load = async () => ++loads;
      expect(await state.cachedFetch(fetchOptions(load))).toMatchObject({ value: 1, cache: 'miss' });
      expect(await state.cachedFetch(fetchOptions(load))).toMatchObject({ value: 1, cache: 'hit' });
      expect((await state.limits.consumeRequest('key-1')).state.remaining).toBe(599);
    } finally {
      await state.close();
    }
  });

  it('drops only the string keys an invalidation message lists, and ignores messages without a list', async () => {
    const state = await createSharedState();
    try {
      for (const key of ['a', 'b', 'c']) await state.cachedFetch({ ...fetchOptions(async () => key), key });
      // The state's own handler subscribed first: once this one hears a message, the state has handled it.
      const heard: unknown[] = [];
      let next = Promise.withResolvers<void>();
      await state.bus.subscribe(BUS_CHANNELS.cacheInvalidate, (message) => {
        heard.push(message);
        next.resolve();
      });
      const send = async (message: unknown) => {
        next = Promise.withResolvers<void>();
        await state.bus.publish(BUS_CHANNELS.cacheInvalidate, message);
        await next.promise;
      };
      await send({ keys: 'a' });
      await send({ keys: { 0: 'a' } });
      await send({});
      expect(await state.cache.get('a')).toBeDefined();
      await send({ keys: [42, null, 'b', ['c']] });
      expect(heard).toHaveLength(4);
      expect(await state.cache.get('a')).toBeDefined();
      expect(await state.cache.get('b')).toBeUndefined();
      expect(await state.cache.get('c')).toBeDefined();
    } finally {
      await state.close();
    }
  });
});

describe.skipIf(TEST_REDIS_URL === undefined)('createSharedState with Redis (real Redis)', () => {
  it('is degraded, with the reason, while the connection is up but the shared cache fails, and ok again once it works', async () => {
    const keyPrefix = uniquePrefix();
    const logger = { warn: vi.fn(), info: vi.fn(), error: vi.fn(), debug: vi.fn() } as never;
    const state = await createSharedState({ redisUrl: TEST_REDIS_URL, keyPrefix, logger });
    const admin = await connectTestRedis();
    try {
      expect(state.health()).toEqual({ status: 'ok', redis: 'ok' });
      await admin.lpush(`${keyPrefix}cache:summary`, 'not a cache entry'); // GET on a list: WRONGTYPE
      expect(await state.cache.get('summary')).toBeUndefined(); // served from the in-process layer
      const health = state.health();
      expect(health).toMatchObject({ status: 'degraded', redis: 'degraded' });
      expect(health.detail).toMatch(/WRONGTYPE/);
      await admin.del(`${keyPrefix}cache:summary`);
      expect(await state.cache.get('summary')).toBeUndefined();
      expect(state.health()).toEqual({ status: 'ok', redis: 'ok' });
    } finally {
      await deleteByPrefix(admin, keyPrefix);
      await Promise.all([state.close(), closeRedis(admin)]);
    }
  });


  it('reports ok and lets an instance drop entries from the other instances’ in-process layer', async () => {
    const keyPrefix = uniquePrefix();
    const [a, b] = await Promise.all([
      createSharedState({ redisUrl: TEST_REDIS_URL, keyPrefix }),
      createSharedState({ redisUrl: TEST_REDIS_URL, keyPrefix }),
    ]);
    const admin = await connectTestRedis();
    try {
      expect(a.health()).toEqual({ status: 'ok', redis: 'ok' });
      expect((await a.cachedFetch(fetchOptions(async () => 'v1'))).cache).toBe('miss');
      expect(await b.cachedFetch(fetchOptions(async () => 'not loaded'))).toMatchObject({ value: 'v1', cache: 'hit' });

      // b's own invalidation handler subscribed first: once this one hears the message, b has dropped the entry.
      const bHeard = Promise.withResolvers<unknown>();
      await b.bus.subscribe(BUS_CHANNELS.cacheInvalidate, bHeard.resolve);
      await admin.del(`${keyPrefix}cache:summary`);
      await a.bus.publish(BUS_CHANNELS.cacheInvalidate, { keys: ['summary'] });
      expect(await bHeard.promise).toEqual({ keys: ['summary'] });
      expect(await b.cache.get('summary')).toBeUndefined();
    } finally {
      await deleteByPrefix(admin, keyPrefix);
      await Promise.all([a.close(), b.close(), closeRedis(admin)]);
    }
  });
});
