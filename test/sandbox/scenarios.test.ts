// Planted truths: /__sandbox/scenarios validates, lists and clears events, and each kind shifts GA4, engine1 and
// engine2 where it should — and nowhere else (an unplanted sandbox answers byte for byte as before).
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/sandbox.ts';
import { accessToken, gaUrl, gscUrl, MEDIUM, post, SMALL, testSandbox, type Json } from './helpers.ts';

let sandbox: Sandbox;
let token: string;
beforeAll(async () => {
  sandbox = await testSandbox();
  token = await accessToken(sandbox);
});
afterEach(() => scenarios('DELETE'));

const SAAS_SITE = 'https://app.tiny-saas.example/';
const JOURNAL = 'sc-domain:northwind-journal.example';
const JOURNAL_BING = 'https://northwind-journal.example/';
const D = '2026-05-20';
const AFTER = { startDate: '2026-05-25', endDate: '2026-06-10' };
const BEFORE = { startDate: '2026-04-01', endDate: '2026-05-15' };

async function scenarios(method: 'GET' | 'POST' | 'DELETE', body?: unknown): Promise<{ status: number; body: Json }> {
  const res = await sandbox.fetch(new Request('http://sandbox/__sandbox/scenarios', { method, body: body === undefined ? undefined : JSON.stringify(body) }));
  return { status: res.status, body: (await res.json()) as Json };
}

