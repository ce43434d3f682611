// tools/list and tools/call through all three client generations against the in-process app and sandbox:
// names, titles, schemas and annotations; every tool called with defaults returns structuredContent that
// validates against its response schema and equals the REST body for the same inputs; bad arguments give
// isError results with REST's message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { READ_TOOLS } from '../../src/mcp/tools/tool-table.ts';
import { createFunnel } from '../../src/store/funnels-repository.ts';
import { getProjectByKey } from '../../src/store/projects-repository.ts';
import { REST_ROUTES } from '../../src/rest/route-table.ts';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';
import { CLIENT_KINDS, connect, RELAXED_LIMITS, type TestClient } from './mcp-clients.ts';
import { rejectionOf } from '../domain/expect-app-error.ts';

let rt: SandboxRuntime;
const clients = new Map<string, TestClient>();

beforeAll(async () => {
  rt = await createSandboxRuntime({ shared: RELAXED_LIMITS });
  const shop = await getProjectByKey(rt.store.db, 'acme-shop');
  await createFunnel(rt.store.db, {
    projectId: shop!.id,
    key: 'checkout',
    name: 'Checkout',
    createdVia: 'cli',
    steps: [
      { name: 'Any page', type: 'page', match: 'begins_with', value: '/' },
      { name: 'Purchase', type: 'event', match: 'exact', value: 'purchase' },
    ],
  });
  for (const kind of CLIENT_KINDS) clients.set(kind, await connect(rt, kind, rt.demo.apiKey));
});
afterAll(async () => {
  for (const client of clients.values()) await client.close();
  await rt.dispose();
});

const available = () => READ_TOOLS.filter((t) => rt.deps.hasOperation(t.operation));
/** Arguments a call needs at least (the "defaults" call). */
const MINIMAL: Record<string, string> = { project: 'acme-shop', dimension: 'country', funnel: 'checkout' };

function minimalArgs(tool: (typeof READ_TOOLS)[number]): Record<string, string> {
  return Object.fromEntries(tool.required.map((name) => [name, MINIMAL[name]!]));
}

/** The REST request for the same operation and arguments (path parameters filled, the rest as query). */
function restPathFor(operation: string, args: Record<string, unknown>): string | undefined {
  const route = REST_ROUTES.find((r) => r.operation === operation && r.method === 'GET');
  if (!route) return undefined;
  const rest = { ...args };
  const path = route.path.replace(/:(projectKey|funnelKey)/g, (_m, name: string) => {
    const arg = name === 'projectKey' ? 'project' : 'funnel';
    const value = String(rest[arg]);
    delete rest[arg];
    return encodeURIComponent(value);
  });
  const query = new URLSearchParams(Object.entries(rest).map(([k, v]) => [k, String(v)]));
  return query.size ? `${path}?${query}` : path;
}

function textOf(result: { content?: { type: string; text?: string }[] }): string {
  return (result.content ?? []).map((c) => c.text ?? '').join('');
}

describe.each(CLIENT_KINDS)('tools/list (%s)', (kind) => {
  it('lists every available tool with a valid name, title, description, schemas and explicit annotations', async () => {
    const { tools } = await clients.get(kind)!.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual([...available().map((t) => t.name), 'create_funnel']);
    expect(new Set(names).size).toBe(names.length);
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[A-Za-z0-9_.-]{1,64}$/);
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.description!.length, tool.name).toBeGreaterThan(60);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      const write = tool.name === 'create_funnel';
      expect(tool.annotations, tool.name).toEqual({ readOnlyHint: !write, destructiveHint: false, idempotentHint: !write, openWorldHint: false });
    }
  });

  it('builds argument schemas from the parameter catalogue (descriptions, enums, required)', async () => {
    const { tools } = await clients.get(kind)!.listTools();
    const breakdown = tools.find((t) => t.name === 'get_site_breakdown')!;
    expect(breakdown.inputSchema.required?.sort()).toEqual(['dimension', 'project']);
    expect(breakdown.inputSchema.properties!.limit).toMatchObject({ type: 'integer', default: 50 });
    expect(breakdown.inputSchema.properties!.compare).toMatchObject({ type: 'string', enum: ['previous', 'year', 'none'] });
    expect(breakdown.inputSchema.properties!.period!.description).toMatch(/custom_START_END/);
    expect(breakdown.inputSchema.additionalProperties).toBe(false);
    const list = tools.find((t) => t.name === 'list_projects')!;
    expect(list.inputSchema.properties ?? {}).toEqual({});
  });

  it('states the real bounds: integers, funnel steps and names', async () => {
    const { tools } = await clients.get(kind)!.listTools();
    const props = tools.find((t) => t.name === 'get_site_breakdown')!.inputSchema.properties!;
    expect(props.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 1000 });
    expect(props.offset).toMatchObject({ type: 'integer', minimum: 0, maximum: 250000 });
    const funnel = tools.find((t) => t.name === 'create_funnel')!.inputSchema.properties! as Record<string, any>;
    expect(funnel.steps).toMatchObject({ type: 'array', minItems: 2, maxItems: 10 });
    expect(funnel.name).toMatchObject({ minLength: 1, maxLength: 100 });
    expect(funnel.steps.items.properties.value).toMatchObject({ maxLength: 500 });
    expect(JSON.stringify(tools.map((t) => t.inputSchema))).not.toContain('9007199254740991');
  });

  it('promises no list-change notifications the stateless endpoint never sends', () => {
    const capabilities = clients.get(kind)!.raw.getServerCapabilities() as Record<string, { listChanged?: boolean } | undefined>;
    expect(capabilities.tools).toBeDefined();
    for (const list of ['tools', 'resources', 'prompts']) expect(capabilities[list]?.listChanged, list).not.toBe(true);
  });
});

