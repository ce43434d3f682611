// The shared ioredis connection: the backoff, the one warning per outage and one notice per recovery, health,
// waiting for readiness and closing whatever state the connection is in. A TCP proxy in front of the real Redis
// stands in for Redis going away and coming back.
import type { Redis } from 'ioredis';
import { describe, expect, it, vi } from 'vitest';
import { closeRedis, createRedis, REDIS_OPTIONS, redisHealth, waitForRedis } from '../../src/cache/redis-connection.ts';
import { proxyFor } from '../helpers/tcp-proxy.ts';
import { DEAD_REDIS_URL, TEST_REDIS_URL } from './redis-helpers.ts';

const nextEvent = (redis: Redis, event: 'error' | 'ready' | 'end') => new Promise<void>((resolve) => redis.once(event, () => resolve()));

describe('redis connection without a server', () => {
  it('reconnects after 50, 100, 200, 400 ms and then every 500 ms', () => {
    const retry = REDIS_OPTIONS.retryStrategy!;
    expect([1, 2, 3, 4, 5, 6, 20].map((attempt) => retry(attempt))).toEqual([50, 100, 200, 400, 500, 500, 500]);
  });

  it('gives up waiting after the timeout, reports degraded with its state, and closes', async () => {
    const redis = await createRedis(DEAD_REDIS_URL, { overrides: { connectTimeout: 200 } });
    expect(await waitForRedis(redis, 50)).toBe(false);
    expect(redis.status).not.toBe('ready');
    expect(redisHealth(redis)).toEqual({ status: 'degraded', detail: `redis ${redis.status}` });
    // Resolves at once: nothing waits for a server that is not there.
    await closeRedis(redis);
    await closeRedis(redis);
  });
});

describe.skipIf(TEST_REDIS_URL === undefined)('redis connection (real Redis)', () => {
  it('names itself to the server, is ok once ready, and quits cleanly', async () => {
    const redis = await createRedis(TEST_REDIS_URL!, { name: 'siteline-conn-test' });
    expect(await waitForRedis(redis, 5_000)).toBe(true);
    expect(await waitForRedis(redis, 5_000)).toBe(true); // already ready: at once
    expect(await redis.client('GETNAME')).toBe('siteline-conn-test');
    expect(redisHealth(redis)).toEqual({ status: 'ok' });
    const ended = nextEvent(redis, 'end');
    await closeRedis(redis);
    await ended;
    expect(redis.status).toBe('end');
  });

  it('warns once per outage however often reconnecting fails, and says once when Redis is back', async () => {
    const { proxy, url } = await proxyFor(TEST_REDIS_URL!, 6379);
    const logger = { warn: vi.fn(), info: vi.fn() };
    const redis = await createRedis(url.href, { name: 'siteline-outage-test', logger });
    try {
      expect(await waitForRedis(redis, 5_000)).toBe(true);
      expect(logger.info).not.toHaveBeenCalled(); // the first connection is no recovery

      const firstError = nextEvent(redis, 'error');
      await proxy.cut();
      await firstError;
      await nextEvent(redis, 'error'); // a failed reconnect attempt
      expect(logger.warn).toHaveBeenCalledTimes(1);
      expect(logger.warn).toHaveBeenCalledWith(
        { err: { message: expect.any(String) }, redis: 'siteline-outage-test' },
        'redis unavailable; using in-process state',
      );

      const ready = nextEvent(redis, 'ready');
      await proxy.restore();
      await ready;
      expect(logger.info).toHaveBeenCalledTimes(1);
      expect(logger.info).toHaveBeenCalledWith({ redis: 'siteline-outage-test' }, 'redis reachable again');

      const again = nextEvent(redis, 'error');
      await proxy.cut();
      await again;
      expect(logger.warn).toHaveBeenCalledTimes(2); // a new outage is reported again
    } finally {
      await closeRedis(redis);
      await proxy.close();
    }
  });
});
