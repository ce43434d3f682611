// Actions × roles × surfaces: every allow and every deny of the role policy, proven through the surfaces a person
// reaches it by — the dashboard's forms and pages, the REST API with an API key, GraphQL (the /api/graphql endpoint
// and the stored createFunnel mutation), MCP with an API key and with an OAuth token, and the CLI. The expected
// outcome of each cell comes from the policy table (pinned in test/domain/access-policy.test.ts): allowed, refused
// (403, the role named) or hidden (404, as for an unknown project).
//
// Allowed cells use input the action then rejects as invalid, or stop at a confirmation step, wherever that proves
// the role check passed without changing the project for the next cell (a 400 comes after the role check).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allows, type ProjectAction, type ProjectRole } from '../../src/domain/access-policy.ts';
import { isAppError } from '../../src/errors/app-error.ts';
import { runEndpoint } from '../../src/operations/run-endpoint.ts';
import { listAudit } from '../../src/store/audit-repository.ts';
import { createAccount, setAccountPassword } from '../../src/store/accounts-repository.ts';
import { getFunnelByKey, listFunnelsForProject } from '../../src/store/funnels-repository.ts';
import { putProjectRole } from '../../src/store/project-roles-repository.ts';
import { getProjectByKey, type ProjectRecord } from '../../src/store/projects-repository.ts';
import { webClient, type WebClient } from '../dashboard/web-client.ts';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';
import type { TestRuntime } from '../helpers/test-runtime.ts';
import { runSiteline } from '../cli/run.ts';
import { connect, RELAXED_LIMITS, type TestClient } from '../mcp/mcp-clients.ts';
import { authorizeAndExchange, PASSWORD } from '../oauth/oauth-helpers.ts';

type Who = ProjectRole | 'outsider';
type Outcome = 'allowed' | 'refused' | 'hidden';
const WHO: readonly Who[] = ['admin', 'editor', 'viewer', 'outsider'];
const PROJECT = 'acme-shop';
const BASE = `/dashboard/p/${PROJECT}`;

interface Member {
  who: Who;
  accountId: string;
  email: string;
  key: string;
  oauthToken: string;
  browser: WebClient;
  mcpKey: TestClient;
  mcpOAuth: TestClient;
}

let rt: SandboxRuntime;
let project: ProjectRecord;
const members = new Map<Who, Member>();
let seq = 0;

function expected(action: ProjectAction, who: Who): Outcome {
  if (who === 'outsider') return 'hidden';
  return allows(action, who) ? 'allowed' : 'refused';
}

beforeAll(async () => {
  rt = await createSandboxRuntime({ shared: RELAXED_LIMITS });
  project = (await getProjectByKey(rt.store.db, PROJECT))!;
  for (const who of WHO) {
    const email = `${who}@example.com`;
    const account = await createAccount(rt.store.db, { email, name: who });
    await setAccountPassword(rt.store.db, account.id, PASSWORD);
    if (who !== 'outsider') await putProjectRole(rt.store.db, account.id, project.id, who, new Date());
    const { key } = await rt.apiKeys.create(account.id, { scopes: ['read', 'raw', 'mcp:write'] });
    // The OAuth helpers drive any runtime's app; the sandbox runtime differs from a plain one only in its demo field.
    const { tokens } = await authorizeAndExchange({ rt: rt as unknown as TestRuntime, accountId: account.id, email, apiKey: key, deps: () => rt.deps.web! }, { scope: 'read mcp:write' });
    const browser = webClient(rt);
    await browser.get('/account/sign-in');
    expect((await browser.post('/account/sign-in', { email, password: PASSWORD, return_to: '/dashboard' })).location).toBe('/dashboard');
    members.set(who, { who, accountId: account.id, email, key, oauthToken: tokens.access_token, browser, mcpKey: await connect(rt, 'v2-legacy', key), mcpOAuth: await connect(rt, 'v2-legacy', tokens.access_token) });
  }
}, 120_000);

afterAll(async () => {
  for (const m of members.values()) await Promise.all([m.mcpKey.close(), m.mcpOAuth.close()]);
  await rt?.dispose();
});

// ---- the dashboard ----

/** A dashboard answer: the role check's refusal page, the not-found page, or the action's own answer (status checked). */
function ofPage(res: { status: number; html: string }, allowedStatus: readonly number[]): Outcome {
  if (res.status === 403 && res.html.includes('Not allowed')) return 'refused';
  if (res.status === 404 && res.html.includes('does not exist or is not shared with you')) return 'hidden';
  expect(allowedStatus, `an allowed answer: ${res.status} ${res.html.slice(0, 300)}`).toContain(res.status);
  return 'allowed';
}

