import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createBus } from '../../src/bus/create-bus.ts';
import { closeRedis, createRedis } from '../../src/cache/redis-connection.ts';
import { connectTestRedis, DEAD_REDIS_URL, TEST_REDIS_URL, uniquePrefix } from '../cache/redis-helpers.ts';

describe('in-process bus', () => {
  it('delivers to every subscriber of the channel, and stops after unsubscribe', async () => {
    const bus = createBus();
    const first = vi.fn();
    const second = vi.fn();
    const other = vi.fn();
    const unsubscribe = await bus.subscribe('auth:api-key-revoked', first);
    await bus.subscribe('auth:api-key-revoked', second);
    await bus.subscribe('cache:invalidate', other);

    expect(await bus.publish('auth:api-key-revoked', { keyId: 'k1' })).toEqual({ remote: 'local' });
    expect(first).toHaveBeenCalledWith({ keyId: 'k1' });
    expect(second).toHaveBeenCalledWith({ keyId: 'k1' });
    expect(other).not.toHaveBeenCalled();

    await unsubscribe();
    await bus.publish('auth:api-key-revoked', { keyId: 'k2' });
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(2);
    await bus.close();
  });

  it('keeps delivering to the other handlers when one throws', async () => {
    const logger = { error: vi.fn(), warn: vi.fn() };
    const bus = createBus({ logger });
    const after = vi.fn();
    await bus.subscribe('c', () => {
      throw new Error('handler bug');
    });
    await bus.subscribe('c', after);
    await bus.publish('c', 1);
    expect(after).toHaveBeenCalledWith(1);
    expect(logger.error).toHaveBeenCalledTimes(1);
  });
});

describe.skipIf(TEST_REDIS_URL === undefined)('Redis bus (real Redis)', () => {
  let one: Redis;
  let two: Redis;
  beforeAll(async () => {
    [one, two] = await Promise.all([connectTestRedis(), connectTestRedis()]);
  });
  afterAll(async () => {
    await Promise.all([closeRedis(one), closeRedis(two)]);
  });

  it('delivers to the publishing instance once and to the other instance', async () => {
    const prefix = uniquePrefix();
    const a = createBus({ redis: one, prefix });
    const b = createBus({ redis: two, prefix });
    const onA = vi.fn();
    const onB = vi.fn();
    // Each handler call resolves the next awaited arrival, so the test waits for the message, not for a time.
    const bHeard = Promise.withResolvers<void>();
    const aHeardTwice = Promise.withResolvers<void>();
    await a.subscribe('auth:api-key-revoked', (message) => {
      onA(message);
      if (onA.mock.calls.length === 2) aHeardTwice.resolve();
    });
    await b.subscribe('auth:api-key-revoked', (message) => {
      onB(message);
      bHeard.resolve();
    });

    expect(await a.publish('auth:api-key-revoked', { keyId: 'k1' })).toEqual({ remote: 'sent' });
    expect(onA).toHaveBeenCalledWith({ keyId: 'k1' }); // synchronously, without a Redis round trip
    await bHeard.promise;
    expect(onB).toHaveBeenCalledWith({ keyId: 'k1' });

    await b.publish('auth:api-key-revoked', { keyId: 'k2' });
    await aHeardTwice.promise;
    // A's own message did not come back to it through Redis.
    expect(onA.mock.calls).toEqual([[{ keyId: 'k1' }], [{ keyId: 'k2' }]]);
    expect(onB.mock.calls).toEqual([[{ keyId: 'k1' }], [{ keyId: 'k2' }]]);
    await Promise.all([a.close(), b.close()]);
  });

  it('keeps deployments with different prefixes apart', async () => {
    const prefixB = uniquePrefix();
    const a = createBus({ redis: one, prefix: uniquePrefix() });
    const b = createBus({ redis: two, prefix: prefixB });
    const sameAsB = createBus({ redis: one, prefix: prefixB });
    const onB = vi.fn();
    const marker = Promise.withResolvers<unknown>();
    await b.subscribe('c', onB);
    await b.subscribe('marker', marker.resolve);
    await a.publish('c', 'hello');
    // Published after a's message on the same connection, so it arrives after anything a's message caused.
    await sameAsB.publish('marker', 'x');
    expect(await marker.promise).toBe('x');
    expect(onB).not.toHaveBeenCalled();
    await Promise.all([a.close(), b.close(), sameAsB.close()]);
  });
});

describe('Redis bus with Redis unreachable', () => {
  it('still delivers locally and says the other instances were not reached', async () => {
    const redis = await createRedis(DEAD_REDIS_URL, { overrides: { connectTimeout: 200 } });
    const bus = createBus({ redis, prefix: uniquePrefix(), logger: { warn: vi.fn(), error: vi.fn() } });
    try {
      const handler = vi.fn();
      await bus.subscribe('auth:api-key-revoked', handler);
      expect(await bus.publish('auth:api-key-revoked', { keyId: 'k1' })).toEqual({ remote: 'failed' });
      expect(handler).toHaveBeenCalledWith({ keyId: 'k1' });
    } finally {
      await bus.close();
      await closeRedis(redis);
    }
  });
});
