// The typed graph's Portfolio query over the three demo projects: typed answers, and cold, the upstream calls the
// batching promises — one analytics batchRunReports per property, one engine1 call per site and distinct request,
// engine2 history once per site — read from the sandbox's call counter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MONTH_OVER_MONTH_QUERY, PORTFOLIO_QUERY } from '../../src/graphql/portfolio-query.ts';
import { expectEvery } from '../helpers/expect-every.ts';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';

const PORTFOLIO = PORTFOLIO_QUERY;

interface Figure {
  value: number;
  previous?: number | null;
  deltaPct?: number | null;
}
interface PortfolioProject {
  key: string;
  name: string;
  summary: { sessions: Figure; activeUsers: Figure } | null;
  search: { clicks: Figure; impressions: Figure; position: Figure | null } | null;
  countries: { totalRows: number; rows: { value: string; country: { code: string } | null; metric: Figure }[] } | null;
}

let rt: SandboxRuntime;
// The runtime's own SQLite database, on every pass: the in-process sandbox computes three properties' cold
// reports on the event loop, which can hold a PostgreSQL connection attempt past its 2 s timeout. The calls
// counted here are the providers'; the cache backend follows the environment (Redis on the second pass).
beforeAll(async () => {
  rt = await createSandboxRuntime({ env: { DATABASE_URL: '' } });
});
afterAll(() => rt.dispose());

