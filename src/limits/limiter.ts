// One fixed-window limiter: Redis-backed (with an in-memory insurance limiter for outages) or in-memory.
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { LimitPolicy } from './limit-policy.ts';

/** Where a caller stands in one policy after (or without) spending a point. */
export interface LimitState {
  policy: LimitPolicy;
  allowed: boolean;
  /** Points left in the current window (the `r` of the RateLimit field). */
  remaining: number;
  /** Milliseconds until the current window ends and the quota is whole again. */
  resetMs: number;
}

export interface Limiter {
  readonly policy: LimitPolicy;
  /** Spends one point. Resolves with `allowed: false` (never rejects) when the window's quota is spent. */
  consume(key: string): Promise<LimitState>;
  /** Reads the state without spending. */
  peek(key: string): Promise<LimitState>;
  /** Gives one point back (a request that another limiter turned away should not count). */
  refund(key: string): Promise<void>;
}

export interface LimiterOptions {
  policy: LimitPolicy;
  redis?: Redis;
  /** Key namespace; counters live at `<prefix><policy>:<window>:<key>`. */
  prefix?: string;
}

export function createLimiter(options: LimiterOptions): Limiter {
  const { policy } = options;
  const keyPrefix = `${options.prefix ?? 'siteline:rl:'}${policy.name}:${policy.windowSec}`;
  const base = { keyPrefix, points: policy.points, duration: policy.windowSec };
  const limiter: RateLimiterAbstract =
    options.redis === undefined
      ? new RateLimiterMemory(base)
      : new RateLimiterRedis({
          ...base,
          storeClient: options.redis,
          // Skip the doomed round trip while disconnected; the insurance limiter counts per instance meanwhile.
          rejectIfRedisNotReady: true,
          insuranceLimiter: new RateLimiterMemory(base),
        });

  const toState = (res: RateLimiterRes | null, allowed: boolean): LimitState => ({
    policy,
    allowed,
    remaining: res === null ? policy.points : res.remainingPoints,
    // No counter yet (or one without expiry) means a whole window lies ahead.
    resetMs: res === null || res.msBeforeNext < 0 ? policy.windowSec * 1000 : res.msBeforeNext,
  });

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
