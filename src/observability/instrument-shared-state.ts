// Hooks the metrics into the process-wide shared state once, in the composition root: every cache lookup and
// every refusal by the request, force and failed-authentication limits is counted, whichever facade caused it.
import type { CachedFetch } from '../cache/cached-fetch.ts';
import type { SharedState } from '../cache/shared-state.ts';
import { isAppError } from '../errors/app-error.ts';
import type { Limits } from '../limits/create-limits.ts';
import type { Decided } from '../limits/limiter.ts';
import type { Metrics, RateLimitKind } from './metrics.ts';

export function instrumentSharedState(shared: SharedState, metrics: Metrics): SharedState {
  metrics.watchQuota(shared.fairUse);
  return { ...shared, cachedFetch: instrumentCachedFetch(shared.cachedFetch, metrics), limits: instrumentLimits(shared.limits, metrics) };
}

function instrumentCachedFetch(inner: CachedFetch, metrics: Metrics): CachedFetch {
  const observed = (async (options) => {
    const result = await inner(options);
    metrics.recordCache(options.source, result.cache);
    return result;
  }) as CachedFetch;
  observed.drain = () => inner.drain();
  return observed;
}

function instrumentLimits(inner: Limits, metrics: Metrics): Limits {
  // A refusal always comes as a rejection: an answer given at once (an allowance) has nothing to count.
  const counted =
    <A extends unknown[], D extends Decided<unknown>>(kind: RateLimitKind, call: (...args: A) => D) =>
    (...args: A): D => {
      const decided = call(...args);
      if (!(decided instanceof Promise)) return decided;
      return decided.catch((error: unknown) => {
        if (isAppError(error) && error.code === 'rate_limited') metrics.recordRateLimited(kind);
        throw error;
      }) as D;
    };
  return {
    config: inner.config,
    consumeRequest: counted('request', (id: string, override?: Parameters<Limits['consumeRequest']>[1]) => inner.consumeRequest(id, override)),
    consumeForce: counted('force', (project: string, request?: Parameters<Limits['consumeForce']>[1]) => inner.consumeForce(project, request)),
    assertAuthAllowed: counted('auth', (ip: string) => inner.assertAuthAllowed(ip)),
    recordAuthFailure: (ip) => inner.recordAuthFailure(ip),
    consumePolicy: (policy, key) => inner.consumePolicy(policy, key),
    refundPolicy: (policy, key) => inner.refundPolicy(policy, key),
    peekPolicy: (policy, key) => inner.peekPolicy(policy, key),
  };
}
