// Upstream faults through the whole app: a rejected credential is a 424 (never a 401) and shows on the data
// source; 5xx bursts are retried; persistent failures answer with a stale copy when one exists.
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { connectSource } from '../../src/store/data-sources-repository.ts';
import { createProject, grantProjectAccess } from '../../src/store/projects-repository.ts';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';

let rt: SandboxRuntime;
const RESILIENCE = { attemptTimeoutMs: 2_000, deadlineMs: 5_000, backoffInitialMs: 1, backoffMaxMs: 5, breakerThreshold: 1000 };
beforeAll(async () => {
  rt = await createSandboxRuntime({ providerResilience: RESILIENCE });
});
afterAll(() => rt.dispose());
beforeEach(() => {
  rt.sandbox.clearFaults();
  rt.sandbox.resetStats();
});

describe('upstream failures', () => {
  it('answers 424 for a revoked credential and marks the data source, then recovers', async () => {
    // Its own runtime: no access token cached by another test, so the revocation shows at the token grant.
    const rt = await createSandboxRuntime({ providerResilience: RESILIENCE });
    onTestFinished(() => rt.dispose());
    rt.sandbox.setFaults({ revoked: { serviceAccount: true } });
    const failed = await rt.get('/api/v1/metrics/tiny-saas/summary?period=custom_2026-01-01_2026-01-31');
    expect(failed.status).toBe(424);
    expect(failed.body).toMatchObject({ code: 'upstream_credential_invalid', provider: 'analytics' });
    expect(JSON.stringify(failed.body)).not.toMatch(/private_key|BEGIN|ya29|googleapis\.com/);
    const project = await rt.get('/api/v1/projects/tiny-saas');
    expect(project.body.project.dataSources.analytics).toMatchObject({ status: 'error', message: expect.stringContaining('invalid_grant') });

    rt.sandbox.clearFaults();
    const ok = await rt.get('/api/v1/metrics/tiny-saas/summary?period=custom_2026-01-01_2026-01-31');
    expect(ok.status).toBe(200);
    const healed = await rt.get('/api/v1/projects/tiny-saas');
    expect(healed.body.project.dataSources.analytics.status).toBe('ok');
  });

  it('a source stored without a probe is pending until a call with its credential succeeds, then OK', async () => {
    const project = await createProject(rt.store.db, { key: 'unprobed', name: 'Unprobed', domain: 'northwind-journal.example' });
    await grantProjectAccess(rt.store.db, rt.demo.accountId, project.id);
    await connectSource(rt.store.db, rt.box, project.id, 'engine2', { siteUrl: 'https://northwind-journal.example/', credential: { kind: 'api_key', secret: rt.sandbox.credentials.bingApiKey } });
    expect((await rt.get('/api/v1/projects/unprobed')).body.project.dataSources.engine2.status).toBe('pending');
    expect((await rt.get('/api/v1/metrics/unprobed/search/summary?sp=engine2')).status).toBe(200);
    expect((await rt.get('/api/v1/projects/unprobed')).body.project.dataSources.engine2.status).toBe('ok');
  });

  it('answers a quota 429 once, without retrying, with Retry-After until the quota returns', async () => {
    rt.sandbox.setFaults({ analytics: { burst429: 2 } });
    const res = await rt.get('/api/v1/metrics/northwind-journal/summary?period=custom_2026-02-01_2026-02-28');
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code: 'upstream_quota_exhausted', provider: 'analytics' });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    expect(rt.sandbox.stats().analytics).toEqual({ batchRunReports: 1 });
  });

  it('a setup error is a 424 naming the cause, keeps the provider message, and shows on the data source', async () => {
    const property = rt.sandbox.catalogue.find((s) => s.key === 'tiny-saas')!.analytics.propertyId;
    rt.sandbox.setFaults({ targets: { [property]: { failure: 'service_disabled' } } });
    const res = await rt.get('/api/v1/metrics/tiny-saas/summary?period=custom_2026-06-01_2026-06-30');
    expect(res.status).toBe(424);
    expect(res.body).toMatchObject({ code: 'upstream_api_disabled', provider: 'analytics', upstream: { reason: 'SERVICE_DISABLED' } });
    expect(res.body.detail).toContain('Google Analytics Data API is not enabled');
    const project = await rt.get('/api/v1/projects/tiny-saas');
    expect(project.body.project.dataSources.analytics).toMatchObject({ status: 'error' });
    expect(project.body.project.dataSources.analytics.message).toContain('not enabled');
    rt.sandbox.clearFaults();
  });

  it('reports the property quota left in meta.quota', async () => {
    const res = await rt.get('/api/v1/metrics/northwind-journal/summary?period=custom_2026-05-01_2026-05-31');
    expect(res.status).toBe(200);
    expect(res.body.meta.quota.tokensPerHour).toBeGreaterThan(30_000);
    expect(res.body.meta.quota.tokensPerDay).toBeGreaterThan(100_000);
  });

  it('serves a stale copy with a warning when the provider fails', async () => {
    const path = '/api/v1/metrics/northwind-journal/summary?period=custom_2026-03-01_2026-03-31';
    expect((await rt.get(path)).status).toBe(200);
    rt.sandbox.setFaults({ analytics: { errorRate: 1 } });
    const forced = await rt.get(`${path}&force=1`);
    expect(forced.status).toBe(200);
    expect(forced.body.meta.cache).toBe('stale');
    expect(forced.body.meta.warnings.map((w: { code: string }) => w.code)).toContain('stale_data');
  });

  it('answers 502 when the provider keeps failing and nothing is cached', async () => {
    rt.sandbox.setFaults({ analytics: { errorRate: 1 } });
    const res = await rt.get('/api/v1/metrics/tiny-saas/summary?period=custom_2026-04-01_2026-04-30');
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: 'upstream_error', provider: 'analytics' });
  });
});
