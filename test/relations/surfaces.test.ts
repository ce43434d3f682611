// One request, one answer, whatever the surface, for random requests on the demo projects:
// - REST = GraphQL (the typed Project fields) = MCP structuredContent (a real MCP client), and format=csv carries
//   the JSON's numbers;
// - the dashboard's overview shows the numbers the API answers for the same requests (its default period).
import fc from 'fast-check';
import { describe, it } from 'vitest';
import {
  breakdownRequest,
  changesRequest,
  landingPagesRequest,
  searchBreakdownRequest,
  searchSummaryRequest,
  searchTimeseriesRequest,
  summaryRequest,
  timeseriesRequest,
} from './support/arbitraries.ts';
import { firstDifference, withoutVolatile } from './support/bodies.ts';
import { csvDifference, expectedCsvRows } from './support/csv.ts';
import { overviewFigures, signInDemo } from './support/dashboard.ts';
import { check, holds, RELATION_TIMEOUT } from './support/property.ts';
import { ApiRequest, ROUTES } from './support/request.ts';
import { useWorld, type World } from './support/world.ts';

const world = useWorld();

const anyRequest = (w: World) =>
  fc.oneof(
    summaryRequest(w),
    timeseriesRequest(w),
    { weight: 2, arbitrary: breakdownRequest(w) },
    searchSummaryRequest(w),
    searchTimeseriesRequest(w),
    searchBreakdownRequest(w, { maxDays: 28 }),
    landingPagesRequest(w),
    changesRequest(w),
  );

describe('REST = GraphQL = MCP structuredContent = CSV for the same request', { timeout: RELATION_TIMEOUT }, () => {
  it('every report route, through every surface that offers it', async () => {
    const w = world();
    await holds(anyRequest(w), async (request) => {
      const { status, body: rest } = await w.rest(request);
      // A comparison the analytics history cannot give is refused alike everywhere (the coverage relation checks it is right to).
      if (status === 400 && request.route === 'changes' && rest.param === 'compare') return;
      check('a valid request is answered', request, 'REST').equal(`status (${JSON.stringify(rest).slice(0, 300)})`, status, 200);
      const graphql = await w.graphql(request);
      const fromGraphql = firstDifference(rest, graphql, { onlyExpectedKeys: true });
      check('REST = GraphQL', request, 'GraphQL').that('the GraphQL answer, in the contract shape, is the REST body', fromGraphql === undefined, `${fromGraphql} (expected = GraphQL, got = REST)`);
      if (ROUTES[request.route].tool) {
        const mcp = await w.mcp(request);
        const fromMcp = firstDifference(withoutVolatile(mcp), withoutVolatile(rest));
        check('REST = MCP structuredContent', request, `MCP ${ROUTES[request.route].tool}`).that('structuredContent is the REST body', fromMcp === undefined, `${fromMcp} (expected = REST, got = MCP)`);
      }
      if (ROUTES[request.route].csv) {
        const csv = await w.csv(request);
        const found = csvDifference(csv, expectedCsvRows(request, rest));
        check('CSV = JSON', request.with({ format: 'csv' }), 'CSV').that('the CSV carries the JSON rows', found === undefined, found);
      }
    }, 60);
  });
});

describe("the dashboard shows the API's numbers", { timeout: RELATION_TIMEOUT }, () => {
  // The overview of acme-shop and northwind-journal reads their search queries over 28 days: 10–20 s of sandbox
  // work each on two cores (issue 27), so the dashboard relation reads tiny-saas, cold and forced.
  it('the project overview: headline numbers and their change, the main chart, top pages and queries, funnels', async () => {
    const w = world();
    const client = await signInDemo(w.rt);
    await holds(fc.constantFrom('', '?force=1'), async (query) => {
      const project = 'tiny-saas';
      const page = `GET /dashboard/p/${project}${query}`;
      w.counts.dashboard = (w.counts.dashboard ?? 0) + 1;
      const res = await client.get(`/dashboard/p/${project}${query}`);
      const c = check("the dashboard shows the API's numbers", page, 'dashboard');
      c.equal('status', res.status, 200);
      const shown = overviewFigures(res.html);

      const summary = await w.json(new ApiRequest('summary', project, {}));
      c.that('headline cards are shown', Object.keys(shown.headline).length >= 5, JSON.stringify(shown.headline));
      for (const [metric, card] of Object.entries(shown.headline)) {
        const api = summary.metrics[metric];
        c.equal(`headline ${metric} vs ${new ApiRequest('summary', project, {})}`, card.raw, api.value);
        c.equal(`headline ${metric} change vs its deltaPct`, card.change, api.deltaPct === null ? 'none' : (api.deltaPct * 100).toFixed(1).replace(/^-?/, api.deltaPct < 0 ? '-' : ''));
      }
      // The main chart compares with the previous period, as the page does by default.
      const sessions = await w.json(new ApiRequest('timeseries', project, { metric: 'sessions', compare: 'previous' }));
      const values = sessions.points.map((p: { value: { value: number } }) => p.value.value);
      c.equal(`main chart points vs ${new ApiRequest('timeseries', project, { metric: 'sessions', compare: 'previous' })}`, shown.charts['chart-main']?.points, values.length);
      c.equal('main chart total', shown.charts['chart-main']?.total, values.reduce((a: number, b: number) => a + b, 0));
      c.equal('main chart highest', shown.charts['chart-main']?.highest, Math.max(...values));
      const pages = await w.json(new ApiRequest('breakdown', project, { dimension: 'pagePath', metrics: 'activeUsers,sessions', limit: '10' }));
      c.equal('top pages vs the pagePath breakdown', JSON.stringify(shown.pages), JSON.stringify(pages.rows.map((r: Record<string, number>) => [r.pagePath, Math.round(r.activeUsers!), Math.round(r.sessions!)])));
      const queries = await w.json(new ApiRequest('searchBreakdown', project, { dimension: 'query', limit: '25' }));
      c.equal('top queries vs the query breakdown', JSON.stringify(shown.queries), JSON.stringify(queries.rows.map((r: Record<string, number>) => [r.query, Math.round(r.clicks!), Math.round(r.impressions!)])));
      const funnels = (await w.rt.get(`/api/v1/projects/${project}/funnels/list`)).body.funnels as { key: string }[];
      const completion: string[] = [];
      for (const f of funnels.slice(0, 10)) completion.push(`${(((await w.rt.get(`/api/v1/funnels/${f.key}/results`)).body.completionRate as number) * 100).toFixed(1)}%`);
      c.equal('funnel completion vs each funnel’s results', JSON.stringify(shown.completion), JSON.stringify(completion));
    }, 2);
  });
});
