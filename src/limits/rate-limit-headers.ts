// RateLimit-Policy / RateLimit header fields (IETF httpapi draft shape) and the 429 error that carries them.
import { AppError } from '../errors/app-error.ts';
import type { LimitState } from './limiter.ts';

export interface RateLimitHeaders {
  'RateLimit-Policy': string;
  RateLimit: string;
}

/**
 * One list member per state, e.g. `"default";q=600;w=60, "burst";q=60;w=1` and `"default";r=598;t=42, "burst";r=59;t=1`:
 * q = points per window, w = window seconds, r = points left in the current window,
 * t = seconds until the current window ends (rounded up).
 */
export function toRateLimitHeaders(states: readonly LimitState[]): RateLimitHeaders {
  return {
    'RateLimit-Policy': states.map((s) => `"${s.policy.name}";q=${s.policy.points};w=${s.policy.windowSec}`).join(', '),
    RateLimit: states.map((s) => `"${s.policy.name}";r=${s.remaining};t=${toSeconds(s.resetMs)}`).join(', '),
  };
}

/** 429 `rate_limited` with `Retry-After` (seconds until the exhausted window ends) and the RateLimit fields. */
export function rateLimitedError(exhausted: LimitState, states: readonly LimitState[], what: string): AppError {
  const retryAfter = Math.max(1, toSeconds(exhausted.resetMs));
  const { points, windowSec } = exhausted.policy;
  return new AppError(
    'rate_limited',
    `Too many ${what}: at most ${points} per ${windowSec} s. Retry after ${retryAfter} s.`,
    { headers: { ...toRateLimitHeaders(states), 'Retry-After': String(retryAfter) } },
  );
}

function toSeconds(ms: number): number {
  return Math.max(0, Math.ceil(ms / 1000));
}
