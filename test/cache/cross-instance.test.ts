import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCachedFetch, type CachedFetch } from '../../src/cache/cached-fetch.ts';
import { layeredCacheStore } from '../../src/cache/layered-cache-store.ts';
import { createMemoryCacheStore } from '../../src/cache/memory-cache-store.ts';
import { createRedisCacheStore } from '../../src/cache/redis-cache-store.ts';
import { closeRedis } from '../../src/cache/redis-connection.ts';
import { createRedisSingleFlight } from '../../src/cache/redis-single-flight.ts';
import { chainSingleFlight, createLocalSingleFlight, type SingleFlight } from '../../src/cache/single-flight.ts';
import type { CachePolicy } from '../../src/cache/ttl-policy.ts';
import { AppError } from '../../src/errors/app-error.ts';
import { connectTestRedis, deferred, deleteByPrefix, TEST_REDIS_URL, uniquePrefix } from './redis-helpers.ts';

const policy: CachePolicy = { freshMs: 60_000, revalidateMs: 60_000, staleIfErrorMs: 600_000 };

/** One app instance: its own connection, in-process layer and single-flights; only Redis is shared. */
async function createInstance(prefix: string): Promise<{ redis: Redis; cachedFetch: CachedFetch; nextWait: () => Promise<void> }> {
  const redis = await connectTestRedis();
  const memory = createMemoryCacheStore();
  const store = layeredCacheStore(memory, createRedisCacheStore({ redis, prefix: `${prefix}cache:`, fallback: memory }));
  const redisFlight = createRedisSingleFlight({ redis, prefix: `${prefix}lock:` });
  // The Redis single-flight peeks only while it waits on another holder's lock: that peek is the event
  // "this instance is waiting", which the tests await instead of sleeping.
  const waiters: (() => void)[] = [];
  const observed: SingleFlight = {
    run: (key, work, peek) =>
      redisFlight.run(key, work, peek && (() => {
        for (const wake of waiters.splice(0)) wake();
        return peek();
      })),
  };
  const singleFlight = chainSingleFlight(createLocalSingleFlight(), observed);
  const nextWait = () => new Promise<void>((resolve) => waiters.push(resolve));
  return { redis, cachedFetch: createCachedFetch({ store, singleFlight }), nextWait };
}

describe.skipIf(TEST_REDIS_URL === undefined)('cross-instance single-flight (real Redis)', () => {
  let a: Awaited<ReturnType<typeof createInstance>>;
  let b: Awaited<ReturnType<typeof createInstance>>;
  let admin: Redis;
  const prefix = uniquePrefix();
  beforeAll(async () => {
    [a, b, admin] = await Promise.all([createInstance(prefix), createInstance(prefix), connectTestRedis()]);
  });
  afterAll(async () => {
    await deleteByPrefix(admin, prefix);
    await Promise.all([closeRedis(a.redis), closeRedis(b.redis), closeRedis(admin)]);
  });

  it('makes one upstream call for concurrent misses on two instances', async () => {
    const gate = deferred<{ n: number }>();
    const started = deferred();
    let loads = 0;
    const load = () => {
      loads += 1;
      started.resolve();
      return gate.promise;
    };
    const options = { key: 'shared-miss', source: 'analytics:1', policy, load };
    const waiting = Promise.race([a.nextWait(), b.nextWait()]);
    const calls = [...Array.from({ length: 5 }, () => a.cachedFetch(options)), ...Array.from({ length: 5 }, () => b.cachedFetch(options))];
    await started.promise;
    await waiting; // the instance that lost the lock race is polling for the winner's result
    gate.resolve({ n: 42 });
    const results = await Promise.all(calls);
    expect(loads).toBe(1);
    expect(results.map((r) => r.value)).toEqual(Array(10).fill({ n: 42 }));
  });

  it('lets a waiting instance load itself when the lock holder fails, without caching the failure', async () => {
    const failA = deferred<never>();
    const startedA = deferred();
    let loadsB = 0;
    const key = 'holder-fails';
    const fromA = a.cachedFetch({
      key,
      source: 'analytics:1',
      policy,
      load: () => {
        startedA.resolve();
        return failA.promise;
      },
    });
    await startedA.promise;
    const bWaits = b.nextWait();
    const fromB = b.cachedFetch({ key, source: 'analytics:1', policy, load: async () => `b${++loadsB}` });
    await bWaits;
    failA.reject(new AppError('upstream_error', 'analytics answered 503'));

    await expect(fromA).rejects.toMatchObject({ code: 'upstream_error' });
    expect(await fromB).toMatchObject({ value: 'b1', cache: 'miss' });
    expect(loadsB).toBe(1);
  });

  it('releases a lock only with its own token', async () => {
    const lockPrefix = `${prefix}owner:`;
    const flightA = createRedisSingleFlight({ redis: a.redis, prefix: lockPrefix, lockTtlMs: 100 });
    const flightB = createRedisSingleFlight({ redis: b.redis, prefix: lockPrefix, lockTtlMs: 5_000 });
    const gateA = deferred<string>();
    const gateB = deferred<string>();
    const startedA = deferred();
    const startedB = deferred();
    const runA = flightA.run('k', () => {
      startedA.resolve();
      return gateA.promise;
    });
    await startedA.promise;
    // A's lock expires while A still works; B takes over the key.
    const runB = flightB.run('k', () => {
      startedB.resolve();
      return gateB.promise;
    });
    await startedB.promise;
    gateA.resolve('a');
    expect(await runA).toBe('a');
    expect(await admin.exists(`${lockPrefix}k`)).toBe(1);
    gateB.resolve('b');
    expect(await runB).toBe('b');
    expect(await admin.exists(`${lockPrefix}k`)).toBe(0);
  });

  it('takes what a peek finds while another instance holds the lock, without loading', async () => {
    const lockPrefix = `${prefix}peek:`;
    await admin.set(`${lockPrefix}k`, 'someone-else', 'PX', 60_000);
    const flight = createRedisSingleFlight({ redis: a.redis, prefix: lockPrefix, initialPollMs: 1 });
    let loads = 0;
    expect(await flight.run('k', async () => `loaded${++loads}`, async () => 'found')).toBe('found');
    expect(loads).toBe(0);
  });

  it('stops waiting at the wait timeout, loads itself and says so', async () => {
    const lockPrefix = `${prefix}timeout:`;
    await admin.set(`${lockPrefix}k`, 'someone-stuck', 'PX', 60_000);
    const logger = { warn: vi.fn() };
    const flight = createRedisSingleFlight({ redis: a.redis, prefix: lockPrefix, waitTimeoutMs: 0, logger: logger as never });
    expect(await flight.run('k', async () => 'mine')).toBe('mine');
    expect(logger.warn).toHaveBeenCalledWith({ key: 'k' }, 'single-flight wait timed out; loading without the lock');
    expect(await admin.get(`${lockPrefix}k`)).toBe('someone-stuck'); // another's lock is left alone
  });
});
