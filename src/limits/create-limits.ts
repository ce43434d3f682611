// The request, force and failed-authentication limits behind one object the app calls per request.
import type { Redis } from 'ioredis';
import { defineLimits, type LimitPolicy, type LimitsConfig } from './limit-policy.ts';
import { createLimiter, type Decided, type Limiter, type LimitState } from './limiter.ts';
import { rateLimitedError, toRateLimitHeaders, type RateLimitHeaders } from './rate-limit-headers.ts';

/** Per-key settings stored with an API key; absent fields use the defaults. */
export interface KeyLimitOverride {
  /** Requests per request window (default 600 per 60 s). */
  quota?: number;
  /** Requests per burst window (default 60 per 1 s). */
  burst?: number;
}

export interface RequestAllowance {
  /** State of the `default` policy after this request. */
  state: LimitState;
  headers: RateLimitHeaders;
}

export interface Limits {
  readonly config: LimitsConfig;
  /**
   * Counts one request of an API key: the allowance at once when counted in this process, else a promise; rejects
   * with 429 `rate_limited` when the burst or the request window is spent.
   */
  consumeRequest(apiKeyId: string, override?: KeyLimitOverride): Decided<RequestAllowance>;
  /** Counts one `force=1` for a project; throws 429 when spent. `request` adds the key's state to the 429's header fields. */
  consumeForce(projectKey: string, request?: LimitState): Promise<LimitState>;
  /** Throws 429 when this IP already failed authentication too often in the current window. */
  assertAuthAllowed(ip: string): Promise<void>;
  /** Counts one failed authentication of an IP. */
  recordAuthFailure(ip: string): Promise<LimitState>;
  /** Spends one point of another named policy (sign-in attempts, client registrations); never throws for a spent window. */
  consumePolicy(policy: LimitPolicy, key: string): Promise<LimitState>;
  /** Gives back one point of a named policy (an attempt counted up front that turned out fine). */
  refundPolicy(policy: LimitPolicy, key: string): Promise<void>;
  /** Reads a named policy's state for a key without spending. */
  peekPolicy(policy: LimitPolicy, key: string): Promise<LimitState>;
}

export interface CreateLimitsOptions {
  redis?: Redis;
  prefix?: string;
  config?: Partial<LimitsConfig>;
}

export function createLimits(options: CreateLimitsOptions = {}): Limits {
  const config = defineLimits(options.config);
  // Limiters are fixed to their point count, so per-key overrides get their own (shared counters: same prefix).
  const limiters = new Map<LimitPolicy, Map<number, Limiter>>();
  /** The limiter of `policy`, or of it with another point count (looked up on every request: no allocation on a hit). */
  const limiterFor = (policy: LimitPolicy, points: number = policy.points): Limiter => {
    let byPoints = limiters.get(policy);
    if (byPoints === undefined) limiters.set(policy, (byPoints = new Map()));
    let limiter = byPoints.get(points);
    if (limiter === undefined) {
      limiter = createLimiter({ policy: { ...policy, points }, redis: options.redis, prefix: options.prefix });
      byPoints.set(points, limiter);
    }
    return limiter;
  };

  return {
    config,
    consumeRequest(apiKeyId, override = {}) {
      const request = limiterFor(config.request, override.quota);
      const burst = limiterFor(config.burst, override.burst);
      // Both are started before either is awaited: with Redis, one round trip's time for the two.
      const quota = request.consume(apiKeyId);
      const inBurst = burst.consume(apiKeyId);
      if (quota instanceof Promise || inBurst instanceof Promise) return bothCounted(quota, inBurst).then(([q, b]) => allowanceOf(request, apiKeyId, q, b));
      return allowanceOf(request, apiKeyId, quota, inBurst);
    },
    async consumeForce(projectKey, requestState) {
      const state = await limiterFor(config.force).consume(projectKey);
      if (!state.allowed) {
        throw rateLimitedError(state, requestState === undefined ? [state] : [requestState, state], 'force=1 refreshes for this project');
      }
      return state;
    },
    async assertAuthAllowed(ip) {
      const state = await limiterFor(config.failedAuth).peek(ip);
      if (!state.allowed) throw rateLimitedError(state, [state], 'failed authentications from this address');
    },
    async recordAuthFailure(ip) {
      return limiterFor(config.failedAuth).consume(ip);
    },
    async consumePolicy(policy, key) {
      return limiterFor(policy).consume(key);
    },
    async refundPolicy(policy, key) {
      return limiterFor(policy).refund(key);
    },
    async peekPolicy(policy, key) {
      return limiterFor(policy).peek(key);
    },
  };
}

/** Both windows' states; when the first fails, the second's own failure (the same outage) is not left unhandled. */
async function bothCounted(quota: Decided<LimitState>, burst: Decided<LimitState>): Promise<[LimitState, LimitState]> {
  try {
    return [await quota, await burst];
  } catch (error) {
    Promise.resolve(burst).catch(() => undefined);
    throw error;
  }
}

/**
 * A request both windows counted: its allowance, or (as a rejection) the 429 of the window that refused it. Both
 * windows can refuse, so both are stated in RateLimit-Policy / RateLimit.
 */
function allowanceOf(request: Limiter, apiKeyId: string, quota: LimitState, burst: LimitState): Decided<RequestAllowance> {
  if (!quota.allowed) return Promise.reject(rateLimitedError(quota, [quota, burst], 'requests for this API key'));
  if (burst.allowed) return { state: quota, headers: toRateLimitHeaders([quota, burst]) };
  // A request turned away by the burst window must not eat into the per-minute quota.
  const refunded: LimitState = { ...quota, remaining: quota.remaining + 1 };
  const refusal = rateLimitedError(burst, [refunded, burst], 'requests at once for this API key');
  return Promise.resolve(request.refund(apiKeyId)).then(() => Promise.reject(refusal));
}
