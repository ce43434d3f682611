// Property tests of the generated data: breakdowns sum to totals, users ≤ sessions ≤ views, funnels never
// grow, two instances agree, filters select subsets and NOT complements, and pages concatenate to one page.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/sandbox.ts';
import { accessToken, gaUrl, gscUrl, JOURNAL_SITE, LARGE, MEDIUM, num, post, report, SHOP_SITE, SMALL, testSandbox, type Json } from './helpers.ts';

const PROPERTIES = [LARGE, MEDIUM, SMALL];
const BREAKDOWNS = ['country', 'deviceCategory', 'pagePath', 'sessionDefaultChannelGroup', 'browser', 'city', 'landingPage', 'date', 'dayOfWeek', 'customEvent:plan_tier'];
const ADDITIVE = ['sessions', 'totalUsers', 'activeUsers', 'screenPageViews', 'eventCount', 'engagedSessions', 'keyEvents'];
/** Counted once however many rows they appear in (as in GA): users always, sessions over pages (a session views several). */
const COUNTED_ONCE = (dim: string) => new Set(dim === 'pagePath' ? ['sessions', 'totalUsers', 'activeUsers', 'engagedSessions'] : ['totalUsers', 'activeUsers']);

const day = fc.integer({ min: 0, max: 400 });
const range = fc.tuple(day, fc.integer({ min: 0, max: 60 })).map(([end, span]) => ({ startDate: `${end + span}daysAgo`, endDate: `${end}daysAgo` }));

let sandbox: Sandbox;
let token: string;
beforeAll(async () => {
  sandbox = await testSandbox();
  token = await accessToken(sandbox);
});

