// Wire details and validation: proto3 shapes, dates and time zones, the provider's 400/403 bodies, realtime
// field rules, GSC lag metadata and enum casings, and Bing's envelope, dates and quirks.
import { describe, expect, it, beforeAll } from 'vitest';
import type { Sandbox } from '../../src/sandbox/sandbox.ts';
import { accessToken, gaUrl, gscUrl, JOURNAL_SITE, LARGE, MEDIUM, post, report, SHOP_SITE, SMALL, testSandbox, type Json } from './helpers.ts';
import { expectEvery } from '../helpers/expect-every.ts';

let sandbox: Sandbox;
let token: string;
beforeAll(async () => {
  sandbox = await testSandbox();
  token = await accessToken(sandbox);
});
const ga = (property: string, body: Json, verb = 'runReport') => post(sandbox, token, gaUrl(property, verb), body);

describe('analytics wire format', () => {
  it('drops rows and rowCount on an empty report and names several date ranges', async () => {
    const empty = await ga(SMALL, { dateRanges: [{ startDate: '2016-01-01', endDate: '2016-01-31' }], metrics: [{ name: 'sessions' }] });
    expect(empty.status).toBe(200);
    expect(empty.body).not.toHaveProperty('rows');
    expect(empty.body).not.toHaveProperty('rowCount');
    const two = await ga(SMALL, { dateRanges: [{ startDate: '2026-05-01', endDate: '2026-05-07', name: 'this' }, { startDate: '2026-04-24', endDate: '2026-04-30' }], dimensions: [{ name: 'deviceCategory' }], metrics: [{ name: 'sessions' }], metricAggregations: ['TOTAL'] });
    expect(two.body.dimensionHeaders).toEqual([{ name: 'deviceCategory' }, { name: 'dateRange' }]);
    expect(new Set(two.body.rows.map((r: Json) => r.dimensionValues[1].value))).toEqual(new Set(['this', 'date_range_1']));
    expect(two.body.totals.map((r: Json) => r.dimensionValues.map((v: Json) => v.value))).toEqual([['RESERVED_TOTAL', 'this'], ['RESERVED_TOTAL', 'date_range_1']]);
  });

  it('formats dates in the property time zone and honours NUMERIC dimension order', async () => {
    const res = await ga(MEDIUM, { dateRanges: [{ startDate: 'today', endDate: 'today' }], dimensions: [{ name: 'dateHour' }], metrics: [{ name: 'sessions' }], orderBys: [{ dimension: { dimensionName: 'dateHour', orderType: 'NUMERIC' } }] });
    // 15:30 UTC on 2026-06-17 is 11:30 in New York: hours 00..11 so far.
    expect(res.body.rows.map((r: Json) => r.dimensionValues[0].value)).toEqual(Array.from({ length: 12 }, (_, h) => `20260617${String(h).padStart(2, '0')}`));
  });

  it('computes metric expressions, invisible metrics, metric filters and currency conversion', async () => {
    const res = await ga(LARGE, report({
      dimensions: [{ name: 'deviceCategory' }],
      metrics: [{ name: 'sessions', invisible: true }, { name: 'screenPageViews' }, { name: 'pps', expression: 'screenPageViews/sessions' }, { name: 'purchaseRevenue' }],
      metricFilter: { filter: { fieldName: 'sessions', numericFilter: { operation: 'GREATER_THAN', value: { int64Value: '1000000' } } } },
      currencyCode: 'USD',
    }));
    expect(res.body.metricHeaders).toEqual([{ name: 'screenPageViews', type: 'TYPE_INTEGER' }, { name: 'pps', type: 'TYPE_FLOAT' }, { name: 'purchaseRevenue', type: 'TYPE_CURRENCY' }]);
    expect(res.body.metadata.currencyCode).toBe('USD');
    expect(res.body.rows.map((r: Json) => r.dimensionValues[0].value).sort()).toEqual(['desktop', 'mobile']);
  });

  it('answers unknown and incompatible fields with INVALID_ARGUMENT bodies', async () => {
    expect((await ga(SMALL, report({ metrics: [{ name: 'pageViews' }] }))).body).toEqual({ error: { code: 400, message: 'Field pageViews is not a valid metric. For a list of valid dimensions and metrics, see https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema', status: 'INVALID_ARGUMENT' } });
    expect((await ga(SMALL, report({ dimensions: [{ name: 'pagepath' }], metrics: [{ name: 'sessions' }] }))).body.error.message).toBe('Field pagepath is not a valid dimension. For a list of valid dimensions and metrics, see https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema');
    expect((await ga(SMALL, report({ dimensions: [{ name: 'itemName' }], metrics: [{ name: 'sessions' }] }))).body.error.message).toMatch(/^Please remove itemName to make the request compatible\./);
    expect((await ga(SMALL, report({ metrics: [{ name: 'sessions' }], dimension: [] }))).body.error.message).toBe('Invalid JSON payload received. Unknown name "dimension": Cannot find field.');
    const batch = await ga(SMALL, { requests: Array.from({ length: 6 }, () => report({ metrics: [{ name: 'sessions' }] })) }, 'batchRunReports');
    expect(batch.status).toBe(400);
    const forbidden = await ga('999', report({ metrics: [{ name: 'sessions' }] }));
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.status).toBe('PERMISSION_DENIED');
  });

  it('rejects core-only fields and names in realtime reports', async () => {
    expect((await ga(SMALL, { metrics: [{ name: 'sessions' }] }, 'runRealtimeReport')).status).toBe(400);
    expect((await ga(SMALL, { dimensions: [{ name: 'date' }], metrics: [{ name: 'activeUsers' }] }, 'runRealtimeReport')).status).toBe(400);
    expect((await ga(SMALL, { metrics: [{ name: 'activeUsers' }], dateRanges: [] }, 'runRealtimeReport')).body.error.message).toMatch(/Unknown name "dateRanges"/);
    const two = await ga(LARGE, { dimensions: [{ name: 'country' }], metrics: [{ name: 'activeUsers' }], minuteRanges: [{ name: 'last5', startMinutesAgo: 4 }, { name: 'last30', startMinutesAgo: 29 }] }, 'runRealtimeReport');
    expect(two.body.dimensionHeaders).toEqual([{ name: 'country' }, { name: 'dateRange' }]);
    const users = (range: string) => two.body.rows.filter((r: Json) => r.dimensionValues[1].value === range).reduce((a: number, r: Json) => a + Number(r.metricValues[0].value), 0);
    expect(users('last30')).toBeGreaterThan(users('last5'));
  });
});

