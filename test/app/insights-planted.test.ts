// Insights against planted truths (the sandbox's scenarios): a country losing 40% is the top driver and the only
// significant one (its echoes in devices and channels are not), its first day is an anomaly of that country, and
// two pages planted to compete for a query are reported as emerging cannibalisation.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';
import { expectEvery } from '../helpers/expect-every.ts';

let rt: SandboxRuntime;
beforeAll(async () => {
  rt = await createSandboxRuntime();
});
afterAll(() => rt.dispose());
afterEach(() => rt.sandbox.fetch(new Request('http://sandbox.test/__sandbox/scenarios', { method: 'DELETE' })));

async function plant(events: unknown[]): Promise<void> {
  const res = await rt.sandbox.fetch(new Request('http://sandbox.test/__sandbox/scenarios', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ events }) }));
  expect(res.status).toBe(200);
}

const GERMANY = { kind: 'segment_shift', property: '314159265', dimension: 'country', value: 'Germany', from: '2026-10-01', factor: 0.6 };

describe('insights on planted data', () => {
  it('Germany −40%: the top driver, significant; every other driver is not', async () => {
    await plant([GERMANY]);
    const { status, body } = await rt.get('/api/v1/metrics/acme-shop/insights/changes?period=custom_2026-10-01_2026-10-14&force=1');
    expect(status).toBe(200);
    const drivers = body.drivers as { dimension: string; value: string; significant: boolean; reason?: string; share: number }[];
    expect(drivers[0]).toMatchObject({ dimension: 'country', value: 'Germany', significant: true });
    expect(drivers[0]!.share).toBeGreaterThan(0.5);
    expectEvery(drivers.slice(1), (d) => !d.significant && ['echo', 'in_line', 'small'].includes(d.reason!));
    expect(drivers.filter((d) => d.dimension === 'deviceCategory').length).toBeGreaterThan(0);
  }, 60_000);

  it("Germany −40%: its first day is an anomaly of Germany's own series", async () => {
    await plant([GERMANY]);
    const { body } = await rt.get('/api/v1/metrics/acme-shop/insights/anomalies?period=custom_2026-08-01_2026-10-29&force=1');
    const found = (body.anomalies as { date: string; direction: string; segment?: { dimension: string; value: string } }[]).find((a) => a.date === '2026-10-01');
    expect(found).toMatchObject({ direction: 'down', segment: { dimension: 'country', value: 'Germany' } });
  }, 60_000);

  it('two pages planted to compete for a query: emerging cannibalisation with both pages', async () => {
    await plant([{ kind: 'cannibalisation', site: 'https://app.tiny-saas.example/', query: 'zapier', pages: ['/pricing', '/blog/time-tracking'], from: '2026-11-01' }]);
    const { body } = await rt.get('/api/v1/metrics/tiny-saas/insights/search-opportunities?period=custom_2026-11-01_2026-11-14&force=1');
    const found = (body.opportunities as { kind: string; query?: string; pages?: string[]; emerging?: boolean }[]).find((o) => o.kind === 'cannibalisation' && o.query === 'zapier');
    expect(found?.emerging).toBe(true);
    expect(found?.pages).toEqual(expect.arrayContaining(['https://app.tiny-saas.example/pricing', 'https://app.tiny-saas.example/blog/time-tracking']));
  }, 60_000);
});
