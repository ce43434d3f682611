// Planted truths stay where they are planted: for every kind of event and random segments, every other segment's
// numbers — in GA, engine1 and engine2 — are byte-identical to the unplanted data, and the totals move by exactly
// the planted segment's change.
import fc from 'fast-check';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/sandbox.ts';
import { accessToken, gaUrl, gscUrl, JOURNAL_SITE, LARGE, MEDIUM, post, SMALL, testSandbox, type Json } from './helpers.ts';

const SITES: Record<string, string> = { [LARGE]: 'https://www.acme-shop.example/', [MEDIUM]: JOURNAL_SITE, [SMALL]: 'https://app.tiny-saas.example/' };
const BING_SITES: Record<string, string> = { ...SITES, [MEDIUM]: 'https://northwind-journal.example/' };
const GA_METRICS = ['sessions', 'totalUsers', 'engagedSessions', 'keyEvents', 'screenPageViews', 'eventCount', 'purchaseRevenue'];
const ADDITIVE = ['sessions', 'keyEvents', 'screenPageViews', 'eventCount', 'purchaseRevenue'];
const DIMENSIONS = ['country', 'deviceCategory', 'sessionDefaultChannelGroup', 'landingPage'] as const;
const FROM = '2026-05-10';
const RANGE = { startDate: '2026-05-01', endDate: '2026-05-28' };

let sandbox: Sandbox;
let token: string;
beforeAll(async () => {
  sandbox = await testSandbox();
  token = await accessToken(sandbox);
});
afterEach(() => sandbox.clearScenarios());

/** Plants one event on otherwise unplanted data (property runs follow each other without afterEach). */
function plant(event: Json): void {
  sandbox.clearScenarios();
  const added = sandbox.addScenarios([event as never]);
  if ('issues' in added) throw new Error(JSON.stringify(added.issues));
}

/** GA rows keyed by the dimension values (and the date, when asked by day). */
async function gaRows(property: string, dims: string[], metrics = GA_METRICS): Promise<Map<string, number[]>> {
  const res = await post(sandbox, token, gaUrl(property, 'runReport'), { dateRanges: [RANGE], dimensions: dims.map((name) => ({ name })), metrics: metrics.map((name) => ({ name })), limit: 100_000 });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return new Map((res.body.rows as Json[] ?? []).map((r) => [r.dimensionValues.map((v: Json) => v.value).join('|'), r.metricValues.map((v: Json) => Number(v.value))]));
}

async function gscRows(property: string, dimensions: string[]): Promise<Map<string, number[]>> {
  const res = await post(sandbox, token, gscUrl(SITES[property]!), { ...RANGE, dimensions, rowLimit: 25_000 });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return new Map((res.body.rows as Json[] ?? []).map((r) => [r.keys.join('|'), [r.clicks, r.impressions, r.position]]));
}

async function bingRows(property: string, method: 'GetQueryStats' | 'GetPageStats'): Promise<Map<string, number[]>> {
  const url = `https://ssl.bing.com/webmaster/api.svc/json/${method}?apikey=${sandbox.credentials.bingApiKey}&siteUrl=${encodeURIComponent(BING_SITES[property]!)}`;
  const rows = ((await (await sandbox.fetch(new Request(url))).json()) as Json).d as Json[];
  return new Map(rows.map((r) => [`${r.Query}|${r.Date}`, [r.Clicks, r.Impressions, r.AvgImpressionPosition]]));
}

/** Rows of `after` whose key is not the planted segment's are exactly those of `before`; the planted ones changed. */
function expectOnlyPlantedMoved(before: Map<string, number[]>, after: Map<string, number[]>, planted: (key: string) => boolean, label: string): void {
  const others = [...before.keys()].filter((k) => !planted(k));
  expect(others.length, `${label}: other rows`).toBeGreaterThan(0);
  for (const key of others) expect(after.get(key), `${label} ${key}`).toEqual(before.get(key));
  for (const key of after.keys()) if (!before.has(key)) expect(planted(key), `${label}: new row ${key}`).toBe(true);
  expect([...after.entries()].some(([k, v]) => planted(k) && JSON.stringify(v) !== JSON.stringify(before.get(k))), `${label}: the planted rows moved`).toBe(true);
}