describe('engine1 wire format', () => {
  it('hides the 2–3 day lag for final data and flags the first incomplete day for all', async () => {
    const body = { startDate: '2026-06-01', endDate: '2026-06-17', dimensions: ['date'] };
    const final = await post(sandbox, token, gscUrl(SHOP_SITE), body);
    const dates = final.body.rows.map((r: Json) => r.keys[0]).sort();
    // 15:30 UTC is 08:30 Pacific: before noon, final data ends three days back.
    expect(dates.at(-1)).toBe('2026-06-14');
    expect(final.body).not.toHaveProperty('metadata');
    const all = await post(sandbox, token, gscUrl(SHOP_SITE), { ...body, dataState: 'ALL' });
    expect(all.body.rows.map((r: Json) => r.keys[0]).sort().at(-1)).toBe('2026-06-17');
    expect(all.body.metadata).toEqual({ firstIncompleteDate: '2026-06-15' });
  });

  it('serves hourly data with Pacific offsets and requires HOURLY_ALL for it', async () => {
    expect((await post(sandbox, token, gscUrl(JOURNAL_SITE), { startDate: '2026-06-16', endDate: '2026-06-17', dimensions: ['hour'] })).status).toBe(400);
    const res = await post(sandbox, token, gscUrl(JOURNAL_SITE), { startDate: '2026-06-16', endDate: '2026-06-17', dimensions: ['HOUR'], dataState: 'HOURLY_ALL', rowLimit: 100 });
    expect(res.body.rows[0].keys[0]).toMatch(/^2026-06-1[67]T\d\d:00:00-07:00$/);
    expect(res.body.metadata).toEqual({ firstIncompleteHour: '2026-06-17T08:00:00-07:00' });
  });

  it('uses alpha-3 countries, filters with every operator and refuses byProperty with page', async () => {
    const res = await post(sandbox, token, gscUrl(SHOP_SITE), {
      startDate: '2026-05-01', endDate: '2026-05-31', dimensions: ['country', 'query'], rowLimit: 50,
      dimensionFilterGroups: [{ groupType: 'and', filters: [{ dimension: 'country', operator: 'equals', expression: 'DEU' }, { dimension: 'query', operator: 'NOT_CONTAINS', expression: 'shoes' }, { dimension: 'query', operator: 'includingRegex', expression: '^(best|cheap) ' }] }],
    });
    expect(res.body.rows.length).toBeGreaterThan(0);
    for (const r of res.body.rows) {
      expect(r.keys[0]).toBe('deu');
      expect(r.keys[1]).not.toContain('shoes');
      expect(r.keys[1]).toMatch(/^(best|cheap) /);
    }
    const bad = await post(sandbox, token, gscUrl(SHOP_SITE), { startDate: '2026-05-01', endDate: '2026-05-31', dimensions: ['page'], aggregationType: 'BY_PROPERTY' });
    expect(bad.status).toBe(400);
    const denied = await post(sandbox, token, gscUrl('https://other.example/'), { startDate: '2026-05-01', endDate: '2026-05-31' });
    expect(denied.body).toEqual({ error: { code: 403, message: "User does not have sufficient permission for site 'https://other.example/'. See also: https://support.google.com/webmasters/answer/2451999.", errors: [{ message: "User does not have sufficient permission for site 'https://other.example/'. See also: https://support.google.com/webmasters/answer/2451999.", domain: 'global', reason: 'forbidden' }], status: 'PERMISSION_DENIED' } });
  });
});