async function plant(...events: Json[]): Promise<void> {
  const res = await scenarios('POST', { events });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

async function gaBy(property: string, dimension: string, range: Json, metric = 'sessions'): Promise<Map<string, number>> {
  const res = await post(sandbox, token, gaUrl(property, 'runReport'), { dateRanges: [range], dimensions: [{ name: dimension }], metrics: [{ name: metric }], limit: 10000 });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return new Map((res.body.rows as Json[]).map((r) => [r.dimensionValues[0].value, Number(r.metricValues[0].value)]));
}

async function gscBy(site: string, dimensions: string[], range: Json, filter?: Json): Promise<Json[]> {
  const res = await post(sandbox, token, gscUrl(site), { ...range, dimensions, rowLimit: 25000, ...(filter ? { dimensionFilterGroups: [{ filters: [filter] }] } : {}) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.rows ?? []) as Json[];
}

async function bing(method: string, params: Record<string, string>): Promise<Json[]> {
  const q = new URLSearchParams({ apikey: sandbox.credentials.bingApiKey, siteUrl: JOURNAL_BING, ...params });
  const res = await sandbox.fetch(new Request(`https://ssl.bing.com/webmaster/api.svc/json/${method}?${q}`));
  return ((await res.json()) as { d: Json[] }).d;
}

const ratio = (after: number | undefined, before: number | undefined) => (after ?? 0) / (before ?? 1);

describe('the scenarios endpoint', () => {
  it('adds events with ids, lists them and clears them', async () => {
    expect((await scenarios('GET')).body).toEqual({ events: [] });
    const added = await scenarios('POST', { events: [{ kind: 'spike', property: SMALL, dimension: 'sessionDefaultChannelGroup', value: 'Direct', date: D, factor: 5 }] });
    expect(added.status).toBe(201);
    expect(added.body.added).toEqual([{ id: expect.any(String), kind: 'spike', property: SMALL, dimension: 'sessionDefaultChannelGroup', value: 'Direct', date: D, factor: 5 }]);
    expect((await scenarios('GET')).body.events).toHaveLength(1);
    expect((await scenarios('DELETE')).body).toEqual({ events: [] });
    expect((await scenarios('GET')).body.events).toEqual([]);
  });

  it.each([
    [{ kind: 'earthquake', property: SMALL }, 'events.0.kind'],
    [{ kind: 'segment_shift', property: '999', dimension: 'country', value: 'Germany', from: D, factor: 0.6 }, 'events[0].property'],
    [{ kind: 'segment_shift', property: SMALL, dimension: 'country', value: 'Germny', from: D, factor: 0.6 }, 'events[0].value'],
    [{ kind: 'segment_shift', property: SMALL, dimension: 'eventName', value: 'purchase', from: D, factor: 0.6 }, 'events[0].dimension'],
    [{ kind: 'segment_shift', property: SMALL, dimension: 'country', value: 'Germany', from: '2026-13-01', factor: 0.6 }, 'events.0.from'],
    [{ kind: 'spike', property: SMALL, dimension: 'country', value: 'Germany', date: D, factor: 0 }, 'events.0.factor'],
    [{ kind: 'ranking_loss', site: 'https://elsewhere.example/', query: 'x', from: D, position: 11 }, 'events[0].site'],
    [{ kind: 'ranking_loss', site: JOURNAL, query: 'no such query anywhere', from: D, position: 11 }, 'events[0].query'],
  ])('refuses %j naming %s, planting nothing', async (event, path) => {
    const res = await scenarios('POST', { events: [event] });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_scenario');
    expect(res.body.issues.map((i: Json) => i.path)).toContain(path);
    expect((await scenarios('GET')).body.events).toEqual([]);
  });
});

describe('segment_shift and spike', () => {
  it('Germany −40% from D: its GA sessions and its engine1 clicks fall, other countries and earlier days do not move', async () => {
    const [gaAfter, gaBefore, scAfter] = [await gaBy(SMALL, 'country', AFTER), await gaBy(SMALL, 'country', BEFORE), await gscBy(SAAS_SITE, ['country'], AFTER)];
    await plant({ kind: 'segment_shift', property: SMALL, dimension: 'country', value: 'Germany', from: D, factor: 0.6 });
    const [gaAfter2, gaBefore2, scAfter2] = [await gaBy(SMALL, 'country', AFTER), await gaBy(SMALL, 'country', BEFORE), await gscBy(SAAS_SITE, ['country'], AFTER)];
    expect(ratio(gaAfter2.get('Germany'), gaAfter.get('Germany'))).toBeCloseTo(0.6, 1);
    expect(ratio(gaAfter2.get('United States'), gaAfter.get('United States'))).toBeCloseTo(1, 1);
    expect(gaBefore2).toEqual(gaBefore);
    const clicks = (rows: Json[], country: string) => rows.find((r) => r.keys[0] === country)?.clicks as number;
    expect(ratio(clicks(scAfter2, 'deu'), clicks(scAfter, 'deu'))).toBeCloseTo(0.6, 1);
    expect(ratio(clicks(scAfter2, 'usa'), clicks(scAfter, 'usa'))).toBeCloseTo(1, 1);
  });

  it('a 5× Direct spike shows on its day only, and search (not Direct traffic) does not move', async () => {
    const day = { startDate: D, endDate: D };
    const dayBefore = { startDate: '2026-05-19', endDate: '2026-05-19' };
    const [direct, directBefore, search] = [await gaBy(SMALL, 'sessionDefaultChannelGroup', day), await gaBy(SMALL, 'sessionDefaultChannelGroup', dayBefore), await gscBy(SAAS_SITE, ['date'], day)];
    await plant({ kind: 'spike', property: SMALL, dimension: 'sessionDefaultChannelGroup', value: 'Direct', date: D, factor: 5 });
    expect(ratio((await gaBy(SMALL, 'sessionDefaultChannelGroup', day)).get('Direct'), direct.get('Direct'))).toBeCloseTo(5, 0);
    expect((await gaBy(SMALL, 'sessionDefaultChannelGroup', dayBefore))).toEqual(directBefore);
    expect(await gscBy(SAAS_SITE, ['date'], day)).toEqual(search);
  });

  it('Organic Search −50% halves both engines', async () => {
    const [sc, bingTotals] = [await gscBy(JOURNAL, [], AFTER), await bing('GetRankAndTrafficStats', {})];
    await plant({ kind: 'segment_shift', property: MEDIUM, dimension: 'sessionDefaultChannelGroup', value: 'Organic Search', from: D, factor: 0.5 });
    expect(ratio((await gscBy(JOURNAL, [], AFTER))[0]!.clicks, sc[0]!.clicks)).toBeCloseTo(0.5, 1);
    const last = (rows: Json[]) => rows.at(-1)!.Clicks as number;
    expect(ratio(last(await bing('GetRankAndTrafficStats', {})), last(bingTotals))).toBeCloseTo(0.5, 1);
  });
});

describe('search events', () => {
  /** A non-brand query on page one of both engines, with enough clicks to see a change. */
  async function pageOneQuery(): Promise<string> {
    const rows = await gscBy(JOURNAL, ['query'], BEFORE);
    const bingQueries = new Set((await bing('GetQueryStats', {})).map((r) => r.Query));
    const found = rows.find((r, i) => i > 0 && r.position <= 7 && r.clicks > 100 && bingQueries.has(r.keys[0]));
    expect(found).toBeDefined();
    return found!.keys[0];
  }

  it('a ranking loss moves the query to position ~11 on both engines and costs its clicks', async () => {
    const query = await pageOneQuery();
    const filter = { dimension: 'query', operator: 'equals', expression: query };
    const [before] = await gscBy(JOURNAL, ['query'], AFTER, filter);
    await plant({ kind: 'ranking_loss', site: JOURNAL, query, from: D, position: 11 });
    const [after] = await gscBy(JOURNAL, ['query'], AFTER, filter);
    expect(after!.position).toBeGreaterThan(9);
    expect(after!.position).toBeLessThan(14);
    expect(after!.clicks).toBeLessThan(before!.clicks * 0.4);
    const weeks = (await bing('GetQueryStats', {})).filter((r) => r.Query === query);
    expect(weeks.length).toBeGreaterThan(0);
    const lastWeek = weeks.at(-1)!;
    expect(lastWeek.AvgImpressionPosition).toBeGreaterThanOrEqual(9);
    const earlier = (await gscBy(JOURNAL, ['query'], BEFORE, filter))[0]!;
    expect(earlier.position).toBeLessThan(8);
  });

  it('a cannibalisation spreads the query over the given pages from its first day', async () => {
    const query = await pageOneQuery();
    const filter = { dimension: 'query', operator: 'equals', expression: query };
    const pagesBefore = (await gscBy(JOURNAL, ['page'], AFTER, filter)).map((r) => r.keys[0]);
    const others = (await gscBy(JOURNAL, ['page'], BEFORE)).map((r) => r.keys[0] as string).filter((p) => !pagesBefore.includes(p)).slice(0, 2);
    expect(others).toHaveLength(2);
    await plant({ kind: 'cannibalisation', site: JOURNAL, query, pages: others, from: D });
    const after = await gscBy(JOURNAL, ['page'], AFTER, filter);
    expect(after.map((r) => r.keys[0]).sort()).toEqual([...others].sort());
    const shares = after.map((r) => r.impressions as number);
    expect(Math.min(...shares) / Math.max(...shares)).toBeGreaterThan(0.6);
    expect((await gscBy(JOURNAL, ['page'], BEFORE, filter)).map((r) => r.keys[0])).toEqual(
      (await gscBy(JOURNAL, ['page'], BEFORE, filter)).map((r) => r.keys[0]).filter((p) => !others.includes(p)),
    );
  });
});

describe('no events planted', () => {
  it('answers byte for byte as an untouched sandbox, before planting and after clearing', async () => {
    const request = () => post(sandbox, token, gaUrl(SMALL, 'runReport'), { dateRanges: [AFTER], dimensions: [{ name: 'country' }, { name: 'deviceCategory' }], metrics: [{ name: 'sessions' }, { name: 'engagementRate' }] });
    const search = () => gscBy(SAAS_SITE, ['query', 'page'], AFTER);
    const [ga, sc] = [await request(), await search()];
    await plant({ kind: 'segment_shift', property: SMALL, dimension: 'deviceCategory', value: 'mobile', from: D, factor: 2 });
    expect((await request()).body).not.toEqual(ga.body);
    await scenarios('DELETE');
    expect((await request()).body).toEqual(ga.body);
    expect(await search()).toEqual(sc);
  });
});
