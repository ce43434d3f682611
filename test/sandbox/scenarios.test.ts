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
    [{ kind: 'trend', property: LARGE, dimension: 'country', value: 'Germany', from: '2026-05-01', to: '2026-04-20', factor: 0.5 }, 'events.0.to'],
    [{ kind: 'rate_shift', property: LARGE, dimension: 'deviceCategory', value: 'mobile', metric: 'bounceRate', from: '2026-05-01', factor: 0.7 }, 'events.0.metric'],
    [{ kind: 'rate_shift', property: LARGE, dimension: 'deviceCategory', value: 'smartwatch', metric: 'engagementRate', from: '2026-05-01', factor: 0.7 }, 'events.0.value'],
    [{ kind: 'page_drop', site: SHOP_SITE, page: '/no/such/page', from: '2026-05-01', factor: 0.5 }, 'events.0.page'],
    [{ kind: 'ranking_loss', site: SHOP_SITE, query: 'hiking boots', from: '2026-05-01', position: 11, engine: 'engine3' }, 'events.0.engine'],
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

describe('a spike', () => {
  it('multiplies one day of the segment (and that day\'s hours) and leaves the next day alone', async () => {
    const spike = { kind: 'spike', property: MEDIUM, dimension: 'sessionDefaultChannelGroup', value: 'Direct', date: '2026-05-10', factor: 5 };
    const day = async (date: string) => (await gaRows(MEDIUM, 'sessionDefaultChannelGroup', date, date, ['sessions']));
    const hours = async () => {
      const res = await post(sandbox, token, gaUrl(MEDIUM, 'runReport'), { dateRanges: [{ startDate: '2026-05-10', endDate: '2026-05-10' }], dimensions: [{ name: 'hour' }], metrics: [{ name: 'sessions' }] });
      return (res.body.rows as Json[]).reduce((a, r) => a + num(r.metricValues[0]), 0);
    };
    const [spikeDay, nextDay, hoursBefore] = [await day('2026-05-10'), await day('2026-05-11'), await hours()];
    await control('POST', { events: [spike] });
    const planted = await day('2026-05-10');
    expect(ratio(planted.get('Direct')![0]!, spikeDay.get('Direct')![0]!)).toBeCloseTo(5, 0);
    expect(ratio(planted.get('Email')![0]!, spikeDay.get('Email')![0]!)).toBeCloseTo(1, 1);
    expect(await day('2026-05-11')).toEqual(nextDay);
    const gained = planted.get('Direct')![0]! - spikeDay.get('Direct')![0]!;
    expect(Math.abs((await hours()) - hoursBefore - gained)).toBeLessThan(gained * 0.1);
  });
});

describe('a rate shift and a trend', () => {
  it('a rate shift moves the segment\'s key events with its sessions unchanged', async () => {
    const before = await gaRows(LARGE, 'deviceCategory', '2026-05-01', '2026-05-28', ['sessions', 'keyEvents', 'engagedSessions']);
    await control('POST', { events: [{ kind: 'rate_shift', property: LARGE, dimension: 'deviceCategory', value: 'mobile', metric: 'sessionKeyEventRate', from: '2026-05-01', factor: 0.7 }] });
    const after = await gaRows(LARGE, 'deviceCategory', '2026-05-01', '2026-05-28', ['sessions', 'keyEvents', 'engagedSessions']);
    expect(after.get('mobile')![0]).toBe(before.get('mobile')![0]);
    expect(after.get('mobile')![2]).toBe(before.get('mobile')![2]);
    expect(ratio(after.get('mobile')![1]!, before.get('mobile')![1]!)).toBeCloseTo(0.7, 1);
    expect(after.get('desktop')).toEqual(before.get('desktop'));
  });

  it('a trend slopes from its first day to its factor on its last, and stays there', async () => {
    const day = async (date: string) => (await gaRows(LARGE, 'country', date, date, ['sessions'])).get('Germany')![0]!;
    const dates = ['2026-05-01', '2026-05-11', '2026-05-21', '2026-05-28'];
    const before = await Promise.all(dates.map(day));
    await control('POST', { events: [{ kind: 'trend', property: LARGE, dimension: 'country', value: 'Germany', from: '2026-05-01', to: '2026-05-21', factor: 0.4 }] });
    const after = await Promise.all(dates.map(day));
    const ratios = after.map((a, i) => a / before[i]!);
    // Day 1 of 21 is 1/21 of the way, day 11 about half way, day 21 and later the whole way.
    expect(ratios[0]).toBeCloseTo(1 - 0.6 / 21, 1);
    expect(ratios[1]).toBeCloseTo(1 - (0.6 * 11) / 21, 1);
    expect(ratios[2]).toBeCloseTo(0.4, 1);
    expect(ratios[3]).toBeCloseTo(0.4, 1);
  });
});

