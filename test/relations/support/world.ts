// The world one relation file runs in: one sandbox runtime with the demo projects (the real clock, as every app
// test, with the sandbox's data held at the world's start), one real MCP client, each provider's first day with data as the sandbox itself says it, the dimension
// values filters are drawn from, and a count of the requests made per surface.
import { afterAll, beforeAll } from 'vitest';
import { connect, RELAXED_LIMITS, type TestClient } from '../../mcp/mcp-clients.ts';
import { bingDay, sandboxDirect } from '../../helpers/sandbox-direct.ts';
import { createSandboxRuntime, type SandboxRuntime, type SandboxRuntimeOptions } from '../../helpers/sandbox-runtime.ts';
import { ApiRequest, named, ROUTES } from './request.ts';
import { graphqlQueryOf, restShapeOfGraphql } from './graphql-shapes.ts';
import { knownViolationsSeen, RelationError, RELATION_TIMEOUT, seedLine } from './property.ts';

export const DEMO_PROJECTS = ['acme-shop', 'northwind-journal', 'tiny-saas'] as const;
export type DemoProject = (typeof DEMO_PROJECTS)[number];
export type Provider = 'analytics' | 'engine1' | 'engine2';

/** The relation files refresh on purpose (force=1) and call fast: no limit may get in the way of a relation. */
export const RELATION_LIMITS = { limits: { ...RELAXED_LIMITS.limits, force: { name: 'force', points: 1_000_000, windowSec: 3600 } } };

/** Filterable values seen in each project's data (365 days), per dimension. */
export type Vocabulary = Record<string, Record<string, string[]>>;

export interface World {
  rt: SandboxRuntime;
  mcpClient: TestClient;
  /** The first day each provider has data for, per project (absent: not connected). */
  firstDays: Record<string, Partial<Record<Provider, string>>>;
  /** Each project's today, in its time zone. */
  today: Record<string, string>;
  /** Whether the code accepts calendar periods (month_to_date, last_month, …); drawn only then. */
  calendarPeriods: boolean;
  /** Which search engines each project has connected. */
  engines: Record<string, ('engine1' | 'engine2')[]>;
  vocabulary: Vocabulary;
  /** Requests made per surface (REST, CSV, GraphQL, MCP, dashboard). */
  counts: Record<string, number>;
  rest(request: ApiRequest): Promise<{ status: number; body: any }>;
  /** The REST body of a request that must succeed; anything else fails naming the request. */
  json(request: ApiRequest): Promise<any>;
  csv(request: ApiRequest): Promise<string>;
  graphql(request: ApiRequest): Promise<any>;
  mcp(request: ApiRequest): Promise<any>;
}

const ANALYTICS_FILTER_DIMENSIONS = ['deviceCategory', 'country', 'sessionDefaultChannelGroup', 'browser', 'sessionSource', 'landingPage'];

/** Sets up the world before the file's tests and disposes of it after; read it inside tests. */
export function useWorld(options: SandboxRuntimeOptions = {}): () => World {
  let world: World | undefined;
  beforeAll(async () => {
    console.info(seedLine());
    knownViolationsSeen.clear();
    world = await createWorld(options);
  }, RELATION_TIMEOUT);
  afterAll(async () => {
    for (const [id, seen] of knownViolationsSeen) console.info(`known violation awaiting a fix, ${id}: ${seen.count} case(s), e.g. ${seen.example}`);
    knownViolationsSeen.clear();
    if (!world) return;
    const total = Object.values(world.counts).reduce((a, b) => a + b, 0);
    console.info(`relations: ${total} requests (${Object.entries(world.counts).map(([k, v]) => `${k} ${v}`).join(', ')})`);
    await world.mcpClient.close();
    await world.rt.dispose();
  });
  return () => {
    if (!world) throw new Error('the relation world is not set up');
    return world;
  };
}

