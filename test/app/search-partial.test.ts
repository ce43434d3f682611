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