async function form(m: Member, path: string, fields: Record<string, string | string[]>, allowedStatus: readonly number[]): Promise<Outcome> {
  await m.browser.get('/dashboard');
  return ofPage(await m.browser.post(path, fields), allowedStatus);
}

async function page(m: Member, path: string, allowedStatus: readonly number[] = [200]): Promise<Outcome> {
  return ofPage(await m.browser.get(path), allowedStatus);
}

const ONE_STEP = { name: 'Short', step_type: 'page', step_match: 'exact', step_value: '/', step_name: 'only' };

const DASHBOARD: [ProjectAction, string, (m: Member, funnelKey: string) => Promise<Outcome>][] = [
  ['project.read', 'overview page', (m) => page(m, BASE)],
  ['project.read', 'settings page', (m) => page(m, `${BASE}/settings`)],
  ['report.refresh', 'overview Refresh now (POST)', (m) => form(m, BASE, { refresh: '1' }, [303])],
  ['audit.read', 'audit log page', (m) => page(m, `${BASE}/audit`)],
  ['project.edit', 'settings form (bad time zone → 400)', (m) => form(m, `${BASE}/settings`, { name: 'X', domain: project.domain, timezone: 'Mars/Olympus', currency: 'USD' }, [400])],
  ['brand_terms.edit', 'brand terms form (a term too long → 400)', (m) => form(m, `${BASE}/brand-terms`, { brand_terms: 'x'.repeat(101), action: 'save' }, [400])],
  ['funnel.create', 'new funnel form (one step → 400)', (m) => form(m, `${BASE}/funnels`, { ...ONE_STEP, op: 'save' }, [400])],
  ['funnel.create', 'new funnel page', (m) => page(m, `${BASE}/funnels/new`)],
  ['funnel.edit', 'funnel edit form (one step → 400)', (m, key) => form(m, `${BASE}/funnels/${key}`, { ...ONE_STEP, op: 'save' }, [400])],
  ['funnel.edit', 'funnel rename form (empty name → 400)', (m, key) => form(m, `${BASE}/funnels/${key}/rename`, { name: ' ' }, [400])],
  ['funnel.delete', 'funnel delete form (unconfirmed → back to the editor)', (m, key) => form(m, `${BASE}/funnels/${key}/delete`, {}, [303])],
  ['source.connect', 'Bing key form (no key → 400)', (m) => form(m, `${BASE}/connect/engine2`, { api_key: '' }, [400])],
  // This runtime has no Google OAuth client: past the role check, the page says Connect Google is not configured.
  ['source.connect', 'Connect Google (past the role check)', (m) => form(m, `${BASE}/connect/google`, {}, [503])],
  ['source.disconnect', 'Disconnect Bing (the confirmation step)', (m) => form(m, `${BASE}/disconnect/engine2`, {}, [200])],
  ['source.disconnect', 'Disconnect Google (the confirmation step)', (m) => form(m, `${BASE}/disconnect/google`, {}, [200])],
  ['access.invite', 'share form (not an email → 400)', (m) => form(m, `${BASE}/access/invite`, { email: 'nobody', role: 'viewer' }, [400])],
  ['access.withdraw', 'withdraw an invitation (none open → 404)', (m) => form(m, `${BASE}/access/withdraw`, { digest: 'f'.repeat(64) }, [404])],
  ['access.set_role', 'change a role (not a role → 400)', (m) => form(m, `${BASE}/access/role`, { account_id: members.get('viewer')!.accountId, role: 'overlord' }, [400])],
  ['access.remove', 'remove access (the confirmation step)', (m) => form(m, `${BASE}/access/revoke`, { account_id: members.get('viewer')!.accountId }, [200])],
  ['project.delete', 'delete form (wrong key → 400)', (m) => form(m, `${BASE}/delete`, { confirm: 'not-the-key' }, [400])],
];

describe('the dashboard', () => {
  let funnelKey = '';
  beforeAll(async () => {
    funnelKey = (await listFunnelsForProject(rt.store.db, project.id))[0]!.key;
  });

  for (const [action, what, run] of DASHBOARD) {
    // The overview reads every report of the project for each member: minutes on a busy machine, not seconds.
    it(`${action}: ${what}`, { timeout: 120_000 }, async () => {
      for (const who of WHO) expect(await run(members.get(who)!, funnelKey), `${who}`).toBe(expected(action, who));
    });
  }

  it('nothing a refused or hidden form sent changed the project, its funnels or its members', async () => {
    const now = (await getProjectByKey(rt.store.db, PROJECT))!;
    expect(now).toMatchObject({ name: project.name, timezone: project.timezone, brandTerms: project.brandTerms ?? null });
    expect(await getFunnelByKey(rt.store.db, funnelKey)).toBeDefined();
    const roles = await rt.store.db.selectFrom('account_projects').select(['account_id', 'role']).where('project_id', '=', project.id).execute();
    for (const who of ['admin', 'editor', 'viewer'] as const) expect(roles.find((r) => r.account_id === members.get(who)!.accountId)?.role).toBe(who);
  });
});

