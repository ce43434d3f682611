// Caps concurrent upstream requests per key (GA allows 10 concurrent requests per property): a local semaphore,
// or with Redis a shared counting semaphore (a sorted set of lease tokens scored by expiry) so the cap holds
// across instances. Leases are short and renewed by a heartbeat while their request runs, released on every
// exit path (done, failed, aborted, shutdown), so a killed instance's slots free themselves within one lease.
// A request that cannot get a slot in time gives up with SlotWaitTimeout (the API answers 503 + Retry-After);
// a Redis failure falls back to the local semaphore rather than failing the request.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

export interface ConcurrencyLimiter {
  run<T>(key: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Releases every lease this instance still holds and stops the heartbeats (shutdown). */
  close(): Promise<void>;
}

export interface ConcurrencyOptions {
  max: number;
  redis?: Redis;
  prefix?: string;
  /** How long a lease lives without a heartbeat (default 5 s); the heartbeat renews it every third of that. */
  leaseMs?: number;
  /** How long a request waits for a free slot before it gives up (default 5 s). */
  maxWaitMs?: number;
}

export const DEFAULT_LEASE_MS = 5_000;
export const DEFAULT_MAX_WAIT_MS = 5_000;

/** Every slot of the key stayed taken for `maxWaitMs`. */
export class SlotWaitTimeout extends Error {
  /** When a retry has a fair chance: about one lease. */
  readonly retryAfterMs: number;
  constructor(key: string, retryAfterMs: number) {
    super(`No free concurrency slot for ${key}`);
    this.name = 'SlotWaitTimeout';
    this.retryAfterMs = retryAfterMs;
  }
}

export function createConcurrencyLimiter(options: ConcurrencyOptions): ConcurrencyLimiter {
  const maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  const local = createLocalSemaphores(options.max, maxWaitMs);
  if (!options.redis) return local;
  return createRedisSemaphores(options.redis, { ...options, maxWaitMs }, local);
}

const abortReason = (signal: AbortSignal): unknown => signal.reason ?? new Error('aborted');

function createLocalSemaphores(max: number, maxWaitMs: number): ConcurrencyLimiter {
  const slots = new Map<string, { active: number; waiting: (() => void)[] }>();
  return {
    async run(key, task, signal) {
      let slot = slots.get(key);
      if (!slot) slots.set(key, (slot = { active: 0, waiting: [] }));
      if (slot.active >= max) await waitTurn(slot.waiting, key, maxWaitMs, signal);
      slot.active++;
      try {
        // A task started with a signal that already fired would fail where nothing listens.
        if (signal?.aborted) throw abortReason(signal);
        return await task();
      } finally {
        slot.active--;
        const next = slot.waiting.shift();
        if (next) next();
        else if (slot.active === 0) slots.delete(key);
      }
    },
    close: () => Promise.resolve(),
  };
}

function waitTurn(queue: (() => void)[], key: string, maxWaitMs: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  return new Promise<void>((resolve, reject) => {
    const leave = (error: unknown) => {
      const at = queue.indexOf(go);
      if (at >= 0) queue.splice(at, 1);
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      reject(error);
    };
    const onAbort = () => leave(abortReason(signal!));
    const go = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve();
    };
    const timer = setTimeout(() => leave(new SlotWaitTimeout(key, 1_000)), maxWaitMs);
    queue.push(go);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * KEYS[1] lease set; ARGV: lease ms, max, token. Scores are expiry times on the Redis server's clock (one clock
 * for every instance): drops expired leases, then takes one if a slot is free.
 */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[3])
  redis.call('PEXPIRE', KEYS[1], 2 * tonumber(ARGV[1]))
  return 1
end
return 0`;

/** KEYS[1] lease set; ARGV: lease ms, token. Extends a lease that still exists; 0 when it was lost. */
const RENEW = `
if not redis.call('ZSCORE', KEYS[1], ARGV[2]) then return 0 end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], 2 * tonumber(ARGV[1]))
return 1`;

interface Lease {
  setKey: string;
  token: string;
  heartbeat: NodeJS.Timeout;
}

function createRedisSemaphores(redis: Redis, options: ConcurrencyOptions & { maxWaitMs: number }, fallback: ConcurrencyLimiter): ConcurrencyLimiter {
  const prefix = options.prefix ?? 'siteline:conc:';
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const held = new Set<Lease>();

  function release(lease: Lease): Promise<void> {
    clearInterval(lease.heartbeat);
    held.delete(lease);
    // Redis away: the lease expires on its own within leaseMs.
    return redis.zrem(lease.setKey, lease.token).then(() => undefined, () => undefined);
  }

  return {
    async run(key, task, signal) {
      const setKey = `${prefix}${key}`;
      const token = randomUUID();
      let acquired: boolean;
      try {
        acquired = await acquire(redis, setKey, token, options.max, leaseMs, options.maxWaitMs, signal);
      } catch {
        if (signal?.aborted) throw abortReason(signal);
        // Redis failed: the local semaphore still keeps this instance under the cap.
        return fallback.run(key, task, signal);
      }
      if (!acquired) throw new SlotWaitTimeout(key, leaseMs);
      const renew = () => void redis.eval(RENEW, 1, setKey, String(leaseMs), token).catch(() => undefined);
      const lease: Lease = { setKey, token, heartbeat: setInterval(renew, Math.max(50, Math.floor(leaseMs / 3))) };
      lease.heartbeat.unref();
      held.add(lease);
      try {
        if (signal?.aborted) throw abortReason(signal);
        return await task();
      } finally {
        await release(lease);
      }
    },
    async close() {
      await Promise.all([...held].map(release));
      await fallback.close();
    },
  };
}

async function acquire(redis: Redis, key: string, token: string, max: number, leaseMs: number, maxWaitMs: number, signal?: AbortSignal): Promise<boolean> {
  const giveUpAt = Date.now() + maxWaitMs;
  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) throw abortReason(signal);
    const got = (await redis.eval(ACQUIRE, 1, key, String(leaseMs), String(max), token)) as number;
    if (got === 1) return true;
    // Slots free up when requests finish (hundreds of ms): poll with a short, growing, jittered delay.
    const delay = Math.min(250, 10 * 2 ** attempt) * (0.5 + Math.random() / 2);
    if (Date.now() + delay > giveUpAt) return false;
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}
