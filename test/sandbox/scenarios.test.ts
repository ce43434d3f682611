// Planted truths: /__sandbox/scenarios validates, adds, lists and clears events, and each kind of event shows on
// every provider where it should (GA4, engine1, engine2) and nowhere else.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/sandbox.ts';
import { accessToken, gaUrl, gscUrl, JOURNAL_SITE, LARGE, MEDIUM, num, post, SHOP_SITE, testSandbox, type Json } from './helpers.ts';

let sandbox: Sandbox;
let token: string;
beforeAll(async () => {
  sandbox = await testSandbox();
  token = await accessToken(sandbox);
});
afterEach(() => sandbox.clearScenarios());

async function control(method: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const res = await sandbox.fetch(new Request('http://sandbox.test/__sandbox/scenarios', { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }));
  return { status: res.status, body: (await res.json()) as Json };
}

const SHIFT = { kind: 'segment_shift', property: LARGE, dimension: 'country', value: 'Germany', from: '2026-05-01', factor: 0.6 };

async function gaRows(property: string, dimension: string, startDate: string, endDate: string, metrics = ['sessions', 'totalUsers', 'keyEvents', 'screenPageViews']): Promise<Map<string, number[]>> {
  const res = await post(sandbox, token, gaUrl(property, 'runReport'), { dateRanges: [{ startDate, endDate }], dimensions: [{ name: dimension }], metrics: metrics.map((name) => ({ name })), limit: 100_000 });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return new Map((res.body.rows as Json[]).map((r) => [r.dimensionValues[0].value as string, (r.metricValues as { value: string }[]).map(num)]));
}

