// completion/complete for prompt arguments and resource-template variables, through the v2 modern and v1
// clients: project and funnel keys, metric names, periods; only what the caller's key may see; an unknown
// reference gets no suggestions rather than an error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';
import { connect, RELAXED_LIMITS, type TestClient } from './mcp-clients.ts';

type Completion = { completion: { values: string[]; total?: number; hasMore?: boolean } };
type Complete = (params: { ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string }; argument: { name: string; value: string }; context?: { arguments: Record<string, string> } }) => Promise<Completion>;

let rt: SandboxRuntime;
const clients: TestClient[] = [];
let narrow: TestClient;
beforeAll(async () => {
  rt = await createSandboxRuntime({ shared: RELAXED_LIMITS });
  clients.push(await connect(rt, 'v2-modern', rt.demo.apiKey), await connect(rt, 'v1', rt.demo.apiKey));
  // The same account, through a key that may only read one project.
  const { key } = await rt.apiKeys.create(rt.demo.accountId, { scopes: ['read'], projectKeys: ['acme-shop'] });
  narrow = await connect(rt, 'v1', key);
});
afterAll(async () => {
  for (const c of [...clients, narrow]) await c?.close();
  await rt.dispose();
});

const complete = (client: TestClient): Complete => (params) => (client.raw as unknown as { complete: Complete }).complete(params);
const prompt = (name: string) => ({ type: 'ref/prompt' as const, name });

describe.each(['v2-modern', 'v1'])('completion/complete (%s)', (kind) => {
  const client = () => clients.find((c) => c.kind === kind)!;

  it('declares the capability', () => {
    expect((client().raw as unknown as { getServerCapabilities(): { completions?: object } }).getServerCapabilities().completions).toEqual({});
  });

  it('completes project keys in every prompt and in the metadata resource template', async () => {
    const projects = (await rt.get('/api/v1/projects/list')).body.projects.map((p: { key: string }) => p.key) as string[];
    expect(projects.length).toBeGreaterThan(1);
    const all = await complete(client())({ ref: prompt('weekly_report'), argument: { name: 'project', value: '' } });
    expect(all.completion.values.sort()).toEqual([...projects].sort());
    expect((await complete(client())({ ref: prompt('compare_periods'), argument: { name: 'project', value: 'ACME' } })).completion).toEqual({ values: ['acme-shop'], total: 1, hasMore: false });
    const template = await complete(client())({ ref: { type: 'ref/resource', uri: 'siteline://projects/{project}/metadata' }, argument: { name: 'project', value: 'north' } });
    expect(template.completion.values).toEqual(['northwind-journal']);
  });

  it('completes funnel keys, of one project when the project is already given', async () => {
    const funnels = await complete(client())({ ref: prompt('funnel_review'), argument: { name: 'funnel', value: '' } });
    expect(funnels.completion.values).toEqual(expect.arrayContaining(['acme-shop-checkout', 'acme-shop-signup']));
    const checkout = await complete(client())({ ref: prompt('funnel_review'), argument: { name: 'funnel', value: 'check' } });
    expect(checkout.completion.values).toEqual(['acme-shop-checkout']);
    const other = (await rt.get('/api/v1/projects/list')).body.projects.find((p: { key: string }) => p.key !== 'acme-shop').key as string;
    const scoped = await complete(client())({ ref: prompt('funnel_review'), argument: { name: 'funnel', value: '' }, context: { arguments: { project: other } } });
    expect(scoped.completion.values.filter((k) => k.startsWith('acme-shop'))).toEqual([]);
  });

  it('completes metric names from the project’s own metadata (custom ones too), prefix matches first', async () => {
    const metadata = (await rt.get('/api/v1/metrics/acme-shop/metadata')).body as { analytics: { metrics: { name: string }[] } };
    const { values } = (await complete(client())({ ref: prompt('explain_metric_change'), argument: { name: 'metric', value: 'sess' }, context: { arguments: { project: 'acme-shop' } } })).completion;
    expect(values[0]).toBe('sessions');
    const names = metadata.analytics.metrics.map((m) => m.name);
    expect(values.every((v) => v.toLowerCase().includes('sess') && names.includes(v))).toBe(true);
    const clicks = await complete(client())({ ref: prompt('explain_metric_change'), argument: { name: 'metric', value: 'cli' }, context: { arguments: { project: 'acme-shop' } } });
    expect(clicks.completion.values).toContain('clicks');
  });

  it('completes periods and comparisons', async () => {
    expect((await complete(client())({ ref: prompt('weekly_review'), argument: { name: 'period', value: '9' } })).completion.values).toEqual(['90days']);
    expect((await complete(client())({ ref: prompt('compare_periods'), argument: { name: 'compare', value: 'y' } })).completion.values).toEqual(['year']);
  });

  it('suggests nothing for a reference or argument it does not have, without an error', async () => {
    const none = { values: [], total: 0, hasMore: false };
    expect((await complete(client())({ ref: prompt('no_such_prompt'), argument: { name: 'project', value: '' } })).completion).toEqual(none);
    expect((await complete(client())({ ref: prompt('weekly_report'), argument: { name: 'nothing', value: '' } })).completion).toEqual(none);
    expect((await complete(client())({ ref: prompt('funnel_review'), argument: { name: 'funnel', value: '' }, context: { arguments: { project: 'nope' } } })).completion).toEqual(none);
  });
});

it('suggests only what the key may see', async () => {
  const projects = await complete(narrow)({ ref: prompt('weekly_report'), argument: { name: 'project', value: '' } });
  expect(projects.completion.values).toEqual(['acme-shop']);
  const funnels = await complete(narrow)({ ref: prompt('funnel_review'), argument: { name: 'funnel', value: '' } });
  expect(funnels.completion.values.length).toBeGreaterThan(0);
  expect(funnels.completion.values.every((k) => k.startsWith('acme-shop-'))).toBe(true);
  const other = await complete(narrow)({ ref: { type: 'ref/resource', uri: 'siteline://projects/{project}/metadata' }, argument: { name: 'project', value: 'north' } });
  expect(other.completion.values).toEqual([]);
});
