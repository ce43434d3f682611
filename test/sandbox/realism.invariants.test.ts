// The relations that make the demo behave like a real site, pinned on all three demo projects through Siteline
// itself (what a user sees) and, where Siteline does not expose the field, on the sandbox directly.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_FUNNELS, demoFunnelKey } from '../../src/demo/demo-funnels.ts';
import { CARDINALITY_LIMIT, USER_THRESHOLD } from '../../src/sandbox/analytics/report-caveats.ts';
import { DEMO_SITES } from '../../src/sandbox/catalogue.ts';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';
import { accessToken, gaUrl, gscUrl, num, post, type Json } from './helpers.ts';

let rt: SandboxRuntime;
let token: string;
beforeAll(async () => {
  // Hundreds of reads, many answered from memory at once: the key's own limits are not what is tested here.
  rt = await createSandboxRuntime({ shared: { limits: { request: { name: 'default', points: 1_000_000, windowSec: 60 }, burst: { name: 'burst', points: 1_000_000, windowSec: 1 } } } });
  token = await accessToken(rt.sandbox);
});
afterAll(() => rt.dispose());

const PROJECTS = DEMO_SITES.map((s) => s.key);
const within = (value: number, target: number, tolerance: number) => Math.abs(value - target) <= tolerance * target;
type Row = Record<string, any>;

async function breakdown(project: string, dimension: string, metrics: string, extra = ''): Promise<Row[]> {
  const { status, body } = await rt.get(`/api/v1/metrics/${project}/dimension?dimension=${dimension}&metrics=${metrics}&limit=1000${extra}`);
  expect(status, JSON.stringify(body)).toBe(200);
  return body.rows;
}

async function summary(project: string, period = '28days'): Promise<Record<string, number>> {
  const { body } = await rt.get(`/api/v1/metrics/${project}/summary?compare=none&period=${period}`);
  return body.metrics;
}

async function ga(project: string, request: Json): Promise<Json> {
  const site = DEMO_SITES.find((s) => s.key === project)!;
  const res = await post(rt.sandbox, token, gaUrl(site.analytics.propertyId, 'runReport'), request);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe.each(PROJECTS)('%s: events mirror the totals, users are reach', (project) => {
  it('session_start ≈ sessions, first_visit ≈ new users, page_view ≈ views, page_view users ≈ active users', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('7days', '28days', '90days'), async (period) => {
        const totals = await summary(project, period);
        const events = new Map((await breakdown(project, 'eventName', 'eventCount,activeUsers,sessions', `&period=${period}`)).map((r) => [r.eventName, r]));
        expect(within(events.get('session_start')!.eventCount, totals.sessions!, 0.03)).toBe(true);
        expect(within(events.get('session_start')!.sessions, totals.sessions!, 0.01)).toBe(true);
        expect(within(events.get('first_visit')!.eventCount, totals.newUsers!, 0.06)).toBe(true);
        expect(within(events.get('page_view')!.eventCount, totals.screenPageViews!, 0.05)).toBe(true);
        expect(within(events.get('page_view')!.activeUsers, totals.activeUsers!, 0.02)).toBe(true);
        // Counts add up exactly; users do not (one user triggers several events).
        const rows = [...events.values()];
        expect(rows.reduce((a, r) => a + r.eventCount, 0)).toBe(totals.eventCount);
        expect(rows.reduce((a, r) => a + r.activeUsers, 0)).toBeGreaterThan(totals.activeUsers! * 1.5);
      }),
      { numRuns: 3 },
    );
  });

  it('users over pages exceed the total while views add up; landing users of a page never exceed its viewing users', async () => {
    const totals = await summary(project);
    // Every page (the large property has more than one API page of them), straight from the provider.
    const all = await ga(project, { dateRanges: [{ startDate: '28daysAgo', endDate: 'yesterday' }], dimensions: [{ name: 'pagePath' }], metrics: [{ name: 'screenPageViews' }], limit: 100000 });
    expect((all.rows as Json[]).reduce((a, r) => a + num(r.metricValues[0]), 0)).toBe(totals.screenPageViews);
    const pages = await breakdown(project, 'pagePath', 'activeUsers,screenPageViews,sessions');
    expect(pages.reduce((a, r) => a + r.activeUsers, 0)).toBeGreaterThan(totals.activeUsers!);
    for (const r of pages) expect(r.sessions, r.pagePath).toBeLessThanOrEqual(r.screenPageViews);
    const viewing = new Map(pages.map((r) => [r.pagePath, r.activeUsers as number]));
    const landings = await ga(project, { dateRanges: [{ startDate: '28daysAgo', endDate: 'yesterday' }], dimensions: [{ name: 'landingPage' }], metrics: [{ name: 'sessions' }], limit: 100000 });
    expect((landings.rows as Json[]).reduce((a, r) => a + num(r.metricValues[0]), 0)).toBe(totals.sessions);
    const landing = await breakdown(project, 'landingPage', 'activeUsers,sessions');
    for (const r of landing.filter((x) => viewing.has(x.landingPage))) expect(r.activeUsers, r.landingPage).toBeLessThanOrEqual(viewing.get(r.landingPage)!);
  });
});