describe.each(CLIENT_KINDS)('tools/call with defaults (%s)', (kind) => {
  it.each(READ_TOOLS.map((t) => [t.name, t] as const))('%s: structuredContent validates and equals the REST body', async (name, tool) => {
    expect(rt.deps.hasOperation(tool.operation), `operation ${tool.operation} is registered`).toBe(true);
    const args = minimalArgs(tool);
    const path = restPathFor(tool.operation, args);
    if (path) await rt.get(path); // warm the cache so both answers are cache hits with the same fetchedAt
    const result = await clients.get(kind)!.callTool({ name, arguments: args });
    expect(result.isError, textOf(result)).toBeFalsy();
    const structured = result.structuredContent!;
    expect(() => (tool.output as z.ZodType).parse(structured)).not.toThrow();
    expect(JSON.parse(textOf(result))).toEqual(structured);
    if (path) {
      const rest = await rt.get(path);
      expect(rest.status).toBe(200);
      expect(() => (tool.output as z.ZodType).parse(rest.body)).not.toThrow();
      expect(structured).toEqual(rest.body);
    }
  });
});

/** One bad value per tool, and the parameter REST names for it. */
const BAD_ARGS: Record<string, { args: Record<string, unknown> }> = {
  get_project: { args: { project: 'no-such-project' } },
  get_site_summary: { args: { project: 'acme-shop', period: 'lastweek' } },
  get_site_timeseries: { args: { project: 'acme-shop', interval: 'fortnight' } },
  get_site_breakdown: { args: { project: 'acme-shop', dimension: 'country', limit: 5000 } },
  get_realtime: { args: { project: 'no-such-project' } },
  get_metadata: { args: { project: 'no-such-project' } },
  get_search_summary: { args: { project: 'acme-shop', sp: 'yahoo' } },
  get_search_timeseries: { args: { project: 'acme-shop', period: 'custom_2026-02-01_2026-01-01' } },
  get_search_breakdown: { args: { project: 'acme-shop', dimension: 'browser' } },
  list_funnels: { args: { project: 'no-such-project' } },
  get_funnel_results: { args: { funnel: 'no-such-funnel' } },
  list_observed_events: { args: { project: 'acme-shop', limit: -1 } },
  list_observed_pages: { args: { project: 'acme-shop', filter: 'pagePath=~(' } },
};

describe.each(CLIENT_KINDS)('tools/call with bad arguments (%s)', (kind) => {
  it.each(READ_TOOLS.filter((t) => BAD_ARGS[t.name]).map((t) => [t.name, t] as const))('%s: isError with the message REST gives', async (name, tool) => {
    expect(rt.deps.hasOperation(tool.operation), `operation ${tool.operation} is registered`).toBe(true);
    const { args } = BAD_ARGS[name]!;
    const rest = await rt.get(restPathFor(tool.operation, args)!);
    expect(rest.status).toBeGreaterThanOrEqual(400);
    const result = await clients.get(kind)!.callTool({ name, arguments: args });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const param = rest.body.param === undefined ? '' : ` (parameter: ${rest.body.param})`;
    expect(textOf(result)).toBe(`${rest.body.code}: ${rest.body.detail}${param}`);
  });

  it('answers schema violations (unknown argument, wrong type) as isError results, not protocol errors', async () => {
    const client = clients.get(kind)!;
    const unknown = await client.callTool({ name: 'list_projects', arguments: { projct: 'x' } });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/projct/);
    const wrongType = await client.callTool({ name: 'get_project', arguments: { project: 42 } });
    expect(wrongType.isError).toBe(true);
  });

  it('answers an unknown tool with a JSON-RPC error', async () => {
    const error = await rejectionOf(clients.get(kind)!.callTool({ name: 'drop_tables', arguments: {} }));
    expect(error).toMatchObject({ code: -32602 });
    expect((error as Error).message).toContain('Tool drop_tables not found');
  });
});

describe('create_funnel preview against site data', () => {
  it('shows what each step matched among observed events and pages, and flags a step matching nothing', async () => {
    const events = await rt.get('/api/v1/metrics/acme-shop/observed/events?limit=5');
    const pages = await rt.get('/api/v1/metrics/acme-shop/observed/pages?limit=5');
    const event = events.body.rows?.[0]?.eventName as string | undefined;
    const page = pages.body.rows?.[0]?.pagePath as string | undefined;
    expect(event && page, JSON.stringify([events.status, pages.status])).toBeTruthy();
    const result = await clients.get('v1')!.callTool({
      name: 'create_funnel',
      arguments: {
        project: 'acme-shop',
        name: 'Preview only',
        steps: [
          { type: 'page', match: 'exact', value: page },
          { type: 'event', match: 'exact', value: event },
          { type: 'event', match: 'exact', value: 'purchse_typo' },
        ],
      },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const [pageStep, eventStep, typo] = result.structuredContent!.steps as Record<string, any>[];
    expect(pageStep).toMatchObject({ checked: true, matchedValues: 1, examples: [{ value: page }] });
    expect(pageStep!.matchedCount).toBeGreaterThan(0);
    expect(eventStep).toMatchObject({ checked: true, matchedValues: 1 });
    expect(typo).toMatchObject({ checked: true, matchedValues: 0 });
    expect(typo!.warning).toMatch(/Matches no event name/);
    expect((await rt.get('/api/v1/projects/acme-shop/funnels/list')).body.funnels.map((f: { name: string }) => f.name)).not.toContain('Preview only');
  });
});