async function ga(property: string, body: Json): Promise<Json> {
  const res = await post(sandbox, token, gaUrl(property, 'runReport'), body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

// Property runs of up to 25 reports each: alone a few seconds, but minutes' worth of CPU when the suite shares two cores.
describe('analytics consistency', { timeout: 90_000 }, () => {
  it('additive metrics sum exactly to the totals row; users (and sessions over pages) sum to at least it; the totals row is the unbroken report', async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom(...PROPERTIES), fc.constantFrom(...BREAKDOWNS), range, async (property, dim, dr) => {
      const metrics = ADDITIVE.map((name) => ({ name }));
      const broken = await ga(property, { dateRanges: [dr], dimensions: [{ name: dim }], metrics, metricAggregations: ['TOTAL'], limit: 100000 });
      const whole = await ga(property, { dateRanges: [dr], metrics });
      const sums = ADDITIVE.map((_, i) => (broken.rows ?? []).reduce((a: number, r: Json) => a + num(r.metricValues[i]), 0));
      const totals = broken.totals ? broken.totals[0].metricValues.map(num) : ADDITIVE.map(() => 0);
      const expected = whole.rows ? whole.rows[0].metricValues.map(num) : ADDITIVE.map(() => 0);
      const once = COUNTED_ONCE(dim);
      ADDITIVE.forEach((name, i) => {
        if (once.has(name)) expect(sums[i], name).toBeGreaterThanOrEqual(totals[i]!);
        else expect(sums[i], name).toBe(totals[i]);
        expect(totals[i], name).toBe(expected[i]);
      });
    }), { numRuns: 25 });
  });

  it('keeps users ≤ sessions ≤ views on every row of any breakdown', async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom(...PROPERTIES), fc.subarray(BREAKDOWNS, { minLength: 1, maxLength: 2 }), range, async (property, dims, dr) => {
      const body = await ga(property, {
        dateRanges: [dr], dimensions: dims.map((name) => ({ name })), metrics: [{ name: 'activeUsers' }, { name: 'totalUsers' }, { name: 'sessions' }, { name: 'screenPageViews' }], limit: 5000,
        metricFilter: { filter: { fieldName: 'sessions', numericFilter: { operation: 'GREATER_THAN', value: { int64Value: '3' } } } },
      });
      // Default order: the first metric, descending.
      const first = (body.rows ?? []).map((r: Json) => num(r.metricValues[0]));
      expect(first).toEqual([...first].sort((a, b) => b - a));
      for (const r of body.rows ?? []) {
        expect(num(r.metricValues[2])).toBeGreaterThan(3);
        const [active, total, sessions, views] = r.metricValues.map(num);
        expect(active).toBeLessThanOrEqual(total);
        expect(total).toBeLessThanOrEqual(sessions);
        expect(sessions).toBeLessThanOrEqual(views);
      }
    }), { numRuns: 25 });
  });

  it('funnel steps never grow, in total and per breakdown value', async () => {
    const events = ['page_view', 'session_start', 'scroll', 'view_item', 'add_to_cart', 'begin_checkout', 'purchase', 'sign_up', 'form_submit', 'no_such_event'];
    await fc.assert(fc.asyncProperty(fc.constantFrom(...PROPERTIES), fc.array(fc.constantFrom(...events), { minLength: 1, maxLength: 6 }), fc.boolean(), range, async (property, steps, open, dr) => {
      const res = await post(sandbox, token, `https://analyticsdata.googleapis.com/v1alpha/properties/${property}:runFunnelReport`, {
        dateRanges: [dr], funnel: { isOpenFunnel: open, steps: steps.map((e) => ({ name: e, filterExpression: { funnelEventFilter: { eventName: e } } })) },
        funnelBreakdown: { breakdownDimension: { name: 'deviceCategory' } },
      });
      expect(res.status).toBe(200);
      const byValue = new Map<string, number[]>();
      for (const r of res.body.funnelTable.rows) {
        const list = byValue.get(r.dimensionValues[1].value) ?? [];
        list.push(num(r.metricValues[0]));
        byValue.set(r.dimensionValues[1].value, list);
      }
      for (const list of byValue.values()) for (let i = 1; i < list.length; i++) expect(list[i]).toBeLessThanOrEqual(list[i - 1]!);
    }), { numRuns: 30 });
  });

  it('gives identical answers from two sandbox instances (restart)', async () => {
    const other = await testSandbox();
    const otherToken = await accessToken(other);
    await fc.assert(fc.asyncProperty(fc.constantFrom(...PROPERTIES), fc.constantFrom(...BREAKDOWNS), range, async (property, dim, dr) => {
      const body = { dateRanges: [dr], dimensions: [{ name: dim }], metrics: [{ name: 'sessions' }, { name: 'purchaseRevenue' }], limit: 50 };
      const a = await post(sandbox, token, gaUrl(property, 'runReport'), body);
      const b = await post(other, otherToken, gaUrl(property, 'runReport'), body);
      expect(b.body).toEqual(a.body);
    }), { numRuns: 15 });
  });

  it("a date range's rows do not depend on its place among the request's ranges", async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom(...PROPERTIES), fc.constantFrom(...BREAKDOWNS), range, range, async (property, dim, first, second) => {
      const ask = (ranges: unknown[]) => post(sandbox, token, gaUrl(property, 'runReport'), { dateRanges: ranges, dimensions: [{ name: dim }], metrics: [{ name: 'sessions' }, { name: 'activeUsers' }], limit: 100000 });
      const rowsOf = (body: Record<string, any>, name: string) =>
        Object.fromEntries(((body.rows ?? []) as { dimensionValues: { value: string }[]; metricValues: { value: string }[] }[]).filter((r) => body.dimensionHeaders.length === 1 || r.dimensionValues[1]!.value === name).map((r) => [r.dimensionValues[0]!.value, r.metricValues.map((m) => m.value)]));
      const together = (await ask([{ ...first, name: 'a' }, { ...second, name: 'b' }])).body;
      const swapped = (await ask([{ ...second, name: 'b' }, { ...first, name: 'a' }])).body;
      const alone = (await ask([{ ...second, name: 'b' }])).body;
      expect(rowsOf(together, 'b')).toEqual(rowsOf(swapped, 'b'));
      expect(rowsOf(together, 'b')).toEqual(rowsOf(alone, 'b'));
    }), { numRuns: 10 });
  });

  it("a small range's rows are the same beside a much larger range (pruning follows each range's own totals)", async () => {
    const rowsOf = (body: Json, name: string) =>
      Object.fromEntries(((body.rows ?? []) as Json[]).filter((r) => r.dimensionValues[1]?.value === name || body.dimensionHeaders.length === 1).map((r) => [r.dimensionValues[0].value, r.metricValues.map((m: Json) => m.value)]));
    for (const property of PROPERTIES) {
      for (const dim of ['country', 'deviceCategory', 'sessionDefaultChannelGroup']) {
        const ask = (ranges: Json[]) => ga(property, { dateRanges: ranges, dimensions: [{ name: dim }], metrics: [{ name: 'activeUsers' }, { name: 'sessions' }], limit: 100000 });
        const small = { startDate: 'yesterday', endDate: 'yesterday', name: 'small' };
        const alone = await ask([small]);
        const beside = await ask([small, { startDate: '400daysAgo', endDate: '2daysAgo', name: 'large' }]);
        expect(rowsOf(beside, 'small'), `${property} by ${dim}`).toEqual(rowsOf(alone, 'small'));
      }
    }
  });

  it('a dimension filter keeps a subset of the rows and NOT keeps exactly the rest', async () => {
    const matchTypes = ['EXACT', 'BEGINS_WITH', 'ENDS_WITH', 'CONTAINS', 'FULL_REGEXP', 'PARTIAL_REGEXP'];
    await fc.assert(fc.asyncProperty(fc.constantFrom(...PROPERTIES), fc.constantFrom(...matchTypes), fc.constantFrom('a', 'e', 'United', 'Germany', '^[A-M]', '.*a$', 'ia'), fc.boolean(), async (property, matchType, value, caseSensitive) => {
      const base = report({ dimensions: [{ name: 'country' }], metrics: [{ name: 'sessions' }], limit: 1000 });
      const filter = { filter: { fieldName: 'country', stringFilter: { matchType, value, caseSensitive } } };
      const all = await ga(property, base);
      const yes = await ga(property, { ...base, dimensionFilter: filter });
      const no = await ga(property, { ...base, dimensionFilter: { notExpression: filter } });
      const key = (r: Json) => `${r.dimensionValues[0].value}=${r.metricValues[0].value}`;
      const allKeys = new Set((all.rows ?? []).map(key));
      const yesKeys = (yes.rows ?? []).map(key);
      const noKeys = (no.rows ?? []).map(key);
      for (const k of yesKeys) expect(allKeys.has(k)).toBe(true);
      expect(new Set([...yesKeys, ...noKeys])).toEqual(allKeys);
      expect(yesKeys.length + noKeys.length).toBe(allKeys.size);
    }), { numRuns: 30 });
  });

  it('a filter on an unrequested dimension partitions the totals with its NOT', async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom(...PROPERTIES), fc.constantFrom('mobile', 'desktop', 'tablet'), async (property, device) => {
      const base = report({ dimensions: [{ name: 'sessionDefaultChannelGroup' }], metrics: [{ name: 'sessions' }], metricAggregations: ['TOTAL'] });
      const filter = { filter: { fieldName: 'deviceCategory', inListFilter: { values: [device] } } };
      const yes = await ga(property, { ...base, dimensionFilter: filter });
      const no = await ga(property, { ...base, dimensionFilter: { notExpression: filter } });
      const whole = await ga(property, report({ metrics: [{ name: 'sessions' }] }));
      expect(num(yes.totals[0].metricValues[0]) + num(no.totals[0].metricValues[0])).toBe(num(whole.rows[0].metricValues[0]));
    }), { numRuns: 6 });
  });

  it('offset/limit pages concatenate to the one big page', async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom(...PROPERTIES), fc.integer({ min: 1, max: 60 }), async (property, limit) => {
      const base = report({ dimensions: [{ name: 'pagePath' }, { name: 'deviceCategory' }], metrics: [{ name: 'screenPageViews' }], orderBys: [{ metric: { metricName: 'screenPageViews' }, desc: true }] });
      const big = await ga(property, { ...base, limit: 250 });
      const pages: Json[] = [];
      for (let offset = 0; offset < 250; offset += limit) {
        const page = await ga(property, { ...base, limit: Math.min(limit, 250 - offset), offset });
        expect(page.rowCount).toBe(big.rowCount);
        pages.push(...(page.rows ?? []));
      }
      expect(pages).toEqual(big.rows);
    }), { numRuns: 6 });
  });
});

