// Cross-instance single-flight: a Redis lock (SET NX PX) elects one loader; the others poll for its result.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { SingleFlight } from './single-flight.ts';

export interface RedisSingleFlightOptions {
  redis: Redis;
  prefix?: string;
  /** Lock lifetime: longer than the provider request deadline (25 s) so a live loader keeps its lock. */
  lockTtlMs?: number;
  /** A waiter gives up and loads itself after this long (a stuck or vanished loader must not stall it). */
  waitTimeoutMs?: number;
  /** Poll backoff: starts at `initialPollMs`, grows ×1.5 up to `maxPollMs`. */
  initialPollMs?: number;
  maxPollMs?: number;
  logger?: Pick<Logger, 'warn'>;
}

// Deletes the lock only if it still holds our token: a loader whose lock expired must not free a successor's.
const RELEASE_SCRIPT = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

type LockOutcome = 'acquired' | 'held' | 'unavailable';

export function createRedisSingleFlight(options: RedisSingleFlightOptions): SingleFlight {
  const { redis } = options;
  const prefix = options.prefix ?? 'siteline:lock:';
  const lockTtlMs = options.lockTtlMs ?? 30_000;
  const waitTimeoutMs = options.waitTimeoutMs ?? 26_000;
  const initialPollMs = options.initialPollMs ?? 20;
  const maxPollMs = options.maxPollMs ?? 250;

  async function tryLock(lockKey: string, token: string): Promise<LockOutcome> {
    if (redis.status !== 'ready') return 'unavailable';
    try {
      return (await redis.set(lockKey, token, 'PX', lockTtlMs, 'NX')) === 'OK' ? 'acquired' : 'held';
    } catch {
      return 'unavailable';
    }
  }

  async function isHeld(lockKey: string): Promise<boolean | undefined> {
    if (redis.status !== 'ready') return undefined;
    try {
      return (await redis.exists(lockKey)) === 1;
    } catch {
      return undefined;
    }
  }

  async function release(lockKey: string, token: string): Promise<void> {
    // If this fails the lock simply expires after lockTtlMs; waiters meanwhile find the result by peeking.
    await redis.eval(RELEASE_SCRIPT, 1, lockKey, token).catch(() => undefined);
  }

  return {
    async run<T>(key: string, work: () => Promise<T>, peek?: () => Promise<T | undefined>): Promise<T> {
      const lockKey = prefix + key;
      const deadline = Date.now() + waitTimeoutMs;
      let delay = initialPollMs;
      for (;;) {
        const token = randomUUID();
        const outcome = await tryLock(lockKey, token);
        // Redis away: per-instance dedupe (the local single-flight in front of this one) is all we can offer.
        if (outcome === 'unavailable') return work();
        if (outcome === 'acquired') {
          try {
            return await work();
          } finally {
            await release(lockKey, token);
          }
        }
        for (;;) {
          if (Date.now() >= deadline) {
            options.logger?.warn({ key }, 'single-flight wait timed out; loading without the lock');
            return work();
          }
          await sleep(delay);
          delay = Math.min(delay * 1.5, maxPollMs);
          const found = peek === undefined ? undefined : await peek();
          if (found !== undefined) return found;
          const held = await isHeld(lockKey);
          if (held === undefined) return work();
          // The loader finished (or failed) without us seeing a result: compete for the lock again.
          if (!held) break;
        }
      }
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