const column = (rows: Map<string, number[]>, i: number) => [...rows.values()].reduce((a, r) => a + r[i]!, 0);

/** A segment of the property big enough to see in a day's rows. */
async function segments(property: string, dimension: string): Promise<string[]> {
  const rows = await gaRows(property, [dimension], ['sessions']);
  return [...rows.entries()].filter(([v, r]) => v !== '(not set)' && r[0]! > 2000).map(([v]) => v).slice(0, 12);
}

describe('a planted GA segment moves that segment only', { timeout: 120_000 }, () => {
  const kinds = fc.constantFrom(
    { kind: 'segment_shift', from: FROM, factor: 0.6 },
    { kind: 'segment_shift', from: FROM, factor: 2.5 },
    { kind: 'spike', date: '2026-05-12', factor: 4 },
    { kind: 'trend', from: FROM, to: '2026-05-24', factor: 0.5 },
    { kind: 'rate_shift', metric: 'sessionKeyEventRate', from: FROM, factor: 0.7 },
    { kind: 'rate_shift', metric: 'engagementRate', from: FROM, factor: 0.85 },
  );

  it('in GA by the same dimension (by range and by day), with totals moved by exactly the segment\'s change', async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom(MEDIUM, SMALL, MEDIUM, LARGE), fc.constantFrom(...DIMENSIONS), kinds, fc.nat(11), async (property, dimension, kind, pick) => {
      sandbox.clearScenarios();
      const values = await segments(property, dimension);
      fc.pre(values.length > 1);
      const value = values[pick % values.length]!;
      const before = await gaRows(property, [dimension]);
      const daily = await gaRows(property, [dimension, 'date']);
      plant({ property, dimension, value, ...kind });
      const after = await gaRows(property, [dimension]);
      const isPlanted = (key: string) => key.split('|')[0] === value;
      expectOnlyPlantedMoved(before, after, isPlanted, `${property} ${dimension}=${value} ${kind.kind}`);
      expectOnlyPlantedMoved(daily, await gaRows(property, [dimension, 'date']), isPlanted, `${property} ${dimension}=${value} by day`);
      for (const metric of ADDITIVE) {
        const i = GA_METRICS.indexOf(metric);
        expect(column(after, i) - column(before, i), metric).toBeCloseTo(after.get(value)![i]! - before.get(value)![i]!, 2);
      }
      // A rate shift leaves the volume alone.
      if (kind.kind === 'rate_shift') expect(after.get(value)![0]).toBe(before.get(value)![0]);
    }), { numRuns: 10 });
  });

  it('on the engines, where the segment is search traffic (countries, devices, landing pages)', async () => {
    const cases = fc.constantFrom(['country', 'Germany', 'country', 'deu'], ['country', 'United States', 'country', 'usa'], ['deviceCategory', 'mobile', 'device', 'MOBILE'], ['deviceCategory', 'desktop', 'device', 'DESKTOP']);
    await fc.assert(fc.asyncProperty(fc.constantFrom(MEDIUM, LARGE), cases, fc.constantFrom(0.5, 1.8), async (property, [dimension, value, searchDim, searchValue], factor) => {
      sandbox.clearScenarios();
      const before = await gscRows(property, [searchDim!]);
      plant({ kind: 'segment_shift', property, dimension, value, from: FROM, factor });
      expectOnlyPlantedMoved(before, await gscRows(property, [searchDim!]), (k) => k === searchValue, `engine1 ${searchDim}=${searchValue}`);
    }), { numRuns: 6 });
  });
});

