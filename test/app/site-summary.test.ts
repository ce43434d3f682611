// GET /metrics/{projectKey}/summary against the in-process sandbox: shape, comparison, batching and caching.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SUMMARY_METRICS } from '../../src/domain/catalogue.ts';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';

let rt: SandboxRuntime;
beforeAll(async () => {
  rt = await createSandboxRuntime();
});
afterAll(() => rt.dispose());
beforeEach(() => rt.sandbox.resetStats());

const analyticsCalls = () => rt.sandbox.stats().analytics ?? {};

describe('GET /api/v1/metrics/{projectKey}/summary', () => {
  it('returns every headline metric compared with the previous period, in one upstream call', async () => {
    const { status, body } = await rt.get('/api/v1/metrics/acme-shop/summary?period=28days');
    expect(status).toBe(200);
    expect(body.project).toBe('acme-shop');
    expect(body.period).toMatchObject({ name: '28days', timezone: 'Europe/Berlin' });
    expect(body.period.previous).toBeDefined();
    expect(Object.keys(body.metrics).sort()).toEqual([...SUMMARY_METRICS].sort());
    for (const name of SUMMARY_METRICS) {
      const m = body.metrics[name];
      expect(m, name).toMatchObject({ value: expect.any(Number), previous: expect.any(Number) });
      expect(m.delta).toBeCloseTo(m.value - m.previous, 6);
    }
    expect(body.metrics.sessions.value).toBeGreaterThan(0);
    expect(body.meta).toMatchObject({ cache: 'miss', sources: ['analytics'] });
    // The last two days are still being processed by the provider; nothing else is worth a warning.
    expect(body.meta.warnings.map((w: { code: string }) => w.code)).toEqual(['incomplete_data']);
    expect(analyticsCalls()).toEqual({ batchRunReports: 1 });
  });

  it('answers a warm repeat from the cache without any upstream call', async () => {
    await rt.get('/api/v1/metrics/tiny-saas/summary?period=7days');
    rt.sandbox.resetStats();
    const { body, headers } = await rt.get('/api/v1/metrics/tiny-saas/summary?period=7days');
    expect(body.meta.cache).toBe('hit');
    expect(headers.get('cache-status')).toBe('siteline; hit');
    expect(Number(headers.get('age'))).toBeGreaterThanOrEqual(0);
    expect(rt.sandbox.stats().total).toBe(0);
  });

  it('never answers another credential from the REST micro-cache', async () => {
    const path = '/api/v1/metrics/acme-shop/summary?period=90days';
    expect((await rt.get(path)).status).toBe(200);
    const { createAccountWithKey } = await import('../helpers/test-runtime.ts');
    const stranger = await createAccountWithKey(rt as never, { email: 'stranger@example.com', projects: ['elsewhere'] });
    const res = await rt.request(path, { key: stranger.key });
    expect(res.status).toBe(404);
    const restricted = await rt.apiKeys.create(rt.demo.accountId, { projectKeys: ['tiny-saas'] });
    expect((await rt.request(path, { key: restricted.key })).status).toBe(404);
  });

  it('gives plain numbers with compare=none and echoes no previous range', async () => {
    const { body } = await rt.get('/api/v1/metrics/acme-shop/summary?period=7days&compare=none');
    expect(typeof body.metrics.sessions).toBe('number');
    expect(body.period.previous).toBeUndefined();
  });

  it('force=1 refreshes the cache', async () => {
    await rt.get('/api/v1/metrics/northwind-journal/summary?period=7days');
    rt.sandbox.resetStats();
    const { body, headers } = await rt.get('/api/v1/metrics/northwind-journal/summary?period=7days&force=1');
    expect(body.meta.cache).toBe('refresh');
    expect(headers.get('cache-status')).toContain('fwd=request');
    expect(analyticsCalls()).toEqual({ batchRunReports: 1 });
  });

  it('rejects bad parameters with the parameter named', async () => {
    for (const [query, param, code] of [
      ['period=8days', 'period', 'invalid_period'],
      ['period=custom_2026-02-01_2026-01-01', 'period', 'invalid_period'],
      ['compare=lastyear', 'compare', 'invalid_parameter'],
      ['force=yes', 'force', 'invalid_parameter'],
    ] as const) {
      const { status, body } = await rt.get(`/api/v1/metrics/acme-shop/summary?${query}`);
      expect(status, query).toBe(400);
      expect(body).toMatchObject({ code, param });
    }
  });

  it('404s for an unknown project', async () => {
    expect((await rt.get('/api/v1/metrics/nope/summary')).status).toBe(404);
  });

  it('answers a period starting on the earliest day with a null comparison, not a 0', async () => {
    const { status, body } = await rt.get('/api/v1/metrics/tiny-saas/summary?period=custom_2015-08-14_2015-09-01');
    expect(status).toBe(200);
    expect(body.period.previous).toEqual({ start: '2015-07-26', end: '2015-08-13' });
    expect(body.metrics.sessions).toEqual({ value: 0, previous: null, delta: null, deltaPct: null });
    expect(body.meta.warnings.map((w: { code: string }) => w.code)).toContain('comparison_unavailable');
  });

  it('marks today as partial', async () => {
    const { body } = await rt.get('/api/v1/metrics/acme-shop/summary?period=today');
    expect(body.meta.warnings.map((w: { code: string }) => w.code)).toContain('partial_period');
  });
});