describe('a ranking loss', () => {
  const FROM = '2026-05-01';
  let top: { query: string; page: string } | undefined;
  /** A query the shop ranks for near the top (as in "position 3 → 11"), with its page. */
  async function topQuery(): Promise<{ query: string; page: string }> {
    if (top) return top;
    const rows = await gscRows(SHOP_SITE, { startDate: '2026-04-24', endDate: '2026-04-24', dimensions: ['query', 'page'], rowLimit: 50 });
    const row = rows.find((r) => r.position > 2 && r.position < 6)!;
    return (top = { query: row.keys[0], page: row.keys[1] });
  }
  const daily = async (query: string) =>
    gscRows(SHOP_SITE, { startDate: '2026-04-26', endDate: '2026-05-05', dimensions: ['date'], dimensionFilterGroups: [{ filters: [{ dimension: 'query', expression: query }] }] });

  it('moves the query to the new position on engine1 from its day, with fewer clicks and the same impressions', async () => {
    const { query } = await topQuery();
    const before = await daily(query);
    await control('POST', { events: [{ kind: 'ranking_loss', site: SHOP_SITE, query, from: FROM, position: 11 }] });
    const after = await daily(query);
    const from = after.filter((r) => r.keys[0] >= FROM);
    expect(from.length).toBe(5);
    for (const r of from) {
      expect(r.position).toBeGreaterThan(9);
      expect(r.position).toBeLessThan(13);
    }
    expect(after.filter((r) => r.keys[0] < FROM)).toEqual(before.filter((r) => r.keys[0] < FROM));
    const sum = (rows: Json[], k: string) => rows.filter((r) => r.keys[0] >= FROM).reduce((a, r) => a + r[k], 0);
    expect(sum(after, 'clicks')).toBeLessThan(sum(before, 'clicks') * 0.5);
    expect(ratio(sum(after, 'impressions'), sum(before, 'impressions'))).toBeCloseTo(1, 1);
  });

  it('moves it on engine2 too, and takes the lost clicks from the page\'s organic sessions in GA', async () => {
    const { query, page } = await topQuery();
    const path = new URL(page).pathname;
    const landing = async (source: string) => {
      const res = await post(sandbox, token, gaUrl(LARGE, 'runReport'), {
        dateRanges: [{ startDate: '2026-05-01', endDate: '2026-05-28' }], dimensions: [{ name: 'landingPage' }], metrics: [{ name: 'sessions' }],
        dimensionFilter: { andGroup: { expressions: [{ filter: { fieldName: 'landingPage', stringFilter: { value: path } } }, { filter: { fieldName: 'sessionSource', stringFilter: { value: source } } }] } },
      });
      return num(res.body.rows[0].metricValues[0]);
    };
    const [googleBefore, directBefore] = [await landing('google'), await landing('(direct)')];
    await control('POST', { events: [{ kind: 'ranking_loss', site: 'sc-domain:www.acme-shop.example', query, from: FROM, position: 11 }] });
    expect(await landing('google')).toBeLessThan(googleBefore * 0.97);
    expect(ratio(await landing('(direct)'), directBefore)).toBeCloseTo(1, 2);
    const url = `https://ssl.bing.com/webmaster/api.svc/json/GetQueryPageStats?apikey=${sandbox.credentials.bingApiKey}&siteUrl=${encodeURIComponent(SHOP_SITE)}&query=${encodeURIComponent(query)}`;
    const weeks = ((await (await sandbox.fetch(new Request(url))).json()) as Json).d as Json[];
    const late = weeks.filter((w) => new Date(Number(/\d+/.exec(w.Date)![0])).toISOString().slice(0, 10) >= '2026-05-08');
    expect(late.length).toBeGreaterThan(0);
    for (const w of late) expect(w.AvgImpressionPosition).toBeGreaterThanOrEqual(9);
  });
});

