// The rate limits (docs/errors-and-limits.md) as data: a named quota of points per fixed window.

export interface LimitPolicy {
  /** Policy name as it appears in the RateLimit-Policy / RateLimit header fields. */
  name: string;
  /** Requests allowed per window (the `q` of RateLimit-Policy). */
  points: number;
  /** Window length in seconds (the `w` of RateLimit-Policy). */
  windowSec: number;
}

export interface LimitsConfig {
  /** Per API key over the long window: 600 per minute. */
  request: LimitPolicy;
  /** Per API key over a short window: at most 60 in any one second window, so 600/min cannot arrive at once. */
  burst: LimitPolicy;
  /** `force=1` per project: 30 per hour. */
  force: LimitPolicy;
  /** Failed authentications per client IP: 30 per minute. */
  failedAuth: LimitPolicy;
}

export function defineLimits(overrides: Partial<LimitsConfig> = {}): LimitsConfig {
  return {
    request: { name: 'default', points: 600, windowSec: 60 },
    burst: { name: 'burst', points: 60, windowSec: 1 },
    force: { name: 'force', points: 30, windowSec: 3600 },
    failedAuth: { name: 'auth', points: 30, windowSec: 60 },
    ...overrides,
  };
}
