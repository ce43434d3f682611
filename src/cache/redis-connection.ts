// ioredis connections tuned to fail fast while Redis is away, so callers degrade to in-process state instead of hanging.
import type { Redis, RedisOptions } from 'ioredis';
import type { Logger } from 'pino';
import type { StoreHealth } from './cache-store.ts';

export interface CreateRedisOptions {
  /** Shown in CLIENT LIST and logs, e.g. `siteline:cache`. */
  name?: string;
  logger?: Pick<Logger, 'warn' | 'info'>;
  /** Overrides for tests (e.g. a shorter connectTimeout). */
  overrides?: Partial<RedisOptions>;
}

export const REDIS_OPTIONS: RedisOptions = {
  lazyConnect: false,
  // Commands issued while disconnected fail at once (callers fall back) instead of queueing behind a reconnect.
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  connectTimeout: 2_000,
  // A connected but unresponsive server must not stall requests either.
  commandTimeout: 1_000,
  // Reconnect forever with a short capped backoff (50, 100, 200, 400, 500 ms, …): a Redis that is back is used
  // again (and /readyz says so) within a second; a refused connection attempt costs next to nothing.
  retryStrategy: (attempt) => Math.min(50 * 2 ** Math.max(0, attempt - 1), 500),
};

/** ioredis is loaded with the first connection: a process without REDIS_URL never pays for it. */
export async function createRedis(url: string, options: CreateRedisOptions = {}): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    ...REDIS_OPTIONS,
    ...(options.name === undefined ? {} : { connectionName: options.name }),
    ...options.overrides,
  });
  watchConnection(redis, options);
  return redis;
}

/** Logs the first error of an outage and the recovery, not every reconnect attempt. */
function watchConnection(redis: Redis, options: CreateRedisOptions): void {
  let down = false;
  redis.on('error', (err: Error) => {
    if (down) return;
    down = true;
    options.logger?.warn({ err: { message: err.message }, redis: options.name }, 'redis unavailable; using in-process state');
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    options.logger?.info({ redis: options.name }, 'redis reachable again');
  });
}

export function redisHealth(redis: Redis): StoreHealth {
  return redis.status === 'ready' ? { status: 'ok' } : { status: 'degraded', detail: `redis ${redis.status}` };
}

/** Resolves true once the connection is ready, false after `timeoutMs` (the caller then starts degraded). */
export function waitForRedis(redis: Redis, timeoutMs: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(ready);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    redis.on('ready', onReady);
  });
}

/** Closes without waiting for a server that may be gone. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  if (redis.status !== 'ready') {
    redis.disconnect();
    return;
  }
  await redis.quit().catch(() => redis.disconnect());
}
