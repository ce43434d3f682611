// The analytics property is the source of truth for days and money: a property in Los Angeles on a project left
// at UTC answers in Pacific days and hours (with warnings saying so), and hourly series keep every hour.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';

let rt: SandboxRuntime;
let property: string;
beforeAll(async () => {
  rt = await createSandboxRuntime();
  property = rt.sandbox.catalogue.find((s) => s.key === 'tiny-saas')!.analytics.propertyId;
  // tiny-saas is a UTC / USD project; its property now says Los Angeles and euros.
  rt.sandbox.setFaults({ targets: { [property]: { timeZone: 'America/Los_Angeles', currencyCode: 'EUR' } } });
});
afterAll(async () => {
  await rt.dispose();
});

const codes = (body: any): string[] => body.meta.warnings.map((w: { code: string }) => w.code);

describe('property time zone and currency', () => {
  it('reads the property settings from the first report, then resolves analytics periods in the property zone', async () => {
    const first = await rt.get('/api/v1/metrics/tiny-saas/summary?period=7days');
    expect(first.status).toBe(200);
    expect(first.body.period.timezone).toBe('UTC');
    expect(codes(first.body)).toContain('timezone_changed');

    const second = await rt.get('/api/v1/metrics/tiny-saas/summary?period=28days');
    expect(second.status).toBe(200);
    expect(second.body.period.timezone).toBe('America/Los_Angeles');
    expect(codes(second.body)).toEqual(expect.arrayContaining(['timezone_mismatch', 'currency_mismatch']));
    expect(codes(second.body)).not.toContain('timezone_changed');
    expect(second.body.meta.warnings.find((w: { code: string }) => w.code === 'timezone_mismatch').message).toContain('America/Los_Angeles');
  });

  it('hourly series are in the property zone and keep every hour: the points add up to the total', async () => {
    const res = await rt.get('/api/v1/metrics/tiny-saas/timeseries?metric=screenPageViews&period=yesterday&interval=hour');
    expect(res.status).toBe(200);
    expect(res.body.period.timezone).toBe('America/Los_Angeles');
    expect([23, 24, 25]).toContain(res.body.points.length);
    for (const point of res.body.points) expect(point.time).toMatch(/-0[78]:00$/);
    const sum = res.body.points.reduce((acc: number, p: { value: number }) => acc + p.value, 0);
    expect(sum).toBe(res.body.total);
    expect(sum).toBeGreaterThan(0);
  });

  it('search answers keep their own (Pacific) days and are not warned about the analytics zone', async () => {
    const res = await rt.get('/api/v1/metrics/tiny-saas/search/summary?period=28days&sp=engine1');
    expect(res.status).toBe(200);
    expect(codes(res.body)).not.toContain('timezone_mismatch');
  });
});