// ---- API keys, GraphQL, MCP (keys and OAuth tokens) ----

async function rest(m: Member, path: string): Promise<Outcome> {
  const res = await rt.request(path, { key: m.key });
  const body = (await res.json()) as { code?: string };
  if (res.status === 403 && body.code === 'insufficient_role') return 'refused';
  if (res.status === 404) return 'hidden';
  expect(res.status, JSON.stringify(body)).toBe(200);
  return 'allowed';
}

async function graphql(m: Member, query: string): Promise<Outcome> {
  const res = await rt.request('/api/graphql', { method: 'POST', key: m.key, headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ query }) });
  const body = (await res.json()) as { data?: unknown; errors?: { extensions?: { code?: string } }[] };
  const code = body.errors?.[0]?.extensions?.code;
  if (code === 'insufficient_role') return 'refused';
  if (code === 'not_found') return 'hidden';
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return 'allowed';
}

/** The stored createFunnel mutation, as MCP's confirmed flow runs it, for the key's principal. */
async function mutation(m: Member): Promise<Outcome> {
  const principal = await rt.apiKeys.verify(m.key);
  const steps = [
    { name: 'Home', type: 'page', match: 'exact', value: '/' },
    { name: 'Cart', type: 'page', match: 'exact', value: '/cart' },
  ];
  try {
    await runEndpoint(rt.deps, principal, `matrix-${++seq}`, { operation: 'CreateFunnel', field: 'createFunnel' }, { project: PROJECT, name: `By ${m.who}`, steps, confirmationId: `cfm_matrix_${seq}` });
    return 'allowed';
  } catch (error) {
    if (isAppError(error) && error.code === 'insufficient_role') return 'refused';
    if (isAppError(error) && error.code === 'not_found') return 'hidden';
    throw error;
  }
}

async function mcp(client: TestClient, name: string, args: Record<string, unknown>): Promise<Outcome> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content ?? []).map((c) => c.text ?? '').join('');
  if (!result.isError) return 'allowed';
  if (/role on the project/.test(text)) return 'refused';
  if (/No project|not visible|does not exist/i.test(text)) return 'hidden';
  throw new Error(`unexpected MCP error: ${text}`);
}

const FUNNEL_ARGS = { project: PROJECT, name: 'Preview', steps: [{ type: 'page', match: 'exact', value: '/' }, { type: 'page', match: 'begins_with', value: '/cart' }] };