describe('engine2 wire format', () => {
  const bing = async (method: string, params: Record<string, string> = {}) => {
    const q = new URLSearchParams({ apikey: sandbox.credentials.bingApiKey, siteUrl: SHOP_SITE, ...params });
    const res = await sandbox.fetch(new Request(`https://ssl.bing.com/webmaster/api.svc/json/${method}?${q}`));
    return { status: res.status, text: await res.text() };
  };
  const rowsOf = (text: string) => (JSON.parse(text) as { d: Json[] }).d;

  it('wraps rows in d with __type, PascalCase and escaped /Date(ms-0800)/ dates in Pacific time', async () => {
    const { text } = await bing('GetRankAndTrafficStats');
    expect(text).toMatch(/"Date":"\\\/Date\(\d+-0[78]00\)\\\/"/);
    const rows = rowsOf(text);
    expect(rows).toHaveLength(182);
    for (const r of rows) {
      expect(r.__type).toBe('RankAndTrafficStats:#Microsoft.Bing.Webmaster.Api');
      const [, ms, offset] = /^\/Date\((\d+)([+-]\d{4})\)\/$/.exec(r.Date)!;
      const local = new Date(Number(ms) + (offset!.startsWith('-') ? -1 : 1) * (Number(offset!.slice(1, 3)) * 60) * 60_000);
      expect(local.getUTCHours()).toBe(0);
      // The suffix is the Pacific offset in force at that instant (DST-aware).
      const pacific = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', timeZoneName: 'longOffset' }).formatToParts(Number(ms)).find((p) => p.type === 'timeZoneName')!.value;
      expect(pacific.replace('GMT', '').replace(':', '')).toBe(offset);
    }
    expect(new Set(rows.map((r) => r.Date.slice(-7, -2)))).toEqual(new Set(['-0800', '-0700']));
  });

  it('reports weekly query stats on Fridays with -1 click positions, and page URLs in Query for page stats', async () => {
    const q = rowsOf((await bing('GetQueryStats')).text);
    const days = new Set(q.map((r) => new Date(Number(/\((\d+)/.exec(r.Date)![1]) + 12 * 3_600_000).getUTCDay()));
    expect(days).toEqual(new Set([5]));
    expectEvery(q, (r) => r.Clicks > 0 || r.AvgClickPosition === -1);
    expect(q.some((r) => r.AvgClickPosition === -1)).toBe(true);
    const pages = rowsOf((await bing('GetPageStats')).text);
    expectEvery(pages, (r) => r.Query.startsWith('https://www.acme-shop.example/') && !('Page' in r));
    const forQuery = rowsOf((await bing('GetQueryPageStats', { query: 'running shoes' })).text);
    expect(forQuery.length).toBeGreaterThan(0);
    expectEvery(forQuery, (r) => r.Query.startsWith('https://'));
    const forPage = rowsOf((await bing('GetPageQueryStats', { page: forQuery[0]!.Query })).text);
    expect(forPage.some((r) => r.Query === 'running shoes')).toBe(true);
    const traffic = rowsOf((await bing('GetQueryTrafficStats', { query: 'running shoes' })).text);
    expect(traffic[0]!.__type).toBe('RankAndTrafficStats:#Microsoft.Bing.Webmaster.Api');
    const detail = rowsOf((await bing('GetQueryPageDetailStats', { query: 'running shoes', page: forQuery[0]!.Query })).text);
    expect(detail[0]!.__type).toBe('DetailedQueryStats:#Microsoft.Bing.Webmaster.Api');
  }, 60_000); // generates the large site's year of engine2 data: ~14 s alone, more on a busy CI box

  it('shares pages with engine1 and overlaps its queries with smaller volumes', async () => {
    const bingQueries = rowsOf((await bing('GetQueryStats')).text);
    const gsc = await post(sandbox, token, gscUrl(SHOP_SITE), { startDate: '2026-03-01', endDate: '2026-06-10', dimensions: ['query'], rowLimit: 2000 });
    const gscQueries = new Set(gsc.body.rows.map((r: Json) => r.keys[0]));
    const overlap = new Set(bingQueries.map((r) => r.Query).filter((q) => gscQueries.has(q)));
    expect(overlap.size).toBeGreaterThan(100);
    const bingTotal = rowsOf((await bing('GetRankAndTrafficStats')).text).reduce((a, r) => a + r.Impressions, 0);
    const gscTotal = (await post(sandbox, token, gscUrl(SHOP_SITE), { startDate: '2025-12-15', endDate: '2026-06-14' })).body.rows[0].impressions;
    expect(bingTotal).toBeLessThan(gscTotal / 3);
  });

  it('answers bad keys, unknown sites and missing parameters with bare ErrorCode bodies', async () => {
    const badKey = await sandbox.fetch(new Request(`https://ssl.bing.com/webmaster/api.svc/json/GetQueryStats?apikey=nope&siteUrl=${encodeURIComponent(SHOP_SITE)}`));
    expect(badKey.status).toBe(400);
    expect(await badKey.text()).toBe('{"ErrorCode":3,"Message":"ERROR!!! InvalidApiKey"}');
    expect(JSON.parse((await bing('GetQueryStats', { siteUrl: 'https://other.example/' })).text)).toEqual({ ErrorCode: 14, Message: 'ERROR!!! NotAuthorized' });
    expect(JSON.parse((await bing('GetQueryPageStats')).text)).toEqual({ ErrorCode: 8, Message: 'ERROR!!! InvalidParameter' });
  });
});