export async function createWorld(options: SandboxRuntimeOptions = {}): Promise<World> {
  // The sandbox's data is anchored to the moment the world starts: "today so far" must not grow between the two
  // reads one relation compares (it does by the minute). The app keeps the real clock, as every app test does.
  const started = new Date();
  const rt = await createSandboxRuntime({ shared: RELATION_LIMITS, ...options, sandbox: { now: () => started, ...options.sandbox } });
  const mcpClient = await connect(rt, 'v2-modern', rt.demo.apiKey);
  const counts: Record<string, number> = {};
  const count = (surface: string) => void (counts[surface] = (counts[surface] ?? 0) + 1);

  const rest = async (request: ApiRequest) => {
    count('REST');
    return rt.get(request.path);
  };
  const json = async (request: ApiRequest) => {
    const { status, body } = await rest(request);
    if (status !== 200) throw new RelationError('a valid request is answered', request, 'REST', `HTTP ${status}: ${JSON.stringify(body)}`);
    return body;
  };
  const world: World = {
    rt,
    mcpClient,
    firstDays: {},
    today: {},
    engines: {},
    calendarPeriods: false,
    vocabulary: {},
    counts,
    rest,
    json,
    async csv(request) {
      count('CSV');
      const csvRequest = request.with({ format: 'csv' });
      const res = await rt.get(csvRequest.path);
      if (res.status !== 200) throw new RelationError('a valid request is answered', csvRequest, 'CSV', `HTTP ${res.status}: ${JSON.stringify(res.body)}`);
      return String(res.body);
    },
    async graphql(request) {
      count('GraphQL');
      const { query, variables } = graphqlQueryOf(request);
      const res = await rt.request('/api/graphql', { method: 'POST', key: rt.demo.apiKey, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
      const answer = (await res.json()) as { data?: { project?: Record<string, unknown> | null }; errors?: unknown[] };
      const field = answer.data?.project ? Object.values(answer.data.project)[0] : undefined;
      if (res.status !== 200 || answer.errors || !field) throw new RelationError('a valid request is answered', request, 'GraphQL', `HTTP ${res.status}: ${JSON.stringify(answer)}`);
      return restShapeOfGraphql(request, field as Record<string, unknown>);
    },
    async mcp(request) {
      count('MCP');
      const tool = toolOf(request);
      const result = await mcpClient.callTool({ name: tool, arguments: mcpArguments(request) });
      if (result.isError || !result.structuredContent) throw new RelationError('a valid request is answered', request, `MCP ${tool}`, JSON.stringify(result.content));
      return result.structuredContent;
    },
  };
  await discoverHistories(world);
  world.calendarPeriods = (await rt.get('/api/v1/metrics/tiny-saas/summary?period=last_month')).status === 200;
  await discoverVocabulary(world);
  return world;
}

function toolOf(request: ApiRequest): string {
  const tool = ROUTES[request.route].tool;
  if (!tool) throw new Error(`no MCP tool answers ${named(request, 'MCP')}`);
  return tool;
}

/** MCP arguments mirror the REST parameters; limit and offset are integers there. */
function mcpArguments(request: ApiRequest): Record<string, unknown> {
  const args: Record<string, unknown> = { project: request.project };
  for (const [name, value] of Object.entries(request.params)) args[name] = name === 'limit' || name === 'offset' ? Number(value) : value;
  return args;
}

/**
 * Each provider's first day, asked of the sandbox directly (not through Siteline): the property's first day with
 * events, the earliest day of engine1's window, the earliest day of Bing's site traffic.
 */
async function discoverHistories(world: World): Promise<void> {
  const direct = sandboxDirect(world.rt.sandbox);
  const projects = ((await world.rt.get('/api/v1/projects/list')).body as { projects: ProjectJson[] }).projects;
  for (const project of projects.filter((p) => (DEMO_PROJECTS as readonly string[]).includes(p.key))) {
    const first: Partial<Record<Provider, string>> = {};
    const sources = project.dataSources;
    if (sources.analytics.connected) {
      const answer = await direct.google('POST', `/v1beta/properties/${sources.analytics.propertyId}:runReport`, {
        dateRanges: [{ startDate: '2015-08-14', endDate: 'today' }],
        dimensions: [{ name: 'date' }],
        metrics: [{ name: 'eventCount' }],
        orderBys: [{ dimension: { dimensionName: 'date' }, desc: false }],
        limit: '1',
      });
      const day = (JSON.parse(answer.text) as { rows: { dimensionValues: { value: string }[] }[] }).rows[0]!.dimensionValues[0]!.value;
      first.analytics = `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}`;
    }
    if (sources.engine1.connected) {
      const answer = await direct.google('POST', `/webmasters/v3/sites/${encodeURIComponent(sources.engine1.siteUrl!)}/searchAnalytics/query`, {
        startDate: '2015-08-14',
        endDate: project.today,
        dimensions: ['date'],
        rowLimit: 5000,
      });
      first.engine1 = (JSON.parse(answer.text) as { rows: { keys: string[] }[] }).rows.map((r) => r.keys[0]!).sort()[0];
    }
    if (sources.engine2.connected) {
      const answer = await direct.bing('GetRankAndTrafficStats', { siteUrl: sources.engine2.siteUrl! });
      first.engine2 = (JSON.parse(answer.text) as { d: { Date: string }[] }).d.map((r) => bingDay(r.Date)).sort()[0];
    }
    world.firstDays[project.key] = first;
    world.today[project.key] = project.today;
    world.engines[project.key] = (['engine1', 'engine2'] as const).filter((e) => sources[e].connected);
  }
}

/** A day engine1 has final data for (it settles within 2–3 days). */
const settledDay = (today: string) => new Date(Date.parse(`${today}T00:00:00Z`) - 5 * 86_400_000).toISOString().slice(0, 10);

interface ProjectJson {
  key: string;
  today: string;
  dataSources: Record<Provider, { connected: boolean; propertyId?: string; siteUrl?: string }>;
}

/** The values filters are drawn from: each project's top values over a year (analytics and search). */
async function discoverVocabulary(world: World): Promise<void> {
  const direct = sandboxDirect(world.rt.sandbox);
  const sites = Object.fromEntries(world.rt.sandbox.catalogue.map((site) => [site.key, site.engine1.siteUrl]));
  for (const project of DEMO_PROJECTS) {
    const values: Record<string, string[]> = {};
    for (const dimension of ANALYTICS_FILTER_DIMENSIONS) {
      const body = await world.json(new ApiRequest('breakdown', project, { dimension, metrics: 'sessions', period: '365days', limit: '12' }));
      values[dimension] = (body.rows as Record<string, string>[]).map((r) => r[dimension]!);
    }
    // One day of engine1's query and page rows, asked of the sandbox directly (acme-shop's ~26,000 queries cost
    // seconds even for one day, so its search filters use country and device only; see COSTLY).
    if (project !== 'acme-shop') {
      const siteUrl = sites[project]!;
      for (const dimension of ['query', 'page']) {
        const answer = await direct.google('POST', `/webmasters/v3/sites/${encodeURIComponent(siteUrl)}/searchAnalytics/query`, { startDate: settledDay(world.today[project]!), endDate: settledDay(world.today[project]!), dimensions: [dimension], rowLimit: 12 });
        values[`search:${dimension}`] = (JSON.parse(answer.text) as { rows: { keys: string[] }[] }).rows.map((r) => r.keys[0]!);
      }
    }
    values['search:country'] = ['Germany', 'United States', 'deu', 'usa', 'gbr', 'fra'];
    values['search:device'] = ['desktop', 'mobile', 'tablet'];
    world.vocabulary[project] = values;
  }
}