const API: [ProjectAction, string, (m: Member) => Promise<Outcome>][] = [
  ['project.read', 'REST project with an API key', (m) => rest(m, `/api/v1/projects/${PROJECT}`)],
  ['project.read', 'REST summary with an API key', (m) => rest(m, `/api/v1/metrics/${PROJECT}/summary`)],
  ['report.refresh', 'REST summary force=1 with an API key', (m) => rest(m, `/api/v1/metrics/${PROJECT}/summary?force=1`)],
  ['report.refresh', 'REST raw analytics proxy force=1 with an API key', async (m) => {
    const property = (await rt.store.db.selectFrom('data_sources').select('property_id').where('project_id', '=', project.id).where('source', '=', 'analytics').executeTakeFirstOrThrow()).property_id;
    const payload = { project_key: PROJECT, path: `properties/${property}:runReport`, body: { dateRanges: [{ startDate: '7daysAgo', endDate: 'yesterday' }], metrics: [{ name: 'sessions' }] } };
    const res = await rt.request('/api/v1/raw/analytics/proxy?force=1', { method: 'POST', key: m.key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
    const body = (await res.json()) as { code?: string };
    if (res.status === 403 && body.code === 'insufficient_role') return 'refused';
    if (res.status === 404) return 'hidden';
    expect(res.status, JSON.stringify(body)).toBe(200);
    return 'allowed';
  }],
  ['project.read', 'GraphQL query with an API key', (m) => graphql(m, `{ project(key: "${PROJECT}") { summary { project } } }`)],
  ['report.refresh', 'GraphQL query force=1 with an API key', (m) => graphql(m, `{ project(key: "${PROJECT}") { summary(force: true) { project } } }`)],
  ['funnel.create', 'GraphQL createFunnel mutation (the stored operation MCP confirms through)', mutation],
  ['funnel.create', 'MCP create_funnel with an API key', (m) => mcp(m.mcpKey, 'create_funnel', FUNNEL_ARGS)],
  ['funnel.create', 'MCP create_funnel with an OAuth token', (m) => mcp(m.mcpOAuth, 'create_funnel', FUNNEL_ARGS)],
  ['project.read', 'MCP get_site_summary with an OAuth token', (m) => mcp(m.mcpOAuth, 'get_site_summary', { project: PROJECT })],
  ['report.refresh', 'MCP get_site_summary force=1 with an API key', (m) => mcp(m.mcpKey, 'get_site_summary', { project: PROJECT, force: '1' })],
  ['report.refresh', 'MCP get_site_summary force=1 with an OAuth token', (m) => mcp(m.mcpOAuth, 'get_site_summary', { project: PROJECT, force: '1' })],
];

describe('API keys, OAuth tokens, GraphQL and MCP', () => {
  for (const [action, what, run] of API) {
    it(`${action}: ${what}`, async () => {
      for (const who of WHO) expect(await run(members.get(who)!), `${who}`).toBe(expected(action, who));
    });
  }

  it('a confirmed create_funnel by an editor writes once, audited as MCP', async () => {
    const editor = members.get('editor')!;
    const preview = await editor.mcpOAuth.callTool({ name: 'create_funnel', arguments: { ...FUNNEL_ARGS, name: 'Confirmed' } });
    const token = (preview.structuredContent as { confirmation_token: string }).confirmation_token;
    const created = await editor.mcpOAuth.callTool({ name: 'create_funnel', arguments: { ...FUNNEL_ARGS, name: 'Confirmed', confirmation_token: token } });
    expect(created.isError).toBeFalsy();
    const key = (created.structuredContent as { funnel: { key: string } }).funnel.key;
    const [entry] = (await listAudit(rt.store.db, { projectId: project.id, action: 'funnel.create' })).filter((e) => e.subject === key);
    expect(entry).toMatchObject({ accountId: editor.accountId, detail: expect.objectContaining({ via: 'mcp' }) });
  });

  it('/api/graphql takes no mutation from anyone (funnels are created through MCP’s confirmation)', async () => {
    for (const who of WHO) {
      const res = await rt.request('/api/graphql', {
        method: 'POST',
        key: members.get(who)!.key,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ query: `mutation { createFunnel(project: "${PROJECT}", name: "X", steps: [], confirmationId: "x") { replayed } }` }),
      });
      const body = (await res.json()) as { errors?: { extensions?: { code?: string } }[] };
      expect(body.errors?.[0]?.extensions?.code, who).toBe('insufficient_scope');
    }
  });
});

// ---- the CLI (the operator) ----

describe('the CLI', () => {
  it('acts as the operator: allowed everything, every write audited as cli', async () => {
    const env = rt.cliEnv;
    const before = new Set((await listAudit(rt.store.db, { limit: 10_000 })).map((e) => e.id));
    const steps = ['--step', 'page:exact:/', '--step', 'page:exact:/cart'];
    const commands: string[][] = [
      ['projects', 'brand-terms', PROJECT, '--term', 'acme'],
      ['funnels', 'create', PROJECT, '--name', 'From the CLI', '--key', 'cli-funnel', ...steps],
      ['funnels', 'delete', 'cli-funnel'],
      ['projects', 'grant', PROJECT, '--account', members.get('outsider')!.email, '--role', 'viewer'],
      ['projects', 'add', '--key', 'cli-project', '--name', 'CLI', '--domain', 'cli.example', '--grant', members.get('viewer')!.email],
    ];
    for (const args of commands) expect((await runSiteline(args, env)).code, args.join(' ')).toBe(0);
    const fresh = (await listAudit(rt.store.db, { limit: 10_000 })).filter((e) => !before.has(e.id));
    expect(fresh.map((e) => e.action).sort()).toEqual(['access.grant', 'access.grant', 'funnel.create', 'funnel.delete', 'project.brand_terms', 'project.create'].sort());
    for (const entry of fresh) expect(entry).toMatchObject({ accountId: null, detail: expect.objectContaining({ via: 'cli' }) });
    // The outsider is a viewer now: it reads, and still may not edit.
    expect(await rest(members.get('outsider')!, `/api/v1/projects/${PROJECT}`)).toBe('allowed');
    expect(await rest(members.get('outsider')!, `/api/v1/metrics/${PROJECT}/summary?force=1`)).toBe('refused');
  });
});