describe.each(PROJECTS)('%s: rates and trends differ by dimension value', (project) => {
  it.each(['deviceCategory', 'sessionDefaultChannelGroup', 'country'])('engagement rate and session duration vary across %s', async (dimension) => {
    const rows = (await breakdown(project, dimension, 'sessions,engagementRate,averageSessionDuration')).filter((r) => r.sessions >= 40);
    expect(rows.length).toBeGreaterThan(1);
    const spread = (key: string) => Math.max(...rows.map((r) => r[key])) / Math.min(...rows.map((r) => r[key]));
    expect(spread('engagementRate')).toBeGreaterThan(1.03);
    expect(spread('averageSessionDuration')).toBeGreaterThan(1.05);
  });

  it('countries and devices change by different percentages year over year', async () => {
    for (const dimension of ['country', 'deviceCategory']) {
      const rows = (await breakdown(project, dimension, 'sessions', '&period=90days&compare=year')).filter((r) => r.sessions.previous >= 200);
      const changes = rows.map((r) => r.sessions.deltaPct as number);
      expect(Math.max(...changes) - Math.min(...changes), dimension).toBeGreaterThan(0.05);
    }
  });
});

describe.each(PROJECTS)('%s: search follows analytics', (project) => {
  it('engine1 clicks are 0.6–1.0 × Google organic sessions, engine2 clicks 0.5–1.0 × Bing organic sessions', async () => {
    const sources = new Map((await breakdown(project, 'sessionSourceMedium', 'sessions')).map((r) => [r.sessionSourceMedium, r.sessions as number]));
    const { body } = await rt.get(`/api/v1/metrics/${project}/search/summary?compare=none&period=custom_${daysAgo(40)}_${daysAgo(13)}`);
    const google = (await rt.get(`/api/v1/metrics/${project}/dimension?dimension=sessionSourceMedium&metrics=sessions&compare=none&period=custom_${daysAgo(40)}_${daysAgo(13)}&filter=sessionSourceMedium==google%20%2F%20organic`)).body.rows[0].sessions;
    expect(sources.get('google / organic')).toBeGreaterThan(0);
    const ratio1 = body.byProvider.engine1.clicks / google;
    expect(ratio1).toBeGreaterThan(0.6);
    expect(ratio1).toBeLessThan(1.0);
    if (body.byProvider.engine2) {
      const bing = (await rt.get(`/api/v1/metrics/${project}/dimension?dimension=sessionSourceMedium&metrics=sessions&compare=none&period=custom_${daysAgo(40)}_${daysAgo(13)}&filter=sessionSourceMedium==bing%20%2F%20organic`)).body.rows[0].sessions;
      const ratio2 = body.byProvider.engine2.clicks / bing;
      expect(ratio2).toBeGreaterThan(0.5);
      expect(ratio2).toBeLessThan(1.0);
    }
  });

  it('landing pages: search clicks stay at or below the sessions landing there for most pages', async () => {
    const { body } = await rt.get(`/api/v1/metrics/${project}/landing-pages?sp=engine1&limit=20&order=-sessions`);
    const rows = (body.rows as Row[]).filter((r) => r.sessions > 50);
    const ok = rows.filter((r) => r.clicks <= r.sessions);
    expect(ok.length / rows.length).toBeGreaterThanOrEqual(0.8);
  });

  it('engine1 positions move by day, by period and by hour', async () => {
    const daily = (await rt.get(`/api/v1/metrics/${project}/search/timeseries?sp=engine1&period=28days&interval=day`)).body.points as Row[];
    const positions = daily.map((p) => p.position).filter((p): p is number => p !== null);
    expect(new Set(positions.map((p) => p.toFixed(3))).size).toBeGreaterThan(positions.length / 2);
    const periods = await Promise.all(['7days', '28days', '90days'].map(async (period) => (await rt.get(`/api/v1/metrics/${project}/search/summary?sp=engine1&compare=none&period=${period}`)).body.totals.position as number));
    expect(new Set(periods.map((p) => p.toFixed(3))).size).toBe(3);
    const hourly = (await rt.get(`/api/v1/metrics/${project}/search/timeseries?sp=engine1&period=custom_${daysAgo(5)}_${daysAgo(4)}&interval=hour`)).body.points as Row[];
    const hours = hourly.map((p) => p.position).filter((p): p is number => p !== null);
    expect(new Set(hours.map((p) => p.toFixed(3))).size).toBeGreaterThan(hours.length / 2);
  });

  it('byPage aggregation counts per page, unlike byProperty', async () => {
    const site = DEMO_SITES.find((s) => s.key === project)!;
    const body = { startDate: daysAgo(30), endDate: daysAgo(4) };
    const property = await post(rt.sandbox, token, gscUrl(site.engine1.siteUrl), { ...body, aggregationType: 'byProperty' });
    const page = await post(rt.sandbox, token, gscUrl(site.engine1.siteUrl), { ...body, aggregationType: 'byPage' });
    expect(page.body.responseAggregationType).toBe('byPage');
    expect(page.body.rows[0].impressions).toBeGreaterThan(property.body.rows[0].impressions);
    expect(page.body.rows[0].position).not.toBe(property.body.rows[0].position);
  });
});

