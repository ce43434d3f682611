// Prometheus metrics: counters move with requests, upstream calls, cache lookups and limit refusals; labels carry
// route patterns, never raw paths; METRICS_ENABLED=false hides /metrics; METRICS_PORT moves it to its own listener.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/config/settings.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import { createMetrics } from '../../src/observability/metrics.ts';
import { createRuntime } from '../../src/runtime.ts';
import { serveRuntime } from '../../src/server.ts';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';
import { createAccountWithKey, createTestRuntime } from '../helpers/test-runtime.ts';

/** The value of one sample line, e.g. `siteline_http_requests_total{method="GET",…}`; 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (match?.[1] !== name) continue;
    const have = match[2]!.split(/,(?=[a-z_]+=")/);
    if (wanted.every((pair) => have.includes(pair))) return Number(match[3]);
  }
  return 0;
}

describe('/metrics on the API app', () => {
  let rt: SandboxRuntime;
  const scrape = async () => {
    const res = await rt.request('/metrics');
    expect(res.status).toBe(200);
    return res.text();
  };
  beforeAll(async () => {
    rt = await createSandboxRuntime();
  });
  afterAll(() => rt.dispose());

  it('is Prometheus text with the process metrics, without a credential', async () => {
    const res = await rt.request('/metrics');
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    expect(text).toContain('# TYPE siteline_http_requests_total counter');
    expect(text).toContain('# TYPE siteline_http_request_duration_seconds histogram');
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });

  it('counts the errors of GraphQL answers by code: a failed field is still HTTP 200', async () => {
    const gql = (query: string) => rt.request('/api/graphql', { method: 'POST', key: rt.demo.apiKey, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    const count = async (code: string) => sample(await scrape(), 'siteline_graphql_errors_total', { code });
    const [notFound, invalid] = [await count('not_found'), await count('GRAPHQL_VALIDATION_FAILED')];
    expect((await gql('{ a: project(key: "nope") { key } b: project(key: "gone") { key } }')).status).toBe(200);
    await gql('{ nope }');
    expect(await count('not_found')).toBe(notFound + 2);
    expect(await count('GRAPHQL_VALIDATION_FAILED')).toBe(invalid + 1);
  });

  it('counts requests by method, route pattern and status class', async () => {
    const labels = { method: 'GET', route: '/api/v1/projects/:projectKey', status_class: '2xx' };
    const before = sample(await scrape(), 'siteline_http_requests_total', labels);
    expect((await rt.get('/api/v1/projects/acme-shop')).status).toBe(200);
    expect((await rt.get('/api/v1/projects/tiny-saas')).status).toBe(200);
    expect((await rt.get('/api/v1/projects/nope')).status).toBe(404);
    const text = await scrape();
    expect(sample(text, 'siteline_http_requests_total', labels)).toBe(before + 2);
    expect(sample(text, 'siteline_http_requests_total', { ...labels, status_class: '4xx' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'siteline_http_request_duration_seconds_count', labels)).toBe(before + 2);
    expect(text).not.toContain('acme-shop');
    expect((await rt.request('/no/such/path')).status).toBe(404);
    expect(sample(await scrape(), 'siteline_http_requests_total', { route: '/**', status_class: '4xx' })).toBeGreaterThanOrEqual(1);
  });

  it('counts a request h3 refuses before routing (an unreadable path) under its method', async () => {
    const labels = { method: 'GET', route: 'unmatched', status_class: '4xx' };
    const before = sample(await scrape(), 'siteline_http_requests_total', labels);
    expect((await rt.request('/api/v1/%E0%A4%A')).status).toBe(400);
    expect(sample(await scrape(), 'siteline_http_requests_total', labels)).toBe(before + 1);
  });

  it('counts provider calls by provider word and outcome, and cache results by state', async () => {
    const before = await scrape();
    const path = '/api/v1/metrics/acme-shop/timeseries?period=custom_2025-01-01_2025-01-31&metric=sessions';
    expect((await rt.get(path)).status).toBe(200);
    // The CSV answer is another REST response, built from the same cached provider report.
    expect((await rt.get(`${path}&format=csv`)).status).toBe(200);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);
    expect(delta('siteline_upstream_calls_total', { provider: 'analytics', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(delta('siteline_cache_results_total', { provider: 'analytics', state: 'miss' })).toBeGreaterThanOrEqual(1);
    expect(delta('siteline_cache_results_total', { provider: 'analytics', state: 'hit' })).toBeGreaterThanOrEqual(1);
  });

  it('counts failed provider calls under their error code (last: it revokes the credential)', async () => {
    const labels = { provider: 'analytics', outcome: 'upstream_credential_invalid' };
    const before = sample(await scrape(), 'siteline_upstream_calls_total', labels);
    rt.sandbox.setFaults({ revoked: { oauth: true, serviceAccount: true, bingKey: true } });
    try {
      const res = await rt.get('/api/v1/metrics/acme-shop/summary?period=custom_2024-03-01_2024-03-07');
      expect(res.status).toBe(424);
    } finally {
      rt.sandbox.clearFaults();
    }
    expect(sample(await scrape(), 'siteline_upstream_calls_total', labels)).toBe(before + 1);
  });
});

describe('rate-limit rejections', () => {
  it('are counted per limit', async () => {
    const rt = await createTestRuntime({ shared: { limits: { request: { name: 'default', points: 2, windowSec: 60 } } } });
    try {
      const { key } = await createAccountWithKey(rt, { email: 'a@example.com', projects: ['p1'] });
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await rt.request('/api/v1/projects/list', { key })).status);
      expect(statuses).toEqual([200, 200, 429]);
      const text = await (await rt.request('/metrics')).text();
      expect(sample(text, 'siteline_rate_limit_rejections_total', { limit: 'request' })).toBe(1);
      expect(sample(text, 'siteline_http_requests_total', { route: '/api/v1/projects/list', status_class: '4xx' })).toBe(1);
    } finally {
      await rt.dispose();
    }
  });
});

describe('METRICS_ENABLED=false', () => {
  it('serves no /metrics and records nothing', async () => {
    const rt = await createTestRuntime({ env: { METRICS_ENABLED: 'false' } });
    try {
      expect(rt.metrics).toBeUndefined();
      const res = await rt.request('/metrics');
      expect(res.status).toBe(404);
      expect((await res.json()).code).toBe('not_found');
    } finally {
      await rt.dispose();
    }
  });
});

describe('METRICS_PORT', () => {
  it('serves /metrics on its own port only, and not on the API port', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'siteline-metrics-'));
    const settings = loadSettings({ DATA_DIR: dataDir, PORT: '0', METRICS_PORT: '0', SITELINE_SANDBOX: 'off', LOG_LEVEL: 'silent', SITELINE_SECRET_KEY: randomBytes(32).toString('base64') });
    const running = await serveRuntime(await createRuntime(settings, { logger: silentLogger() }), settings);
    try {
      const api = running.url.replace(/\/+$/, '');
      const metricsBase = running.metricsUrl!.replace(/\/+$/, '');
      expect(metricsBase).not.toBe(api);
      expect((await fetch(`${api}/healthz`)).status).toBe(200);
      expect((await fetch(`${api}/metrics`)).status).toBe(404);
      const res = await fetch(`${metricsBase}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(sample(await res.text(), 'siteline_http_requests_total', { route: '/healthz', status_class: '2xx' })).toBe(1);
      expect((await fetch(`${metricsBase}/api/v1/projects/list`)).status).toBe(404);
    } finally {
      await running.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
    await expect(fetch(`${running.metricsUrl}metrics`)).rejects.toThrow();
  });
});

describe('createMetrics()', () => {
  it('keeps registries apart and labels bounded', async () => {
    const a = createMetrics({ defaultMetrics: false });
    const b = createMetrics({ defaultMetrics: false });
    a.observeHttp({ method: 'BREW', route: '/x', status: 418, seconds: 0.01 });
    a.recordCache('engine2:https://example.com/', 'stale');
    a.recordCache('weird', 'hit');
    a.recordRateLimited('force');
    const text = await a.render();
    expect(sample(text, 'siteline_http_requests_total', { method: 'OTHER', route: '/x', status_class: '4xx' })).toBe(1);
    expect(sample(text, 'siteline_cache_results_total', { provider: 'engine2', state: 'stale' })).toBe(1);
    expect(sample(text, 'siteline_cache_results_total', { provider: 'other', state: 'hit' })).toBe(1);
    expect(sample(text, 'siteline_rate_limit_rejections_total', { limit: 'force' })).toBe(1);
    expect(text).not.toContain('example.com');
    expect(await b.render()).not.toMatch(/^siteline_http_requests_total\{/m);
  });
});