describe('a planted search event moves its query or page only', { timeout: 180_000 }, () => {
  /** A page-one query of the site with the page that ranks for it. */
  async function rankedQueries(property: string): Promise<{ query: string; page: string }[]> {
    const rows = await gscRows(property, ['query', 'page']);
    return [...rows.entries()].filter(([, r]) => r[2]! < 8 && r[0]! > 20).map(([k]) => ({ query: k.split('|')[0]!, page: k.split('|')[1]! })).slice(0, 10);
  }

  it('a ranking loss (on engine1, engine2 or both) moves that query on those engines and its pages\' organic landings in GA', async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom(MEDIUM, SMALL), fc.constantFrom('engine1', 'engine2', 'all'), fc.nat(9), async (property, engine, pick) => {
      sandbox.clearScenarios();
      const e2 = await bingRows(property, 'GetQueryStats');
      const onBing = new Set([...e2.keys()].map((k) => k.split('|')[0]));
      // A loss on engine2 alone needs a query engine2 shows.
      const queries = (await rankedQueries(property)).filter((q) => engine === 'engine1' || onBing.has(q.query));
      fc.pre(queries.length > 0);
      const { query } = queries[pick % queries.length]!;
      const e1 = await gscRows(property, ['query']);
      const ga = await gaRows(property, ['landingPage', 'sessionSource']);
      plant({ kind: 'ranking_loss', site: SITES[property], query, from: FROM, position: 14, engine });
      const isQuery = (k: string) => k.split('|')[0] === query;
      if (engine !== 'engine2') expectOnlyPlantedMoved(e1, await gscRows(property, ['query']), isQuery, `engine1 '${query}'`);
      else expect(await gscRows(property, ['query'])).toEqual(e1);
      const e2After = await bingRows(property, 'GetQueryStats');
      if (engine === 'engine1') expect(e2After).toEqual(e2);
      else for (const [k, v] of e2) if (!isQuery(k)) expect(e2After.get(k), `engine2 ${k}`).toEqual(v);
      // Only organic landings from the engines that lost the query move, and only on the pages that ranked for it.
      const rankedPages = new Set([...(await gscRows(property, ['query', 'page'])).keys()].filter(isQuery).map((k) => new URL(k.split('|')[1]!).pathname));
      const sources = engine === 'engine1' ? ['google'] : engine === 'engine2' ? ['bing'] : ['google', 'bing'];
      const moved = (k: string) => rankedPages.has(k.split('|')[0]!) && sources.includes(k.split('|')[1]!);
      const gaAfter = await gaRows(property, ['landingPage', 'sessionSource']);
      for (const [k, v] of ga) if (!moved(k)) expect(gaAfter.get(k), `GA ${k}`).toEqual(v);
      // The moved landings lost sessions (Bing's share of a small site can be too small to lose a whole one).
      const movedSessions = (rows: Map<string, number[]>) => [...rows].filter(([k]) => moved(k)).reduce((a, [, v]) => a + v[0]!, 0);
      if (sources.includes('google')) expect(movedSessions(gaAfter)).toBeLessThan(movedSessions(ga));
      else expect(movedSessions(gaAfter)).toBeLessThanOrEqual(movedSessions(ga));
    }), { numRuns: 5 });
  });

  it('a page drop moves that page, the queries it ranks for, and its organic landings, nothing else', async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom(MEDIUM, SMALL), fc.nat(9), fc.constantFrom(0.3, 0.6), async (property, pick, factor) => {
      sandbox.clearScenarios();
      const queries = await rankedQueries(property);
      const { page } = queries[pick % queries.length]!;
      const path = new URL(page).pathname;
      const pages = await gscRows(property, ['page']);
      const pairs = await gscRows(property, ['query', 'page']);
      const bingPages = await bingRows(property, 'GetPageStats');
      const landings = await gaRows(property, ['landingPage', 'sessionSource']);
      plant({ kind: 'page_drop', site: SITES[property], page: path, from: FROM, factor });
      expectOnlyPlantedMoved(pages, await gscRows(property, ['page']), (k) => k === page, `engine1 page ${path}`);
      expectOnlyPlantedMoved(pairs, await gscRows(property, ['query', 'page']), (k) => k.endsWith(`|${page}`), `engine1 query×page ${path}`);
      expectOnlyPlantedMoved(bingPages, await bingRows(property, 'GetPageStats'), (k) => k.startsWith(`${page}|`), `engine2 page ${path}`);
      expectOnlyPlantedMoved(landings, await gaRows(property, ['landingPage', 'sessionSource']), (k) => k === `${path}|google` || k === `${path}|bing`, `GA landings ${path}`);
    }), { numRuns: 4 });
  });
});