async function gscRows(siteUrl: string, body: Json): Promise<Json[]> {
  const res = await post(sandbox, token, gscUrl(siteUrl), { rowLimit: 25_000, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.rows ?? [];
}

const ratio = (after: number, before: number) => after / before;

describe('the scenarios API', () => {
  it('adds events with ids, lists them and clears them', async () => {
    expect((await control('GET')).body).toEqual({ events: [] });
    const added = await control('POST', { events: [SHIFT, { kind: 'spike', property: MEDIUM, dimension: 'sessionDefaultChannelGroup', value: 'Direct', date: '2026-05-10', factor: 5 }] });
    expect(added.status).toBe(200);
    expect(added.body.events).toHaveLength(2);
    expect(added.body.events[0]).toEqual({ ...SHIFT, id: expect.any(String) });
    expect(new Set(added.body.events.map((e: Json) => e.id)).size).toBe(2);
    expect((await control('GET')).body.events).toEqual(added.body.events);
    expect((await control('DELETE')).body).toEqual({ events: [] });
    expect((await control('GET')).body).toEqual({ events: [] });
  });

  it.each([
    [{ ...SHIFT, kind: 'earthquake' }, 'events.0.kind'],
    [{ ...SHIFT, property: '999' }, 'events.0.property'],
    [{ ...SHIFT, value: 'Atlantis' }, 'events.0.value'],
    [{ ...SHIFT, dimension: 'pageTitle' }, 'events.0.dimension'],
    [{ ...SHIFT, from: '2026-02-30' }, 'events.0.from'],
    [{ ...SHIFT, factor: 0 }, 'events.0.factor'],
    [{ ...SHIFT, factor: -1 }, 'events.0.factor'],
    [{ kind: 'ranking_loss', site: 'https://nowhere.example/', query: 'x', from: '2026-05-01', position: 11 }, 'events.0.site'],
    [{ kind: 'ranking_loss', site: SHOP_SITE, query: 'no such query at all', from: '2026-05-01', position: 11 }, 'events.0.query'],
    [{ kind: 'cannibalisation', site: SHOP_SITE, query: 'x', pages: ['/'], from: '2026-05-01' }, 'events.0.pages'],
  ])('refuses %j naming the bad field, and plants nothing', async (event, path) => {
    const res = await control('POST', { events: [SHIFT, event].reverse() });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_scenario');
    expect(res.body.issues.map((i: Json) => i.path)).toContain(path);
    expect((await control('GET')).body.events).toEqual([]);
  });

  it('refuses a body that is not JSON or has no events', async () => {
    const bad = await sandbox.fetch(new Request('http://sandbox.test/__sandbox/scenarios', { method: 'POST', body: '{' }));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as Json).error).toBe('invalid_json');
    const empty = await control('POST', { events: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.issues[0].path).toBe('events');
  });
});

describe('a segment shift', () => {
  it('scales every metric of the segment from its day on in GA, leaves the other segments, and moves the totals', async () => {
    const before = await gaRows(LARGE, 'country', '2026-05-01', '2026-05-28');
    const totalBefore = await gaRows(LARGE, 'deviceCategory', '2026-05-01', '2026-05-28');
    await control('POST', { events: [SHIFT] });
    const after = await gaRows(LARGE, 'country', '2026-05-01', '2026-05-28');
    const totalAfter = await gaRows(LARGE, 'deviceCategory', '2026-05-01', '2026-05-28');
    before.get('Germany')!.forEach((value, i) => expect(ratio(after.get('Germany')![i]!, value)).toBeCloseTo(0.6, 1));
    for (const country of ['United States', 'France', 'United Kingdom']) expect(ratio(after.get(country)![0]!, before.get(country)![0]!)).toBeCloseTo(1, 1);
    // Germany is part of every device: each falls by Germany's share of it.
    const lost = before.get('Germany')![0]! * 0.4;
    const sum = (m: Map<string, number[]>) => [...m.values()].reduce((a, r) => a + r[0]!, 0);
    expect(sum(totalBefore) - sum(totalAfter)).toBeGreaterThan(lost * 0.85);
    expect(sum(totalBefore) - sum(totalAfter)).toBeLessThan(lost * 1.15);
  });

  it('leaves the days before it alone', async () => {
    const before = await gaRows(LARGE, 'country', '2026-04-01', '2026-04-30');
    await control('POST', { events: [SHIFT] });
    expect(await gaRows(LARGE, 'country', '2026-04-01', '2026-04-30')).toEqual(before);
  });

  it('moves a period that straddles its day by the share of the period after it', async () => {
    const before = await gaRows(LARGE, 'country', '2026-04-17', '2026-05-14', ['sessions']);
    await control('POST', { events: [SHIFT] });
    const after = await gaRows(LARGE, 'country', '2026-04-17', '2026-05-14', ['sessions']);
    expect(ratio(after.get('Germany')![0]!, before.get('Germany')![0]!)).toBeCloseTo(0.8, 1);
  });

  it('shows on the search engines where the segment is search traffic: Germany is engine1 country deu', async () => {
    const body = { startDate: '2026-05-01', endDate: '2026-05-28', dimensions: ['country'] };
    const before = new Map((await gscRows(SHOP_SITE, body)).map((r) => [r.keys[0], r]));
    await control('POST', { events: [SHIFT] });
    const after = new Map((await gscRows(SHOP_SITE, body)).map((r) => [r.keys[0], r]));
    expect(ratio(after.get('deu')!.clicks, before.get('deu')!.clicks)).toBeCloseTo(0.6, 1);
    expect(ratio(after.get('deu')!.impressions, before.get('deu')!.impressions)).toBeCloseTo(0.6, 1);
    expect(ratio(after.get('usa')!.clicks, before.get('usa')!.clicks)).toBeCloseTo(1, 1);
  });

  it('Organic Search scales all search clicks on both engines; Direct none', async () => {
    const body = { startDate: '2026-05-01', endDate: '2026-05-28' };
    const engine1Before = (await gscRows(SHOP_SITE, body))[0]!;
    const engine2Before = await bingTotals();
    await control('POST', { events: [{ ...SHIFT, dimension: 'sessionDefaultChannelGroup', value: 'Organic Search', factor: 0.5 }, { ...SHIFT, dimension: 'sessionDefaultChannelGroup', value: 'Direct', factor: 3 }] });
    expect(ratio((await gscRows(SHOP_SITE, body))[0]!.clicks, engine1Before.clicks)).toBeCloseTo(0.5, 1);
    expect(ratio((await bingTotals()).clicks, engine2Before.clicks)).toBeCloseTo(0.5, 1);
  });

  it('mobile scales engine1 device MOBILE only', async () => {
    const body = { startDate: '2026-05-01', endDate: '2026-05-28', dimensions: ['device'] };
    const before = new Map((await gscRows(JOURNAL_SITE, body)).map((r) => [r.keys[0], r.clicks as number]));
    await control('POST', { events: [{ ...SHIFT, property: MEDIUM, dimension: 'deviceCategory', value: 'mobile', factor: 1.5 }] });
    const after = new Map((await gscRows(JOURNAL_SITE, body)).map((r) => [r.keys[0], r.clicks as number]));
    expect(ratio(after.get('MOBILE')!, before.get('MOBILE')!)).toBeCloseTo(1.5, 1);
    expect(ratio(after.get('DESKTOP')!, before.get('DESKTOP')!)).toBeCloseTo(1, 1);
  });
});

/** engine2's daily clicks and impressions from 2026-05-01 to 2026-05-28. */
async function bingTotals(): Promise<{ clicks: number; impressions: number }> {
  const url = `https://ssl.bing.com/webmaster/api.svc/json/GetRankAndTrafficStats?apikey=${sandbox.credentials.bingApiKey}&siteUrl=${encodeURIComponent(SHOP_SITE)}`;
  const body = (await (await sandbox.fetch(new Request(url))).json()) as Json;
  const rows = (body.d as Json[]).filter((r) => {
    const day = new Date(Number(/\d+/.exec(r.Date)![0])).toISOString().slice(0, 10);
    return day >= '2026-05-01' && day <= '2026-05-28';
  });
  expect(rows.length).toBe(28);
  return { clicks: rows.reduce((a, r) => a + r.Clicks, 0), impressions: rows.reduce((a, r) => a + r.Impressions, 0) };
}
