// Oracle for sp=all: the same period fetched straight from the sandbox's engine1 and engine2 endpoints, combined
// here by the documented combining rules written out independently, must equal what Siteline answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bingDay, sandboxDirect, type SandboxDirect } from '../helpers/sandbox-direct.ts';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';

let rt: SandboxRuntime;
let direct: SandboxDirect;
const SITE = 'https://www.acme-shop.example/';

beforeAll(async () => {
  rt = await createSandboxRuntime();
  direct = sandboxDirect(rt.sandbox);
});
afterAll(() => rt.dispose());

interface Fig {
  clicks: number;
  impressions: number;
  posWeight: number;
}
const add = (a: Fig | undefined, clicks: number, impressions: number, position: number): Fig => ({
  clicks: (a?.clicks ?? 0) + clicks,
  impressions: (a?.impressions ?? 0) + impressions,
  posWeight: (a?.posWeight ?? 0) + position * impressions,
});

type GscRow = { keys: string[]; clicks: number; impressions: number; position: number };

/** Every row, paging with startRow until a short page. */
async function gscRows(body: Record<string, unknown>, site = SITE) {
  const rows: GscRow[] = [];
  for (;;) {
    const res = await direct.google('POST', `/webmasters/v3/sites/${encodeURIComponent(site)}/searchAnalytics/query`, { type: 'web', dataState: 'all', rowLimit: 25000, startRow: rows.length, ...body });
    expect(res.status).toBe(200);
    const page = (JSON.parse(res.text) as { rows?: GscRow[] }).rows ?? [];
    rows.push(...page);
    if (page.length < 25000) return rows;
  }
}

async function bingRows(method: string, site = SITE) {
  const res = await direct.bing(method, { siteUrl: site });
  expect(res.status).toBe(200);
  return (JSON.parse(res.text) as { d: { Date: string; Clicks: number; Impressions: number; Query?: string; AvgImpressionPosition?: number }[] }).d;
}

const inRange = (day: string, start: string, end: string) => day >= start && day <= end;

describe('sp=all oracle', () => {
  it('search summary totals = engine1 daily sums + engine2 daily traffic, CTR recomputed, position impression-weighted', async () => {
    const { status, body } = await rt.get('/api/v1/metrics/acme-shop/search/summary?period=28days&compare=none');
    expect(status).toBe(200);
    const { start, end } = body.period as { start: string; end: string };

    let e1: Fig | undefined;
    for (const r of await gscRows({ startDate: start, endDate: end, dimensions: ['date'] })) e1 = add(e1, r.clicks, r.impressions, r.position);
    let e2: Fig | undefined;
    for (const r of await bingRows('GetRankAndTrafficStats')) if (inRange(bingDay(r.Date), start, end)) e2 = add(e2, r.Clicks, r.Impressions, 0);

    const clicks = e1!.clicks + e2!.clicks;
    const impressions = e1!.impressions + e2!.impressions;
    expect(body.totals.clicks).toBe(clicks);
    expect(body.totals.impressions).toBe(impressions);
    expect(body.totals.ctr).toBeCloseTo(clicks / impressions, 12);
    // engine2 site traffic has no position: the combined position is engine1's impression-weighted one.
    expect(body.totals.position).toBeCloseTo(e1!.posWeight / e1!.impressions, 9);
    expect(body.byProvider.engine1.clicks).toBe(e1!.clicks);
    expect(body.byProvider.engine2).toMatchObject({ clicks: e2!.clicks, impressions: e2!.impressions, position: null });
  });

  it('search timeseries points = per-day sums of both engines', async () => {
    const { body } = await rt.get('/api/v1/metrics/acme-shop/search/timeseries?period=7days&interval=day');
    const { start, end } = body.period as { start: string; end: string };
    const perDay = new Map<string, Fig>();
    for (const r of await gscRows({ startDate: start, endDate: end, dimensions: ['date'] })) perDay.set(r.keys[0]!, add(perDay.get(r.keys[0]!), r.clicks, r.impressions, r.position));
    for (const r of await bingRows('GetRankAndTrafficStats')) {
      const day = bingDay(r.Date);
      if (inRange(day, start, end)) perDay.set(day, add(perDay.get(day), r.Clicks, r.Impressions, 0));
    }
    expect(body.points).toHaveLength(7);
    for (const point of body.points as { date: string; clicks: number; impressions: number; ctr: number }[]) {
      const want = perDay.get(point.date) ?? { clicks: 0, impressions: 0, posWeight: 0 };
      expect(point).toMatchObject({ clicks: want.clicks, impressions: want.impressions });
      expect(point.ctr).toBeCloseTo(want.impressions ? want.clicks / want.impressions : 0, 12);
    }
  });

  it('query breakdown = engine1 query rows + engine2 weekly query rows starting in the period, matched on the normalised query', async () => {
    // northwind-journal: engine1 is a domain property, engine2 a URL-prefix site.
    const { status, body } = await rt.get('/api/v1/metrics/northwind-journal/search/dimension?dimension=query&period=28days&limit=25');
    expect(status).toBe(200);
    const { start, end } = body.period as { start: string; end: string };
    const norm = (q: string) => q.normalize('NFC').toLowerCase().replace(/\s+/g, ' ').trim();
    const merged = new Map<string, Fig>();
    for (const r of await gscRows({ startDate: start, endDate: end, dimensions: ['query'] }, 'sc-domain:northwind-journal.example')) {
      merged.set(norm(r.keys[0]!), add(merged.get(norm(r.keys[0]!)), r.clicks, r.impressions, r.position));
    }
    for (const r of await bingRows('GetQueryStats', 'https://northwind-journal.example/')) {
      if (inRange(bingDay(r.Date), start, end)) merged.set(norm(r.Query!), add(merged.get(norm(r.Query!)), r.Clicks, r.Impressions, r.AvgImpressionPosition ?? 0));
    }
    const expected = [...merged.entries()]
      .map(([key, f]) => ({ key, ...f }))
      .sort((a, b) => b.clicks - a.clicks || b.impressions - a.impressions || (a.key < b.key ? -1 : 1));
    expect(body.totalRows).toBe(expected.length);
    (body.rows as { query: string; clicks: number; impressions: number; ctr: number; position: number }[]).forEach((row, i) => {
      const want = expected[i]!;
      expect(row.query).toBe(want.key);
      expect(row.clicks).toBe(want.clicks);
      expect(row.impressions).toBe(want.impressions);
      expect(row.ctr).toBeCloseTo(want.impressions ? want.clicks / want.impressions : 0, 12);
      expect(row.position).toBeCloseTo(want.posWeight / want.impressions, 9);
    });
  });
});
