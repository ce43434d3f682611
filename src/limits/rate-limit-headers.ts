// RateLimit-Policy / RateLimit header fields (IETF httpapi draft shape) and the 429 error that carries them.
import { AppError } from '../errors/app-error.ts';
import type { LimitState } from './limiter.ts';

/**
 * A type, not an interface: it is handed on as the request's plain `Record` of response headers. Names are in
 * lower case, as they go on the wire: a mixed-case name is lowered, hashed and interned again on every answer.
 */
export type RateLimitHeaders = {
  'ratelimit-policy': string;
  ratelimit: string;
};

/**
 * One list member per state, e.g. `"default";q=600;w=60, "burst";q=60;w=1` and `"default";r=598;t=42, "burst";r=59;t=1`:
 * q = points per window, w = window seconds, r = points left in the current window,
 * t = seconds until the current window ends (rounded up).
 */
export function toRateLimitHeaders(states: readonly LimitState[]): RateLimitHeaders {
  let policies = '';
  let current = '';
  for (const s of states) {
    const separator = current === '' ? '' : ', ';
    policies += separator + policyMember(s.policy);
    current += `${separator}"${s.policy.name}";r=${s.remaining};t=${toSeconds(s.resetMs)}`;
  }
  return { 'ratelimit-policy': policies, ratelimit: current };
}

/** A policy's RateLimit-Policy member never changes: built once per policy, not per request. */
const policyMembers = new WeakMap<LimitState['policy'], string>();
function policyMember(policy: LimitState['policy']): string {
  let member = policyMembers.get(policy);
  if (member === undefined) policyMembers.set(policy, (member = `"${policy.name}";q=${policy.points};w=${policy.windowSec}`));
  return member;
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
