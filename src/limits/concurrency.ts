// Caps concurrent upstream requests per key (GA allows 10 concurrent requests per property): a local semaphore,
// or with Redis a shared counting semaphore (a sorted set of lease tokens) so the cap holds across instances.
// Leases expire on their own, so a crashed instance cannot hold slots forever; a Redis failure falls back to
// the local semaphore rather than failing the request.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

export interface ConcurrencyLimiter {
  run<T>(key: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}

export interface ConcurrencyOptions {
  max: number;
  redis?: Redis;
  prefix?: string;
  /** A lease older than this is considered abandoned (longer than any request deadline). */
  leaseMs?: number;
}

export function createConcurrencyLimiter(options: ConcurrencyOptions): ConcurrencyLimiter {
  const local = createLocalSemaphores(options.max);
  if (!options.redis) return local;
  return createRedisSemaphores(options.redis, options, local);
}

function createLocalSemaphores(max: number): ConcurrencyLimiter {
  const slots = new Map<string, { active: number; waiting: (() => void)[] }>();
  return {
    async run(key, task, signal) {
      let slot = slots.get(key);
      if (!slot) slots.set(key, (slot = { active: 0, waiting: [] }));
      if (slot.active >= max) await waitTurn(slot.waiting, signal);
      slot.active++;
      try {
        return await task();
      } finally {
        slot.active--;
        const next = slot.waiting.shift();
        if (next) next();
        else if (slot.active === 0) slots.delete(key);
      }
    },
  };
}

function waitTurn(queue: (() => void)[], signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      const at = queue.indexOf(go);
      if (at >= 0) queue.splice(at, 1);
      reject(signal?.reason ?? new Error('aborted'));
    };
    const go = () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    };
    queue.push(go);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** KEYS[1] lease set; ARGV: now, lease ms, max, token. Drops expired leases, then takes one if a slot is free. */
const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0`;

function createRedisSemaphores(redis: Redis, options: ConcurrencyOptions, fallback: ConcurrencyLimiter): ConcurrencyLimiter {
  const prefix = options.prefix ?? 'siteline:conc:';
  const leaseMs = options.leaseMs ?? 60_000;
  return {
    async run(key, task, signal) {
      const setKey = `${prefix}${key}`;
      const token = randomUUID();
      let acquired: boolean;
      try {
        acquired = await acquire(redis, setKey, token, options.max, leaseMs, signal);
      } catch {
        return fallback.run(key, task, signal);
      }
      if (!acquired) return fallback.run(key, task, signal);
      try {
        return await task();
      } finally {
        redis.zrem(setKey, token).catch(() => undefined);
      }
    },
  };
}

async function acquire(redis: Redis, key: string, token: string, max: number, leaseMs: number, signal?: AbortSignal): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    const got = (await redis.eval(ACQUIRE, 1, key, String(Date.now()), String(leaseMs), String(max), token)) as number;
    if (got === 1) return true;
    // Slots free up when requests finish (hundreds of ms): poll with a short, growing, jittered delay.
    await new Promise((resolve) => setTimeout(resolve, Math.min(250, 10 * 2 ** attempt) * (0.5 + Math.random() / 2)));
    if (attempt > 200) return false;
  }
}
