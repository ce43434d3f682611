// sp=all degrades gracefully: when one engine's provider fails, the other one's data is served with a warning;
// asked for alone, the failing engine is still an error.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';

let rt: SandboxRuntime;
beforeAll(async () => {
  rt = await createSandboxRuntime({ providerResilience: { backoffInitialMs: 1, backoffMaxMs: 5, breakerThreshold: 1000 } });
});
afterAll(() => rt.dispose());
beforeEach(() => rt.sandbox.clearFaults());

describe('sp=all with a failing engine', () => {
  it.each([
    ['search summary', '/api/v1/metrics/acme-shop/search/summary?period=custom_2026-05-01_2026-05-31'],
    ['search timeseries', '/api/v1/metrics/acme-shop/search/timeseries?period=custom_2026-05-01_2026-05-31'],
    ['search breakdown', '/api/v1/metrics/acme-shop/search/dimension?dimension=query&period=custom_2026-05-01_2026-05-31'],
    ['landing pages', '/api/v1/metrics/acme-shop/landing-pages?period=custom_2026-05-01_2026-05-31'],
  ])('%s serves engine2 alone with a source_failed warning when engine1 fails', async (_name, path) => {
    rt.sandbox.setFaults({ engine1: { errorRate: 1 } });
    const { status, body } = await rt.get(path);
    expect(status).toBe(200);
    expect(body.meta.warnings.find((w: { code: string }) => w.code === 'source_failed')?.message).toMatch(/^engine1 could not answer \(upstream_error\)/);
    expect(body.meta.sources).not.toContain('engine1');
    expect(body.meta.sources).toContain('engine2');
  });

  it('still fails when the failing engine was asked for alone', async () => {
    rt.sandbox.setFaults({ engine1: { errorRate: 1 } });
    const { status, body } = await rt.get('/api/v1/metrics/acme-shop/search/summary?period=custom_2026-06-01_2026-06-30&sp=engine1');
    expect(status).toBe(502);
    expect(body).toMatchObject({ code: 'upstream_error', provider: 'engine1' });
  });

});

describe('sp=all with both engines failing', () => {
  // northwind-journal: nothing of it is cached by the tests above (engine2 answers whole histories, cached per site).
  it.each([
    ['search summary', '/api/v1/metrics/northwind-journal/search/summary?period=custom_2026-07-01_2026-07-31'],
    ['search timeseries', '/api/v1/metrics/northwind-journal/search/timeseries?period=custom_2026-07-01_2026-07-31'],
    ['search breakdown', '/api/v1/metrics/northwind-journal/search/dimension?dimension=query&period=custom_2026-07-01_2026-07-31'],
    ['landing pages', '/api/v1/metrics/northwind-journal/landing-pages?period=custom_2026-07-01_2026-07-31'],
  ])('%s answers 502 when both engines fail and nothing is cached (never 200 with zeros)', async (_name, path) => {
    rt.sandbox.setFaults({ engine1: { errorRate: 1 }, engine2: { errorRate: 1 } });
    const { status, body } = await rt.get(path);
    expect(status).toBe(502);
    expect(body).toMatchObject({ code: 'upstream_error', status: 502 });
    expect(['engine1', 'engine2']).toContain(body.provider);
  });

  it.each([
    ['search summary', '/api/v1/metrics/acme-shop/search/summary?period=custom_2026-08-01_2026-08-31'],
    ['search breakdown', '/api/v1/metrics/acme-shop/search/dimension?dimension=query&period=custom_2026-08-01_2026-08-31'],
  ])('%s serves both engines stale with a warning each when both fail after a cached answer', async (_name, path) => {
    const fresh = await rt.get(path);
    expect(fresh.status).toBe(200);
    rt.sandbox.setFaults({ engine1: { errorRate: 1 }, engine2: { errorRate: 1 } });
    const { status, body } = await rt.get(`${path}&force=1`);
    expect(status).toBe(200);
    expect(body.meta.cache).toBe('stale');
    expect(body.meta.sources).toEqual(['engine1', 'engine2']);
    // One stale_data warning per cached part that could not be refreshed (engine2's breakdown has two parts).
    expect(body.meta.warnings.filter((w: { code: string }) => w.code === 'stale_data').length).toBeGreaterThanOrEqual(2);
    expect(body.meta.warnings.map((w: { code: string }) => w.code)).not.toContain('source_failed');
    const { meta: _freshMeta, ...freshData } = fresh.body;
    const { meta: _staleMeta, ...staleData } = body;
    expect(staleData).toEqual(freshData);
  });
});
