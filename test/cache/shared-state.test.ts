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
});

describe.skipIf(TEST_REDIS_URL === undefined)('createSharedState with Redis (real Redis)', () => {
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
