// create_funnel end to end: preview (nothing written) → confirm with the token → the funnel is listed by REST;
// replays, other callers' tokens and changed payloads are refused; the in-band confirmation of modern clients
// that declare elicitation (accept, decline, forged answers).
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CreateFunnelOutput } from '../../src/mcp/tools/create-funnel-tool.ts';
import { createProject } from '../../src/store/projects-repository.ts';
import { createAccountWithKey, createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';
import { CLIENT_KINDS, connect, inProcessFetch, MCP_URL, RELAXED_LIMITS, type CallResult } from './mcp-clients.ts';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

let rt: TestRuntime;
let writer: { accountId: string; key: string };
let secondKeySameAccount: string;
let otherWriter: string;
let project = 0;

beforeAll(async () => {
  rt = await createTestRuntime({ shared: RELAXED_LIMITS });
  writer = await createAccountWithKey(rt, { email: 'w@example.com', projects: [], scopes: ['read', 'mcp:write'] });
  ({ key: secondKeySameAccount } = await rt.apiKeys.create(writer.accountId, { scopes: ['read', 'mcp:write'] }));
  ({ key: otherWriter } = await createAccountWithKey(rt, { email: 'o@example.com', projects: [], scopes: ['read', 'mcp:write'] }));
});
afterAll(() => rt.dispose());

/** A fresh project per test, visible to both accounts, so funnel lists start empty. */
let projectKey = '';
beforeEach(async () => {
  projectKey = `shop-${++project}`;
  const created = await createProject(rt.store.db, { key: projectKey, name: 'Shop', domain: 'shop.example' });
  const { grantProjectAccess } = await import('../../src/store/projects-repository.ts');
  await grantProjectAccess(rt.store.db, writer.accountId, created.id);
  const other = await rt.store.db.selectFrom('accounts').select('id').where('email', '=', 'o@example.com').executeTakeFirstOrThrow();
  await grantProjectAccess(rt.store.db, other.id, created.id);
});

const steps = [
  { name: 'Product', type: 'page', match: 'begins_with', value: '/products/' },
  { name: 'Purchase', type: 'event', match: 'exact', value: 'purchase' },
];

async function restFunnels(key = writer.key): Promise<{ key: string; name: string; createdVia: string }[]> {
  const res = await rt.request(`/api/v1/projects/${projectKey}/funnels/list`, { key });
  expect(res.status).toBe(200);
  return ((await res.json()) as { funnels: { key: string; name: string; createdVia: string }[] }).funnels;
}

function structured(result: CallResult): Record<string, any> {
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  CreateFunnelOutput.parse(result.structuredContent);
  return result.structuredContent!;
}

function errorText(result: CallResult): string {
  expect(result.isError).toBe(true);
  return result.content!.map((c) => c.text).join('');
}

describe.each(CLIENT_KINDS)('create_funnel with a confirmation token (%s)', (kind) => {
  it('previews without writing, creates once with the token, and a replay returns the same funnel', async () => {
    const client = await connect(rt, kind, writer.key);
    const args = { project: projectKey, name: 'Checkout', steps };
    const preview = structured(await client.callTool({ name: 'create_funnel', arguments: args }));
    expect(preview).toMatchObject({ status: 'preview', project: projectKey, name: 'Checkout', period: '28days' });
    expect(preview.steps).toHaveLength(2);
    expect(preview.steps[0]).toMatchObject({ name: 'Product', type: 'page', match: 'begins_with', value: '/products/' });
    expect(preview.confirmation_token).toMatch(/^slc1\./);
    expect(Date.parse(preview.expiresAt) - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(await restFunnels()).toEqual([]);

    const created = structured(await client.callTool({ name: 'create_funnel', arguments: { ...args, confirmation_token: preview.confirmation_token } }));
    expect(created.status).toBe('created');
    expect(created.funnel).toMatchObject({ name: 'Checkout', createdVia: 'mcp', steps });
    const listed = await restFunnels();
    expect(listed).toEqual([expect.objectContaining({ key: created.funnel.key, name: 'Checkout', createdVia: 'mcp' })]);

    const replay = structured(await client.callTool({ name: 'create_funnel', arguments: { ...args, confirmation_token: preview.confirmation_token } }));
    expect(replay.status).toBe('already_created');
    expect(replay.funnel.key).toBe(created.funnel.key);
    expect(await restFunnels()).toHaveLength(1);
    await client.close();
  });
});

describe('create_funnel refusals', () => {
  it('refuses a token issued to another key, of the same account or another one', async () => {
    const owner = await connect(rt, 'v1', writer.key);
    const args = { project: projectKey, name: 'Checkout', steps };
    const { confirmation_token } = structured(await owner.callTool({ name: 'create_funnel', arguments: args }));
    for (const key of [secondKeySameAccount, otherWriter]) {
      const thief = await connect(rt, 'v2-legacy', key);
      const text = errorText(await thief.callTool({ name: 'create_funnel', arguments: { ...args, confirmation_token } }));
      expect(text).toMatch(/^invalid_parameter: This confirmation_token was issued to another API key/);
      expect(text).toContain('(parameter: confirmation_token)');
      await thief.close();
    }
    expect(await restFunnels()).toEqual([]);
    await owner.close();
  });

  it('refuses a token when the name or steps changed since the preview, and a tampered token', async () => {
    const client = await connect(rt, 'v2-modern', writer.key);
    const args = { project: projectKey, name: 'Checkout', steps };
    const { confirmation_token } = structured(await client.callTool({ name: 'create_funnel', arguments: args }));
    const renamed = errorText(await client.callTool({ name: 'create_funnel', arguments: { ...args, name: 'Other', confirmation_token } }));
    expect(renamed).toMatch(/issued for a different funnel/);
    const reordered = errorText(await client.callTool({ name: 'create_funnel', arguments: { ...args, steps: [...steps].reverse(), confirmation_token } }));
    expect(reordered).toMatch(/issued for a different funnel/);
    const [prefix, body, mac] = (confirmation_token as string).split('.');
    const tampered = `${prefix}.${body}x.${mac}`;
    expect(errorText(await client.callTool({ name: 'create_funnel', arguments: { ...args, confirmation_token: tampered } }))).toMatch(/not valid/);
    expect(await restFunnels()).toEqual([]);
    await client.close();
  });

  it('reports every invalid step at once and writes nothing', async () => {
    const client = await connect(rt, 'v1', writer.key);
    const bad = [{ type: 'page', match: 'sounds_like', value: '/a' }, { type: 'click', match: 'regex', value: '(' }];
    const text = errorText(await client.callTool({ name: 'create_funnel', arguments: { project: projectKey, name: 'Bad', steps: bad } }));
    expect(text).toMatch(/^invalid_parameter: /);
    expect(text).toContain("match 'sounds_like'");
    expect(text).toContain("type 'click'");
    expect(text).toContain('not a valid RE2 regular expression');
    expect(errorText(await client.callTool({ name: 'create_funnel', arguments: { project: 'nope', name: 'X', steps } }))).toBe("not_found: No project 'nope' is visible to you.");
    await client.close();
  });
});

describe('create_funnel with in-band confirmation (2026-07-28 client declaring elicitation)', () => {
  async function elicitingClient(answer: { action: 'accept' | 'decline'; content?: Record<string, boolean> }) {
    const prompts: string[] = [];
    const client = new ClientV2({ name: 'eliciting', version: '1' }, { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler('elicitation/create', async (request) => {
      prompts.push((request.params as { message: string }).message);
      return answer;
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(MCP_URL), { fetch: inProcessFetch(rt), requestInit: { headers: { authorization: `Bearer ${writer.key}` } } }));
    return { client, prompts };
  }

  it('asks the user and creates the funnel when they accept', async () => {
    const { client, prompts } = await elicitingClient({ action: 'accept', content: { confirm: true } });
    const result = (await client.callTool({ name: 'create_funnel', arguments: { project: projectKey, name: 'Checkout', steps } })) as CallResult;
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toContain(`Create funnel 'Checkout' in project ${projectKey}?`);
    expect(structured(result).status).toBe('created');
    expect(await restFunnels()).toHaveLength(1);
    await client.close();
  });

  it('writes nothing when the user declines', async () => {
    const { client } = await elicitingClient({ action: 'decline' });
    const result = (await client.callTool({ name: 'create_funnel', arguments: { project: projectKey, name: 'Checkout', steps } })) as CallResult;
    expect(structured(result).status).toBe('declined');
    expect(await restFunnels()).toEqual([]);
    await client.close();
  });

  it('asks again (never writes) for a forged first call that carries an accept but no signed requestState', async () => {
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } };
    const body = {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'create_funnel', arguments: { project: projectKey, name: 'Checkout', steps }, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } }, _meta: meta },
    };
    const res = await inProcessFetch(rt)(MCP_URL, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${writer.key}`,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'create_funnel',
      },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    const message = (await res.json()) as { result: { resultType: string; inputRequests: Record<string, unknown>; requestState: string } };
    expect(message.result.resultType).toBe('input_required');
    expect(message.result.inputRequests.confirm).toBeDefined();
    expect(typeof message.result.requestState).toBe('string');
    expect(await restFunnels()).toEqual([]);
  });
});
