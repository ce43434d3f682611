// Prometheus metrics of one runtime, in its own registry (never prom-client's global one, so several runtimes in
// one process — tests — do not collide): HTTP requests, upstream calls, cache results, rate-limit rejections and
// the default process metrics.
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { PropertyFairUse } from '../limits/property-fair-use.ts';
import type { CacheState } from '../cache/cached-fetch.ts';
import { isSource } from '../domain/sources.ts';
import type { OutcomeHook } from '../providers/resilience.ts';
import { createRequestSeries, type OneSeries } from './request-series.ts';

export type RateLimitKind = 'request' | 'force' | 'auth';

export interface HttpObservation {
  method: string;
  /** The matched route pattern (`/api/v1/metrics/:projectKey/summary`), never the raw path. */
  route: string;
  status: number;
  seconds: number;
}

export interface Metrics {
  readonly registry: Registry;
  readonly contentType: string;
  observeHttp(observation: HttpObservation): void;
  /** For createProviderClients({ onOutcome }). */
  readonly recordUpstream: OutcomeHook;
  /** `source` is a cache entry's data source (`engine1:sc-domain:…`); only its provider word becomes a label. */
  recordCache(source: string, state: CacheState): void;
  recordRateLimited(kind: RateLimitKind): void;
  /** An error that escaped every owner and was caught by the process guard. */
  recordUnhandled(kind: 'exception' | 'rejection'): void;
  /** An error in a /api/graphql answer, by its `extensions.code` (a failed field is still HTTP 200). */
  recordGraphqlError(code: string): void;
  /** Exposes what the providers last said is left of each data source's quota, and when it will run out. */
  watchQuota(fairUse: Pick<PropertyFairUse, 'observed'>): void;
  render(): Promise<string>;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Provider deadline is 25 s; the last buckets catch requests that waited on it. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25];

export function createMetrics(options: { defaultMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry });
  const http = createRequestSeries({
    registry,
    counter: { name: 'siteline_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status class.' },
    histogram: { name: 'siteline_http_request_duration_seconds', help: 'Time to answer HTTP requests.', buckets: DURATION_BUCKETS },
  });
  const upstream = new Counter({
    name: 'siteline_upstream_calls_total',
    help: 'Provider calls after retries, by provider word and outcome (ok or the error code). Caller mistakes passed through (invalid_parameter, upstream_rejected, not_found) are not counted.',
    labelNames: ['provider', 'outcome'] as const,
    registers: [registry],
  });
  const cache = new Counter({
    name: 'siteline_cache_results_total',
    help: 'Provider report cache lookups by provider word and result (hit, miss, stale, refresh).',
    labelNames: ['provider', 'state'] as const,
    registers: [registry],
  });
  const limited = new Counter({
    name: 'siteline_rate_limit_rejections_total',
    help: 'Requests refused by our limits: request (per API key), force (force=1 per project), auth (failed authentications per address).',
    labelNames: ['limit'] as const,
    registers: [registry],
  });
  const graphqlErrors = new Counter({
    name: 'siteline_graphql_errors_total',
    help: 'Errors in /api/graphql answers by extensions.code (invalid_period, report_budget_exceeded, query_too_complex, upstream_unavailable, internal_error, GRAPHQL_VALIDATION_FAILED, …): a field that failed is answered with HTTP 200.',
    labelNames: ['code'] as const,
    registers: [registry],
  });
  const unhandled = new Counter({
    name: 'siteline_unhandled_errors_total',
    help: 'Errors no code path owned (uncaught exceptions, unhandled rejections), caught by the process guard instead of ending the process.',
    labelNames: ['kind'] as const,
    registers: [registry],
  });

  // route → method → status: constant strings and a number as keys, so a known label set is found without building
  // (and hashing) a new string per request.
  const httpSeries = new Map<string, Map<string, Map<number, OneSeries>>>();

  return {
    registry,
    contentType: registry.contentType,
    observeHttp({ method, route, status, seconds }) {
      // Every response is counted: the label sets (method × route × status class, all bounded) are resolved once.
      const known = METHODS.has(method) ? method : 'OTHER';
      let byMethod = httpSeries.get(route);
      if (byMethod === undefined) httpSeries.set(route, (byMethod = new Map()));
      let byStatus = byMethod.get(known);
      if (byStatus === undefined) byMethod.set(known, (byStatus = new Map()));
      let series = byStatus.get(status);
      if (series === undefined) byStatus.set(status, (series = http.series({ method: known, route, status_class: `${Math.floor(status / 100)}xx` })));
      series.observe(seconds);
    },
    recordUpstream(source, status, _message, context) {
      upstream.inc({ provider: source, outcome: status === 'ok' ? 'ok' : (context.code ?? 'error') });
    },
    recordCache(source, state) {
      const word = source.split(':', 1)[0] ?? '';
      cache.inc({ provider: isSource(word) ? word : 'other', state });
    },
    recordRateLimited(kind) {
      limited.inc({ limit: kind });
    },
    recordUnhandled(kind) {
      unhandled.inc({ kind });
    },
    recordGraphqlError(code) {
      // Codes are ours, Yoga's or graphql-armor's (a bounded set); anything else would be a new label per value.
      graphqlErrors.inc({ code: /^[A-Za-z_]{1,40}$/.test(code) ? code : 'other' });
    },
    watchQuota(fairUse) {
      new Gauge({
        name: 'siteline_provider_quota_remaining_tokens',
        help: "Tokens left of a data source's provider quota bucket (hour, day), as the provider last said to this instance.",
        labelNames: ['source', 'bucket'] as const,
        registers: [registry],
        collect() {
          this.reset();
          for (const [source, q] of fairUse.observed()) {
            if (q.tokensPerHour !== undefined) this.set({ source, bucket: 'hour' }, q.tokensPerHour);
            if (q.tokensPerDay !== undefined) this.set({ source, bucket: 'day' }, q.tokensPerDay);
          }
        },
      });
      new Gauge({
        name: 'siteline_provider_quota_exhaustion_seconds',
        help: "Predicted seconds until a data source's hourly provider tokens run out at the rate last observed (absent while nothing is spent).",
        labelNames: ['source'] as const,
        registers: [registry],
        collect() {
          this.reset();
          for (const [source, q] of fairUse.observed()) if (q.exhaustsInSec !== undefined) this.set({ source }, q.exhaustsInSec);
        },
      });
    },
    render: () => registry.metrics(),
  };
}