describe('a cannibalisation', () => {
  it('splits the query over the listed pages from its day on both engines, taking turns, at a worse position', async () => {
    const query = 'hiking boots';
    const pagesOf = async (startDate: string, endDate: string) =>
      gscRows(SHOP_SITE, { startDate, endDate, dimensions: ['page', 'date'], dimensionFilterGroups: [{ filters: [{ dimension: 'query', expression: query }] }] });
    const before = await pagesOf('2026-04-27', '2026-05-06');
    const ranked = before.filter((r) => r.keys[1] < '2026-05-01');
    const pages = ['/', '/sale'];
    await control('POST', { events: [{ kind: 'cannibalisation', site: SHOP_SITE, query, pages, from: '2026-05-01' }] });
    const after = await pagesOf('2026-04-27', '2026-05-06');
    expect(after.filter((r) => r.keys[1] < '2026-05-01')).toEqual(ranked);
    const late = after.filter((r) => r.keys[1] >= '2026-05-01');
    expect(new Set(late.map((r) => new URL(r.keys[0]).pathname))).toEqual(new Set(pages));
    // The split swings: each page leads on some day.
    const leaders = new Set(['2026-05-01', '2026-05-02', '2026-05-03', '2026-05-04', '2026-05-05', '2026-05-06'].map((d) => late.filter((r) => r.keys[1] === d).sort((a, b) => b.impressions - a.impressions)[0]!.keys[0]));
    expect(leaders.size).toBe(2);
    const impressions = (rows: Json[]) => rows.reduce((a, r) => a + r.impressions, 0);
    expect(ratio(impressions(late), impressions(before.filter((r) => r.keys[1] >= '2026-05-01')))).toBeCloseTo(1, 1);
    const best = Math.min(...ranked.map((r) => r.position));
    expect(Math.min(...late.map((r) => r.position))).toBeGreaterThan(best);
    const url = `https://ssl.bing.com/webmaster/api.svc/json/GetQueryPageStats?apikey=${sandbox.credentials.bingApiKey}&siteUrl=${encodeURIComponent(SHOP_SITE)}&query=${encodeURIComponent(query)}`;
    const weeks = ((await (await sandbox.fetch(new Request(url))).json()) as Json).d as Json[];
    const lateWeeks = weeks.filter((w) => new Date(Number(/\d+/.exec(w.Date)![0])).toISOString().slice(0, 10) >= '2026-05-08');
    expect(new Set(lateWeeks.map((w) => new URL(w.Query).pathname))).toEqual(new Set(pages));
  });
});

describe('with events planted', () => {
  it('breakdowns still add up to the totals on GA and engine1', async () => {
    await control('POST', { events: [
      SHIFT,
      { kind: 'spike', property: LARGE, dimension: 'deviceCategory', value: 'tablet', date: '2026-05-12', factor: 4 },
      { kind: 'segment_shift', property: LARGE, dimension: 'sessionDefaultChannelGroup', value: 'Organic Search', from: '2026-05-20', factor: 0.8 },
    ] });
    const total = async (dimension: string) => [...(await gaRows(LARGE, dimension, '2026-05-01', '2026-05-28', ['sessions'])).values()].reduce((a, r) => a + r[0]!, 0);
    const sessions = await total('country');
    expect(sessions).toBeGreaterThan(0);
    expect(await total('deviceCategory')).toBe(sessions);
    expect(await total('sessionDefaultChannelGroup')).toBe(sessions);
    const clicks = async (dimensions: string[]) => (await gscRows(SHOP_SITE, { startDate: '2026-05-01', endDate: '2026-05-28', dimensions })).reduce((a, r) => a + r.clicks, 0);
    const all = await clicks([]);
    expect(all).toBeGreaterThan(0);
    expect(await clicks(['country'])).toBe(all);
    expect(await clicks(['device'])).toBe(all);
  });
});
