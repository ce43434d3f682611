// Resources (project list, per-project metadata template) and prompts, through the v2 modern and v1 clients.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';
import { connect, RELAXED_LIMITS, type TestClient } from './mcp-clients.ts';
import { rejectionOf } from '../domain/expect-app-error.ts';

let rt: SandboxRuntime;
const clients: TestClient[] = [];
beforeAll(async () => {
  rt = await createSandboxRuntime({ shared: RELAXED_LIMITS });
  clients.push(await connect(rt, 'v2-modern', rt.demo.apiKey), await connect(rt, 'v1', rt.demo.apiKey));
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await rt.dispose();
});

type Raw = {
  listResources(): Promise<{ resources: { uri: string; name: string }[] }>;
  listResourceTemplates(): Promise<{ resourceTemplates: { uriTemplate: string }[] }>;
  readResource(p: { uri: string }): Promise<{ contents: { uri: string; text?: string; mimeType?: string }[] }>;
  listPrompts(): Promise<{ prompts: { name: string; arguments?: { name: string; required?: boolean }[] }[] }>;
  getPrompt(p: { name: string; arguments: Record<string, string> }): Promise<{ messages: { role: string; content: { type: string; text: string } }[] }>;
};
const raw = (c: TestClient) => c.raw as unknown as Raw;

describe.each(['v2-modern', 'v1'])('resources and prompts (%s)', (kind) => {
  const client = () => raw(clients.find((c) => c.kind === kind)!);

  it('lists the project list and one metadata resource per project; reads them as the REST bodies', async () => {
    const { resources } = await client().listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toContain('siteline://projects');
    expect(uris).toContain('siteline://projects/acme-shop/metadata');
    expect((await client().listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toContain('siteline://projects/{project}/metadata');

    const projects = await client().readResource({ uri: 'siteline://projects' });
    expect(projects.contents[0]!.mimeType).toBe('application/json');
    expect(JSON.parse(projects.contents[0]!.text!)).toEqual((await rt.get('/api/v1/projects/list')).body);

    const metadata = JSON.parse((await client().readResource({ uri: 'siteline://projects/acme-shop/metadata' })).contents[0]!.text!);
    const rest = (await rt.get('/api/v1/metrics/acme-shop/metadata')).body;
    expect(metadata.project).toBe('acme-shop');
    expect(metadata.analytics).toEqual(rest.analytics);
  });

  it('lists the MCP Apps views as HTML resources with the strictest content security policy', async () => {
    const views = (await client().listResources()).resources.filter((r) => r.uri.startsWith('ui://'));
    expect(views.map((r) => r.uri).sort()).toEqual(['ui://siteline/breakdown', 'ui://siteline/change', 'ui://siteline/funnel', 'ui://siteline/search-opportunities', 'ui://siteline/timeseries']);
    const read = (await client().readResource({ uri: 'ui://siteline/funnel' })).contents[0] as { mimeType?: string; text?: string; _meta?: unknown };
    expect(read.mimeType).toBe('text/html;profile=mcp-app');
    expect(read._meta).toEqual({ ui: { csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] }, prefersBorder: true } });
    // Self-contained: no URL for the browser to load (the only scheme-like strings are the SVG namespace and text).
    expect(read.text!.match(/(?:src|href)\s*=|url\(|@import|https?:\/\/(?!www\.w3\.org\/2000\/svg)/g)).toBeNull();
  });

  it('answers an invisible project with an error, not data', async () => {
    const error = await rejectionOf(client().readResource({ uri: 'siteline://projects/nope/metadata' }));
    // JSON-RPC invalid params, with the API error code leading the message.
    expect(error).toMatchObject({ code: -32602 });
    expect((error as Error).message).toContain("not_found: No project 'nope' is visible to you.");
  });

  it('offers the prompts with their arguments and fills them in', async () => {
    const { prompts } = await client().listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(['compare_periods', 'explain_metric_change', 'funnel_review', 'search_quick_wins', 'weekly_report', 'weekly_review']);
    expect(prompts.find((p) => p.name === 'weekly_report')!.arguments).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'project', required: true }), expect.objectContaining({ name: 'period', required: false })]),
    );
    const weekly = await client().getPrompt({ name: 'weekly_report', arguments: { project: 'acme-shop' } });
    expect(weekly.messages[0]!.content.text).toContain('"acme-shop" covering period 7days');
    expect(weekly.messages[0]!.content.text).toContain('get_site_summary');
    const review = await client().getPrompt({ name: 'weekly_review', arguments: { project: 'acme-shop', period: '14days' } });
    for (const tool of ['explain_change', 'find_anomalies', 'find_search_opportunities']) expect(review.messages[0]!.content.text).toContain(tool);
    expect(review.messages[0]!.content.text).toContain('period 14days');
    const compare = await client().getPrompt({ name: 'compare_periods', arguments: { project: 'acme-shop', compare: 'year' } });
    expect(compare.messages[0]!.content.text).toContain('compare=year');
    const change = await client().getPrompt({ name: 'explain_metric_change', arguments: { project: 'acme-shop', metric: 'clicks' } });
    expect(change.messages[0]!.content.text).toContain('explain_change (project=acme-shop, metric=clicks, period=7days, compare=previous)');
    expect(change.messages[0]!.content.text).toContain('get_search_timeseries');
    const funnel = await client().getPrompt({ name: 'funnel_review', arguments: { funnel: 'acme-shop-checkout' } });
    expect(funnel.messages[0]!.content.text).toContain('get_funnel_results (funnel=acme-shop-checkout, period=28days)');
  });
});
