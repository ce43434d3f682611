// Creates the process-wide shared state in one call: cache, single-flight, rate limits and bus, Redis-backed when configured.
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Bus } from '../bus/bus.ts';
import { BUS_CHANNELS } from '../bus/channels.ts';
import { createBus } from '../bus/create-bus.ts';
import { createConcurrencyLimiter, type ConcurrencyLimiter } from '../limits/concurrency.ts';
import { createLimits, type Limits } from '../limits/create-limits.ts';
import type { LimitsConfig } from '../limits/limit-policy.ts';
import { createPropertyFairUse, type FairUseConfig, type PropertyFairUse } from '../limits/property-fair-use.ts';
import { createCachedFetch, type CachedFetch } from './cached-fetch.ts';
import type { CacheStore } from './cache-store.ts';
import { systemClock, type Clock } from './clock.ts';
import { layeredCacheStore } from './layered-cache-store.ts';
import { createMemoryCacheStore } from './memory-cache-store.ts';
import { closeRedis, createRedis, redisHealth, waitForRedis } from './redis-connection.ts';
import { createRedisCacheStore } from './redis-cache-store.ts';
import { createRedisSingleFlight } from './redis-single-flight.ts';
import { chainSingleFlight, createLocalSingleFlight, type SingleFlight } from './single-flight.ts';

export interface SharedStateOptions {
  /** `redis://…`; absent: everything in-process. */
  redisUrl?: string;
  logger?: Logger;
  now?: Clock;
  /** Byte bound of the in-process cache layer (default 64 MiB). */
  cacheMaxBytes?: number;
  /** Namespace of every Redis key and channel (default `siteline:`); tests use a unique one. */
  keyPrefix?: string;
  limits?: Partial<LimitsConfig>;
  /** Per-data-source fair use of the provider quota (tests shrink the property's tokens). */
  fairUse?: Partial<FairUseConfig>;
  /** Concurrent analytics requests per property (default 10, the provider's limit). */
  analyticsConcurrency?: number;
  /** How long start-up waits for Redis before starting degraded (default 2 s). */
  redisConnectTimeoutMs?: number;
}

export interface SharedStateHealth {
  status: 'ok' | 'degraded';
  redis: 'disabled' | 'ok' | 'degraded';
  detail?: string;
}

export interface SharedState {
  /** Layered (in-process, then Redis) cache store. */
  cache: CacheStore;
  /** The read-through path providers' loaders use. */
  cachedFetch: CachedFetch;
  singleFlight: SingleFlight;
  limits: Limits;
  /** Shares a data source's provider quota between its callers and degrades as it runs low, across instances with Redis. */
  fairUse: PropertyFairUse;
  /** Concurrent analytics requests per property, shared across instances with Redis (under the provider's 10). */
  analyticsConcurrency: ConcurrencyLimiter;
  bus: Bus;
  /** For `/readyz`: degraded while Redis is configured but unreachable (requests keep being served). */
  health(): SharedStateHealth;
  /** Waits for background refreshes, then closes connections. */
  close(): Promise<void>;
}

export async function createSharedState(options: SharedStateOptions = {}): Promise<SharedState> {
  const now = options.now ?? systemClock;
  const prefix = options.keyPrefix ?? 'siteline:';
  const logger = options.logger;
  const memory = createMemoryCacheStore({ maxBytes: options.cacheMaxBytes, now });
  const local = createLocalSingleFlight();

  let redis: Redis | undefined;
  let cache: CacheStore = memory;
  let singleFlight: SingleFlight = local;
  if (options.redisUrl !== undefined) {
    redis = await createRedis(options.redisUrl, { name: 'siteline', logger });
    await waitForRedis(redis, options.redisConnectTimeoutMs ?? 2_000);
    const shared = createRedisCacheStore({ redis, prefix: `${prefix}cache:`, fallback: memory, logger, now });
    cache = layeredCacheStore(memory, shared);
    singleFlight = chainSingleFlight(local, createRedisSingleFlight({ redis, prefix: `${prefix}lock:`, logger }));
  }

  const limits = createLimits({ redis, prefix: `${prefix}rl:`, config: options.limits });
  const bus = createBus({ redis, prefix: `${prefix}bus:`, logger });
  const fairUse = createPropertyFairUse({ redis, prefix: `${prefix}fair:`, config: options.fairUse });
  const analyticsConcurrency = createConcurrencyLimiter({ max: options.analyticsConcurrency ?? 10, redis, prefix: `${prefix}conc:` });
  // Lets an operator (or a force refresh elsewhere) drop entries from every instance's in-process layer.
  const unsubscribe = await bus.subscribe(BUS_CHANNELS.cacheInvalidate, (message) => {
    const keys = (message as { keys?: unknown }).keys;
    if (Array.isArray(keys)) for (const key of keys) if (typeof key === 'string') void memory.delete(key);
  });
  const cachedFetch = createCachedFetch({ store: cache, singleFlight, now, logger });

  return {
    cache,
    cachedFetch,
    singleFlight,
    limits,
    fairUse,
    analyticsConcurrency,
    bus,
    health() {
      if (redis === undefined) return { status: 'ok', redis: 'disabled' };
      const state = cache.health();
      const connection = redisHealth(redis);
      const bad = connection.status === 'ok' ? state : connection;
      return bad.status === 'ok'
        ? { status: 'ok', redis: 'ok' }
        : { status: 'degraded', redis: 'degraded', ...(bad.detail === undefined ? {} : { detail: bad.detail }) };
    },
    async close() {
      await cachedFetch.drain();
      await analyticsConcurrency.close();
      await unsubscribe();
      await bus.close();
      if (redis !== undefined) await closeRedis(redis);
    },
  };
}
