// /api/graphql: same auth as REST, expected errors with their code, unexpected ones masked, depth limited, answers
// never stored by a cache on the way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../src/store/projects-repository.ts';
import { createAccountWithKey, createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';

let rt: TestRuntime;
let key: string;

beforeAll(async () => {
  rt = await createTestRuntime();
  await createProject(rt.store.db, { key: 'shop', name: 'Shop', domain: 'shop.example' });
  ({ key } = await createAccountWithKey(rt, { email: 'gql@example.com', projects: ['shop'] }));
});
afterAll(() => rt.dispose());

const post = (query: string, auth?: string) =>
  rt.request('/api/graphql', { method: 'POST', key: auth, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });

describe('/api/graphql', () => {
  it('requires a key', async () => {
    const res = await post('{ projects { nodes { key } } }');
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe('missing_credentials');
  });

  it('answers queries with the caller’s projects, never to be stored by a cache on the way', async () => {
    const res = await post('{ projects { totalCount nodes { key dataSources { analytics { status timezone currency } } } } }', key);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    // No provider report read: nothing charged to the request's report budget.
    expect(await res.json()).toEqual({
      data: { projects: { totalCount: 1, nodes: [{ key: 'shop', dataSources: { analytics: { status: 'not_connected', timezone: null, currency: null } } }] } },
      extensions: { cost: { reports: 0, budget: 30 } },
    });
  });

  it('carries the code of an expected error', async () => {
    const body = (await (await post('{ project(key: "nope") { key } }', key)).json()) as { errors: { message: string; extensions: Record<string, unknown> }[] };
    expect(body.errors[0]?.extensions).toMatchObject({ code: 'not_found', status: 404 });
  });

  it('rejects queries deeper than the limit', async () => {
    const deep = `{ projects { nodes { ${'dataSources { analytics { connected } } '.repeat(1)} funnels { steps { name } } } } }`;
    expect((await post(deep, key)).status).toBe(200);
    const nested = `{ __schema { types { fields { type { fields { type { fields { type { fields { type { fields { type { name } } } } } } } } } } } } }`;
    const body = (await (await post(nested, key)).json()) as { errors?: { message: string }[] };
    expect(body.errors?.[0]?.message).toMatch(/depth/i);
  });

  it('has no mutation: funnels are written only through MCP after confirmation', async () => {
    const mutation = 'mutation { createFunnel(project: "shop", name: "x", confirmationId: "forged", steps: [{type: "event", match: "exact", value: "a"}, {type: "event", match: "exact", value: "b"}]) { funnel { key } } }';
    const { createAccountWithKey: make } = await import('../helpers/test-runtime.ts');
    const writer = await make(rt, { email: 'writer@example.com', projects: ['shop'], scopes: ['read', 'mcp:write'] });
    const body = (await (await post(mutation, writer.key)).json()) as { data?: unknown; errors?: { message: string; extensions?: Record<string, unknown> }[] };
    expect(body.errors?.[0]?.message).toMatch(/Mutations are not available/);
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'insufficient_scope', status: 403 });
    const funnels = (await (await post('{ projects { nodes { funnels { key } } } }', writer.key)).json()) as { data: { projects: { nodes: { funnels: unknown[] }[] } } };
    expect(funnels.data.projects.nodes[0]!.funnels).toEqual([]);
  });

  it('offers none of the internal root fields the stored operations run', async () => {
    const body = (await (await post('{ siteSummary(project: "shop") { project } }', key)).json()) as { errors?: { message: string }[] };
    expect(body.errors?.[0]?.message).toMatch(/Cannot query field "siteSummary" on type "Query"/);
  });

  it('requires the read scope', async () => {
    const { createAccountWithKey: make } = await import('../helpers/test-runtime.ts');
    const rawOnly = await make(rt, { email: 'rawonly@example.com', projects: ['shop'], scopes: ['raw'] });
    const res = await post('{ projects { nodes { key } } }', rawOnly.key);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('insufficient_scope');
  });

  it('caps aliases, so one request cannot fan out into many upstream reports', async () => {
    const many = `{ ${Array.from({ length: 20 }, (_, i) => `a${i}: projects { totalCount }`).join(' ')} }`;
    const body = (await (await post(many, key)).json()) as { errors?: { message: string }[] };
    expect(body.errors?.[0]?.message).toMatch(/alias/i);
  });
});
