// One fixed-window limiter: Redis-backed (with an in-memory insurance limiter for outages), or counting in this
// process when there is no Redis.
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { LimitPolicy } from './limit-policy.ts';
import { createMemoryWindows, type WindowCount } from './memory-windows.ts';

/** Where a caller stands in one policy after (or without) spending a point. */
export interface LimitState {
  policy: LimitPolicy;
  allowed: boolean;
  /** Points left in the current window (the `r` of the RateLimit field). */
  remaining: number;
  /** Milliseconds until the current window ends and the quota is whole again. */
  resetMs: number;
}

/**
 * A value now when this process can decide (a limiter without Redis counts in memory), else a promise: the warm
 * path of an API request stays synchronous. Failures (Redis errors) always come as a rejected promise.
 */
export type Decided<T> = T | Promise<T>;

export interface Limiter {
  readonly policy: LimitPolicy;
  /** Spends one point; `allowed: false` (never a failure) when the window's quota is spent. */
  consume(key: string): Decided<LimitState>;
  /** Reads the state without spending. */
  peek(key: string): Decided<LimitState>;
  /** Gives one point back (a request that another limiter turned away should not count). */
  refund(key: string): Decided<void>;
}

export interface LimiterOptions {
  policy: LimitPolicy;
  redis?: Redis;
  /** Key namespace; counters live at `<prefix><policy>:<window>:<key>`. */
  prefix?: string;
}

export function createLimiter(options: LimiterOptions): Limiter {
  return options.redis === undefined ? createMemoryLimiter(options.policy) : createRedisLimiter(options.policy, options.redis, options.prefix);
}

/**
 * Where a caller stands after `consumed` points of a window that ends in `msBeforeNext` ms. No counter yet (or one
 * without expiry) means a whole window lies ahead.
 */
function stateOf(policy: LimitPolicy, allowed: boolean, consumed: number | undefined, msBeforeNext: number | undefined): LimitState {
  return {
    policy,
    allowed,
    remaining: consumed === undefined ? policy.points : Math.max(policy.points - consumed, 0),
    resetMs: msBeforeNext === undefined || msBeforeNext < 0 ? policy.windowSec * 1000 : msBeforeNext,
  };
}

/** Counts in this process and answers at once. */
function createMemoryLimiter(policy: LimitPolicy): Limiter {
  const windows = createMemoryWindows(policy.windowSec);
  const toState = (count: WindowCount | undefined, allowed: boolean) => stateOf(policy, allowed, count?.consumed, count?.msBeforeNext);
  return {
    policy,
    consume(key) {
      const count = windows.add(key, 1);
      return toState(count, count.consumed <= policy.points);
    },
    peek(key) {
      const count = windows.peek(key);
      return toState(count, count === undefined || count.consumed < policy.points);
    },
    refund(key) {
      windows.add(key, -1);
    },
  };
}

/** Counts in Redis, shared by every instance; an in-memory insurance limiter counts per instance while Redis is away. */
function createRedisLimiter(policy: LimitPolicy, redis: Redis, prefix = 'siteline:rl:'): Limiter {
  const base = { keyPrefix: `${prefix}${policy.name}:${policy.windowSec}`, points: policy.points, duration: policy.windowSec };
  const limiter: RateLimiterAbstract = new RateLimiterRedis({
    ...base,
    storeClient: redis,
    // Skip the doomed round trip while disconnected; the insurance limiter counts per instance meanwhile.
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory(base),
  });

  const toState = (res: RateLimiterRes | null, allowed: boolean) => stateOf(policy, allowed, res?.consumedPoints, res?.msBeforeNext);

  // The library resolves with the counter and rejects with it when the window is used up. Both reactions are made
  // once per limiter: consume runs twice per API request.
  const allowed = (res: RateLimiterRes) => toState(res, true);
  const refused = (rejection: unknown) => {
    if (rejection instanceof RateLimiterRes) return toState(rejection, false);
    throw rejection;
  };

  return {
    policy,
    // One promise reaction, not an async frame around the library's promise.
    consume(key) {
      return limiter.consume(key).then(allowed, refused);
    },
    async peek(key) {
      const res = await limiter.get(key);
      return toState(res, res === null || res.consumedPoints < policy.points);
    },
    async refund(key) {
      await limiter.reward(key, 1);
    },
  };
}