describe.each(PROJECTS)('%s: funnels come from the same users', (project) => {
  it('the demo funnels exist under stable keys and their steps never grow', async () => {
    const site = DEMO_SITES.find((s) => s.key === project)!;
    const { body } = await rt.get(`/api/v1/projects/${project}/funnels/list`);
    expect(body.funnels.map((f: Row) => f.key).sort()).toEqual(DEMO_FUNNELS[site.kind].map((f) => demoFunnelKey(project, f.slug)).sort());
    for (const funnel of body.funnels as Row[]) {
      const results = await rt.get(`/api/v1/funnels/${funnel.key}/results`);
      expect(results.status).toBe(200);
      const users = (results.body.steps as Row[]).map((s) => s.users as number);
      expect(users[0]).toBeGreaterThan(0);
      expect(users).toEqual([...users].sort((a, b) => b - a));
    }
  });

  it('a first step matches what the event and page breakdowns say, and reads the same however the request is spelled', async () => {
    const site = DEMO_SITES.find((s) => s.key === project)!;
    const url = `https://analyticsdata.googleapis.com/v1alpha/properties/${site.analytics.propertyId}:runFunnelReport`;
    const dateRanges = [{ startDate: '28daysAgo', endDate: 'yesterday' }];
    const stepUsers = async (funnel: Json) => {
      const res = await post(rt.sandbox, token, url, { dateRanges, funnel });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body.funnelVisualization.rows as Json[]).map((r) => num(r.metricValues[0]));
    };
    const events = new Map((await breakdown(project, 'eventName', 'activeUsers', '&period=custom_' + daysAgo(28) + '_' + daysAgo(1))).map((r) => [r.eventName, r.activeUsers as number]));
    const rare = site.kind === 'content' ? 'sign_up' : 'purchase';
    const [first] = await stepUsers({ steps: [{ name: 'a', filterExpression: { funnelEventFilter: { eventName: rare } } }, { name: 'b', filterExpression: { funnelEventFilter: { eventName: 'page_view' } } }] });
    expect(within(first!, events.get(rare)!, 0.15), `${first} vs ${events.get(rare)}`).toBe(true);

    const pages = await breakdown(project, 'pagePath', 'activeUsers', '&period=custom_' + daysAgo(28) + '_' + daysAgo(1));
    const top = pages[0]!;
    const [onPage] = await stepUsers({ steps: [{ name: 'p', filterExpression: { funnelFieldFilter: { fieldName: 'pagePath', stringFilter: { matchType: 'EXACT', value: top.pagePath } } } }, { name: 'e', filterExpression: { funnelEventFilter: { eventName: 'session_start' } } }] });
    expect(within(onPage!, top.activeUsers, 0.1), `${onPage} vs ${top.activeUsers}`).toBe(true);
    const section = site.kind === 'shop' ? '/products/' : site.kind === 'content' ? '/articles/' : '/docs';
    const [sectionUsers] = await stepUsers({ steps: [{ name: 's', filterExpression: { funnelFieldFilter: { fieldName: 'pagePath', stringFilter: { matchType: 'BEGINS_WITH', value: section } } } }, { name: 'e', filterExpression: { funnelEventFilter: { eventName: 'page_view' } } }] });
    expect(sectionUsers).toBeLessThan(events.get('page_view')! * 0.95);

    const steps = [{ name: 'x', filterExpression: { funnelEventFilter: { eventName: 'page_view' } } }, { name: 'y', filterExpression: { funnelEventFilter: { eventName: 'scroll' } } }];
    const plain = await stepUsers({ steps });
    expect(await stepUsers({ isOpenFunnel: false, steps })).toEqual(plain);
    expect(await stepUsers({ steps: steps.map((s) => ({ filterExpression: s.filterExpression, name: `${s.name} renamed`, isDirectlyFollowedBy: false })) })).toEqual(plain);
  });
});

