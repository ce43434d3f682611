import { describe, expect, it } from 'vitest';
import { closeRedis, createRedis } from '../../src/cache/redis-connection.ts';
import { createLimits } from '../../src/limits/create-limits.ts';
import { DEAD_REDIS_URL, TEST_REDIS_URL, uniquePrefix, useTwoInstancesRedis } from '../cache/redis-helpers.ts';

// Long windows so that no window can end while a test runs: the assertions are about counts, not time.
const config = {
  request: { name: 'default', points: 5, windowSec: 600 },
  burst: { name: 'burst', points: 100, windowSec: 600 },
};

describe.skipIf(TEST_REDIS_URL === undefined)('limits shared through Redis', () => {
  const redis = useTwoInstancesRedis();
  const { prefix } = redis;

  it('counts one API key across two instances', async () => {
    const a = createLimits({ redis: redis.one, prefix, config });
    const b = createLimits({ redis: redis.two, prefix, config });
    await a.consumeRequest('key-1');
    await b.consumeRequest('key-1');
    await a.consumeRequest('key-1');
    expect((await b.consumeRequest('key-1')).state.remaining).toBe(1);
    await a.consumeRequest('key-1');
    await expect(b.consumeRequest('key-1')).rejects.toMatchObject({ code: 'rate_limited' });
    await expect(a.consumeRequest('key-1')).rejects.toMatchObject({ headers: { ratelimit: expect.stringMatching(/^"default";r=0;t=(599|600), "burst";r=\d+;t=\d+$/) } });
  });

  it('counts the burst window across instances and refunds refused requests to the quota', async () => {
    const burstConfig = { request: { name: 'default', points: 50, windowSec: 600 }, burst: { name: 'burst', points: 2, windowSec: 600 } };
    const a = createLimits({ redis: redis.one, prefix: `${prefix}burst:`, config: burstConfig });
    const b = createLimits({ redis: redis.two, prefix: `${prefix}burst:`, config: burstConfig });
    await a.consumeRequest('key-2');
    await b.consumeRequest('key-2');
    await expect(a.consumeRequest('key-2')).rejects.toMatchObject({ code: 'rate_limited' });
    const quota = await a.consumeRequest('key-2', { burst: 10 });
    expect(quota.state.remaining).toBe(50 - 3);
  });

  it('counts force refreshes and failed authentications across instances', async () => {
    const forceConfig = { force: { name: 'force', points: 2, windowSec: 3600 }, failedAuth: { name: 'auth', points: 2, windowSec: 600 } };
    const a = createLimits({ redis: redis.one, prefix, config: forceConfig });
    const b = createLimits({ redis: redis.two, prefix, config: forceConfig });
    await a.consumeForce('demo');
    await b.consumeForce('demo');
    await expect(a.consumeForce('demo')).rejects.toMatchObject({ code: 'rate_limited' });

    await a.recordAuthFailure('203.0.113.9');
    await b.recordAuthFailure('203.0.113.9');
    await expect(a.assertAuthAllowed('203.0.113.9')).rejects.toMatchObject({ code: 'rate_limited' });
  });
});

describe('limits with Redis unreachable', () => {
  it('fall back to per-instance counting instead of failing requests', async () => {
    const redis = await createRedis(DEAD_REDIS_URL, { overrides: { connectTimeout: 200 } });
    try {
      const limits = createLimits({ redis, prefix: uniquePrefix(), config });
      for (let i = 0; i < 5; i += 1) await limits.consumeRequest('key-1');
      await expect(limits.consumeRequest('key-1')).rejects.toMatchObject({ code: 'rate_limited' });
    } finally {
      await closeRedis(redis);
    }
  });
});
