// Landing pages join search pages on their path within the site's hosts (www and apex of an sc-domain: property,
// the engine2 site's host) and name hosts that do not belong; analytics days GA is still processing are flagged
// and cached briefly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/domain/calendar.ts';
import { todayInZone } from '../../src/domain/time-zone.ts';
import { analyticsReportPolicy, reportPolicy } from '../../src/cache/upstream-policy.ts';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';

let rt: SandboxRuntime;
beforeAll(async () => {
  rt = await createSandboxRuntime();
});
afterAll(async () => {
  await rt.dispose();
});

const site = (key: string) => rt.sandbox.catalogue.find((s) => s.key === key)!;
const codes = (body: any): string[] => body.meta.warnings.map((w: { code: string }) => w.code);
const sum = (rows: { clicks: number }[]) => rows.reduce((acc, r) => acc + r.clicks, 0);

describe('landing pages across the site\'s hosts', () => {
  it('joins www and apex pages of an sc-domain: property onto the analytics paths, without warnings', async () => {
    const northwind = site('northwind-journal');
    rt.sandbox.setFaults({ targets: { [northwind.engine1.siteUrl]: { hosts: ['https://www.northwind-journal.example', 'https://northwind-journal.example'] } } });
    const period = 'custom_2026-03-01_2026-03-28';
    const landing = await rt.get(`/api/v1/metrics/northwind-journal/landing-pages?period=${period}&sp=engine1&limit=1000`);
    expect(landing.status).toBe(200);
    const searchPages = await rt.get(`/api/v1/metrics/northwind-journal/search/dimension?dimension=page&period=${period}&sp=engine1&limit=1000`);
    expect(searchPages.body.rows.some((r: { page: string }) => r.page.startsWith('https://www.'))).toBe(true);
    expect(landing.body.rows.some((r: { page: string }) => r.page.startsWith('https://www.'))).toBe(false);
    expect(codes(landing.body)).not.toContain('unmatched_hosts');
    const joined = landing.body.rows.filter((r: { sessions: number; clicks: number }) => r.sessions > 0 && r.clicks > 0);
    expect(joined.length).toBeGreaterThan(0);
    expect(sum(landing.body.rows)).toBe(sum(searchPages.body.rows));
  });

  it('names the hosts whose search pages are not on the site', async () => {
    const shop = site('acme-shop');
    rt.sandbox.setFaults({ targets: { [shop.engine2.siteUrl]: { hosts: ['https://shop.elsewhere.example'] } } });
    const res = await rt.get('/api/v1/metrics/acme-shop/landing-pages?period=28days&sp=engine2');
    expect(res.status).toBe(200);
    const warning = res.body.meta.warnings.find((w: { code: string }) => w.code === 'unmatched_hosts');
    expect(warning.message).toContain('shop.elsewhere.example');
    expect(warning.message).toContain('www.acme-shop.example');
  });
});

describe('analytics freshness', () => {
  it('flags the days GA is still processing and names them', async () => {
    const res = await rt.get('/api/v1/metrics/tiny-saas/summary?period=7days');
    const warning = res.body.meta.warnings.find((w: { code: string }) => w.code === 'incomplete_data');
    const today = todayInZone('UTC', new Date());
    expect(warning.message).toContain(`${addDays(today, -2)} to ${addDays(today, -1)}`);
    const settled = await rt.get('/api/v1/metrics/tiny-saas/summary?period=custom_2026-01-01_2026-01-31');
    expect(codes(settled.body)).not.toContain('incomplete_data');
  });

  it('caches periods reaching into those days for 15 minutes at most, settled ones as before', () => {
    const now = new Date('2026-06-10T12:00:00Z');
    expect(analyticsReportPolicy('2026-06-09', 'UTC', now).freshMs).toBe(15 * 60_000);
    expect(analyticsReportPolicy('2026-06-08', 'UTC', now).freshMs).toBe(15 * 60_000);
    expect(reportPolicy('2026-06-08', 'UTC', now).freshMs).toBeGreaterThan(15 * 60_000);
    expect(analyticsReportPolicy('2026-06-01', 'UTC', now)).toEqual(reportPolicy('2026-06-01', 'UTC', now));
  });
});