describe('report caveats as GA sets them', () => {
  it('demographic breakdowns are thresholded: the flag is set and no row has fewer users than the threshold', async () => {
    for (const project of PROJECTS) {
      const body = await ga(project, { dateRanges: [{ startDate: '28daysAgo', endDate: 'yesterday' }], dimensions: [{ name: 'userAgeBracket' }, { name: 'userGender' }], metrics: [{ name: 'totalUsers' }] });
      expect(body.metadata.subjectToThresholding).toBe(true);
      for (const row of body.rows ?? []) expect(num(row.metricValues[0])).toBeGreaterThanOrEqual(USER_THRESHOLD);
      const plain = await ga(project, { dateRanges: [{ startDate: '28daysAgo', endDate: 'yesterday' }], dimensions: [{ name: 'country' }], metrics: [{ name: 'totalUsers' }] });
      expect(plain.metadata.subjectToThresholding).toBeUndefined();
    }
    const { body } = await rt.get('/api/v1/metrics/tiny-saas/dimension?dimension=userAgeBracket');
    expect(body.meta.warnings.map((w: Row) => w.code)).toContain('thresholded');
  });

  it('past the cardinality limit the rest is one (other) row and dataLossFromOtherRow is set', async () => {
    const body = await ga('acme-shop', { dateRanges: [{ startDate: '7daysAgo', endDate: 'yesterday' }], dimensions: [{ name: 'pagePath' }, { name: 'city' }], metrics: [{ name: 'screenPageViews' }], limit: 100000 });
    expect(body.metadata.dataLossFromOtherRow).toBe(true);
    expect(body.rowCount).toBe(CARDINALITY_LIMIT);
    expect(body.rows.filter((r: Json) => r.dimensionValues[0].value === '(other)')).toHaveLength(1);
    const small = await ga('tiny-saas', { dateRanges: [{ startDate: '90daysAgo', endDate: 'yesterday' }], dimensions: [{ name: 'pagePath' }], metrics: [{ name: 'screenPageViews' }] });
    expect(small.metadata.dataLossFromOtherRow).toBeUndefined();
  });

  it('multi-year reports of the large property carry sampling metadata; a year does not', async () => {
    const sampled = await ga('acme-shop', { dateRanges: [{ startDate: '2021-01-01', endDate: '2025-12-31' }], metrics: [{ name: 'sessions' }] });
    const [meta] = sampled.metadata.samplingMetadatas;
    expect(Number(meta.samplesReadCount)).toBeLessThan(Number(meta.samplingSpaceSize));
    const year = await ga('acme-shop', { dateRanges: [{ startDate: '365daysAgo', endDate: 'yesterday' }], metrics: [{ name: 'sessions' }] });
    expect(year.metadata.samplingMetadatas).toBeUndefined();
  });
});

function daysAgo(n: number): string {
  return new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
}