describe('engine1 consistency', { timeout: 90_000 }, () => {
  async function gsc(siteUrl: string, body: Json): Promise<Json> {
    const res = await post(sandbox, token, gscUrl(siteUrl), body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  }

  it('country and device breakdowns sum to the site totals; clicks ≤ impressions; sorted by clicks', async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom(SHOP_SITE, JOURNAL_SITE), fc.constantFrom('country', 'device', 'date'), fc.integer({ min: 0, max: 300 }), async (siteUrl, dim, startAgo) => {
      const body = { startDate: iso(startAgo + 20), endDate: iso(startAgo) };
      const whole = await gsc(siteUrl, body);
      const broken = await gsc(siteUrl, { ...body, dimensions: [dim], rowLimit: 25000 });
      const sum = (k: string) => (broken.rows ?? []).reduce((a: number, r: Json) => a + r[k], 0);
      expect(sum('impressions')).toBe(whole.rows?.[0]?.impressions ?? 0);
      for (const r of broken.rows ?? []) expect(r.clicks).toBeLessThanOrEqual(r.impressions);
      const clicks = (broken.rows ?? []).map((r: Json) => r.clicks);
      expect(clicks).toEqual([...clicks].sort((a, b) => b - a));
    }), { numRuns: 12 });
  });

  it('rowLimit/startRow pages concatenate to one big page (the large site needs paging past 25,000 rows)', async () => {
    const body = { startDate: iso(92), endDate: iso(3), dimensions: ['query'] };
    const big = await gsc(SHOP_SITE, { ...body, rowLimit: 25000 });
    expect(big.rows).toHaveLength(25000);
    const next = await gsc(SHOP_SITE, { ...body, rowLimit: 25000, startRow: 25000 });
    expect(next.rows.length).toBeGreaterThan(0);
    await fc.assert(fc.asyncProperty(fc.integer({ min: 500, max: 5000 }), async (rowLimit) => {
      const rows: Json[] = [];
      for (let startRow = 0; startRow < 6000; startRow += rowLimit) rows.push(...((await gsc(SHOP_SITE, { ...body, rowLimit, startRow })).rows ?? []));
      expect(rows.slice(0, 6000)).toEqual(big.rows.slice(0, 6000));
    }), { numRuns: 3 });
  });
});

function iso(daysAgo: number): string {
  return new Date(Date.UTC(2026, 5, 17) - daysAgo * 86_400_000).toISOString().slice(0, 10);
}