async function graphql(query: string, variables: Record<string, unknown> = {}, runtime: SandboxRuntime = rt) {
  const res = await runtime.request('/api/graphql', {
    method: 'POST',
    key: runtime.demo.apiKey,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return (await res.json()) as { data?: any; errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> }[] };
}

describe('the Portfolio query', () => {
  it('answers typed figures for every demo project, with the upstream calls batched as promised', async () => {
    rt.sandbox.resetStats();
    const { data, errors } = await graphql(PORTFOLIO);
    expect(errors).toBeUndefined();
    expect(data.projects.totalCount).toBe(3);
    const projects = data.projects.nodes as PortfolioProject[];
    expect(projects.map((p) => p.key)).toEqual(['acme-shop', 'northwind-journal', 'tiny-saas']);
    for (const p of projects) {
      expect(p.summary!.sessions.value, p.key).toBeGreaterThan(0);
      expect(p.summary!.sessions.previous, p.key).toEqual(expect.any(Number));
      expect(p.summary!.activeUsers.value, p.key).toBeGreaterThan(0);
      expect(p.search!.clicks.value, p.key).toBeGreaterThan(0);
      expect(p.countries!.rows.length, p.key).toBeGreaterThan(0);
      expect(p.countries!.rows.length, p.key).toBeLessThanOrEqual(5);
      expectEvery(p.countries!.rows, (row) => row.metric.value > 0);
      // Country names come with their ISO code, so they join with search rows (ISO alpha-3) without a client map.
      expectEvery(p.countries!.rows, (row) => row.country === null || /^[A-Z]{2}$/.test(row.country.code));
    }

    const stats = rt.sandbox.stats();
    // Per analytics property: the summary's reports (period and comparison) and the breakdown leave in one
    // batchRunReports call; the breakdown's names are standard ones, checked without the property's metadata.
    expect(stats.analytics).toEqual({ batchRunReports: 3 });
    // Per engine1 site: the search summary's one request (period and comparison range together).
    expect(stats.engine1).toEqual({ 'searchanalytics.query': 3 });
    // engine2 history once per site; tiny-saas has no engine2 site.
    expect(stats.engine2).toEqual({ GetRankAndTrafficStats: 2 });

    rt.sandbox.resetStats();
    const warm = await graphql(PORTFOLIO);
    expect(warm.data).toEqual(data);
    expect(rt.sandbox.stats().total).toBe(0);
  });

  it('answers month over month for every project in one query, each in its own time zone, as REST does', async () => {
    rt.sandbox.resetStats();
    const { data, errors } = await graphql(MONTH_OVER_MONTH_QUERY);
    expect(errors).toBeUndefined();
    // Cold: one analytics call per property (both months in one report), no metadata call.
    expect(rt.sandbox.stats().analytics).toEqual({ batchRunReports: 3 });
    for (const p of data.projects.nodes as { key: string; summary: { period: { start: string; end: string }; sessions: Figure }; search: { clicks: Figure } }[]) {
      const rest = await rt.get(`/api/v1/metrics/${p.key}/summary?period=last_month&compare=previous`);
      expect(p.summary.period).toEqual({ start: rest.body.period.start, end: rest.body.period.end });
      expect(p.summary.sessions).toEqual({ value: rest.body.metrics.sessions.value, previous: rest.body.metrics.sessions.previous, deltaPct: rest.body.metrics.sessions.deltaPct });
      expect(p.search.clicks.previous).toEqual(expect.any(Number));
    }
  });

  it('selects projects by key and pages through them with a cursor and the total count', async () => {
    const first = await graphql('{ projects(first: 2) { totalCount pageInfo { hasNextPage endCursor } nodes { key } } }');
    expect(first.data.projects).toMatchObject({ totalCount: 3, pageInfo: { hasNextPage: true }, nodes: [{ key: 'acme-shop' }, { key: 'northwind-journal' }] });
    const next = await graphql('query($after: String) { projects(first: 2, after: $after) { pageInfo { hasNextPage hasPreviousPage } edges { cursor node { key } } } }', { after: first.data.projects.pageInfo.endCursor });
    expect(next.data.projects.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true });
    expect(next.data.projects.edges.map((e: { node: { key: string } }) => e.node.key)).toEqual(['tiny-saas']);
    const chosen = await graphql('{ projects(keys: ["tiny-saas", "acme-shop", "not-mine"]) { totalCount nodes { key } } }');
    expect(chosen.data.projects).toEqual({ totalCount: 2, nodes: [{ key: 'acme-shop' }, { key: 'tiny-saas' }] });
    const bad = await graphql('{ projects(first: 0, after: "nonsense") { totalCount } }');
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_parameter', param: 'first' });
    const badCursor = await graphql('{ projects(after: "nonsense") { totalCount } }');
    expect(badCursor.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_parameter', param: 'after' });
  });

  it('compares with the same figures REST gives', async () => {
    const { data } = await graphql(PORTFOLIO);
    const acme = (data.projects.nodes as PortfolioProject[]).find((p) => p.key === 'acme-shop')!;
    const rest = await rt.get('/api/v1/metrics/acme-shop/summary?period=28days&compare=previous');
    expect(acme.summary!.sessions).toEqual({ value: rest.body.metrics.sessions.value, previous: rest.body.metrics.sessions.previous, deltaPct: rest.body.metrics.sessions.deltaPct });
    const search = await rt.get('/api/v1/metrics/acme-shop/search/summary?period=28days&sp=all&compare=none');
    expect(acme.search!.clicks.value).toBe(search.body.totals.clicks);
    const countries = await rt.get('/api/v1/metrics/acme-shop/dimension?dimension=country&period=28days&limit=5');
    expect(acme.countries!.rows.map((r) => [r.value, r.metric.value])).toEqual(countries.body.rows.map((r: Record<string, number>) => [r.country, r.sessions]));
    expect(acme.countries!.totalRows).toBe(countries.body.totalRows);
  });

  it('reads the property metadata only for a name outside the standard catalogue (a custom dimension, a typo)', async () => {
    rt.sandbox.resetStats();
    const custom = await graphql('{ project(key: "tiny-saas") { breakdown(dimension: "customEvent:plan_tier", period: "7days", force: true) { totalRows } } }');
    expect(custom.errors).toBeUndefined();
    expect(custom.data.project.breakdown.totalRows).toBeGreaterThan(0);
    expect(rt.sandbox.stats().analytics.getMetadata).toBe(1);
    rt.sandbox.resetStats();
    const typo = await graphql('{ project(key: "tiny-saas") { breakdown(dimension: "countyr", period: "7days") { totalRows } } }');
    expect(typo.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_parameter', param: 'dimension' });
    expect(typo.errors?.[0]?.message).toContain('country');
    expect(rt.sandbox.stats().analytics.batchRunReports ?? 0).toBe(0);
  });

  it('refuses a malformed period as REST does, naming the parameter', async () => {
    const { errors } = await graphql('{ projects { nodes { summary(period: "29days") { sessions { value } } } } }');
    expect(errors?.[0]?.extensions).toMatchObject({ code: 'invalid_period', param: 'period' });
    const viaVariable = await graphql('query($p: Period) { projects { nodes { summary(period: $p) { sessions { value } } } } }', { p: 'custom_2026-02-30_2026-03-01' });
    expect(viaVariable.errors?.[0]?.extensions).toMatchObject({ code: 'invalid_period', param: 'period' });
  });

  it('splits more than 5 reports of one property into several batchRunReports calls of at most 5', async () => {
    const dimensions = ['country', 'city', 'deviceCategory', 'browser', 'language', 'operatingSystem'];
    const fields = dimensions.map((d, i) => `b${i}: breakdown(dimension: "${d}", period: "90days", limit: 2) { totalRows }`).join(' ');
    rt.sandbox.resetStats();
    const { data, errors } = await graphql(`{ project(key: "acme-shop") { ${fields} } }`);
    expect(errors).toBeUndefined();
    expectEvery(Object.values(data.project as Record<string, { totalRows: number }>), (b) => b.totalRows > 0);
    expect(rt.sandbox.stats().analytics.batchRunReports).toBe(2);
  });

  it('says what it cost: the provider reports it read, within the budget of 30', async () => {
    const res = await rt.request('/api/graphql', { method: 'POST', key: rt.demo.apiKey, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: PORTFOLIO }) });
    const body = (await res.json()) as { extensions: { cost: { reports: number; budget: number } } };
    expect(body.extensions.cost).toEqual({ reports: 17, budget: 30 });
  });

  it('charges every report a query reads, per project: past the budget a report field is an error', async () => {
    const everyReport = `summary { sessions { value } } timeseries { total { value } } breakdown(dimension: "country") { totalRows }
      realtime { activeUsers } metadata { project } search { clicks { value } } searchTimeseries { totals { clicks } }
      searchBreakdown(dimension: device, period: "7days") { totalRows } devices: breakdown(dimension: "deviceCategory") { totalRows }
      week: summary(period: "7days") { sessions { value } } day: summary(period: "yesterday") { sessions { value } }`;
    const { data, errors } = await graphql(`{ projects { nodes { key ${everyReport} } } }`);
    // 11 report fields of each of 3 projects read more than 30 provider reports: the fields past them are refused.
    expect(errors?.length).toBeGreaterThan(0);
    expect(errors!.every((e) => e.extensions?.code === 'report_budget_exceeded' && e.path?.[0] === 'projects')).toBe(true);
    expect(errors![0]!.message).toMatch(/budget of 30 provider reports/);
    expect((data.projects.nodes as unknown[]).length).toBe(3);
    // A page of one project fits the budget: the budget is per request, so per page.
    const page = await graphql(`{ projects(first: 1) { pageInfo { hasNextPage } nodes { key ${everyReport} } } }`);
    expect(page.errors).toBeUndefined();
    expect(page.data.projects.pageInfo.hasNextPage).toBe(true);
  });

  it('reads a funnel by key and its results as the REST endpoint gives them', async () => {
    const listed = await graphql('{ project(key: "acme-shop") { funnels { key name } } }');
    const funnel = (listed.data.project.funnels as { key: string; name: string }[])[0]!;
    const { data, errors } = await graphql('query($key: String!) { funnel(key: $key) { key name results(period: "7days") { completionRate steps { name users } } } }', { key: funnel.key });
    expect(errors).toBeUndefined();
    const rest = await rt.get(`/api/v1/funnels/${funnel.key}/results?period=7days`);
    expect(data.funnel).toEqual({
      key: funnel.key,
      name: funnel.name,
      results: { completionRate: rest.body.completionRate, steps: rest.body.steps.map((s: { name: string; users: number }) => ({ name: s.name, users: s.users })) },
    });
    const missing = await graphql('{ funnel(key: "no-such-funnel") { key } }');
    expect(missing.errors?.[0]?.extensions).toMatchObject({ code: 'not_found' });
  });

  it('reads a custom metric on the summary with metric(name), over the same period and comparison', async () => {
    const query = '{ project(key: "tiny-saas") { summary(period: "28days") { sessions { value } metric(name: "sessions") { value } credits: metric(name: "customEvent:credits_used") { value previous delta deltaPct } } } }';
    const { data, errors } = await graphql(query);
    expect(errors).toBeUndefined();
    const summary = data.project.summary;
    expect(summary.metric).toEqual(summary.sessions);
    const rest = await rt.get('/api/v1/metrics/tiny-saas/timeseries?metric=customEvent:credits_used&period=28days&compare=previous&interval=month');
    expect(rest.status).toBe(200);
    expect(summary.credits).toEqual(rest.body.total);
    expect(summary.credits.value).toBeGreaterThan(0);
  });
});
