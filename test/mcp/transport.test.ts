// The transport and auth items of the compliance checklist (mcp-notes §6) against the in-process app:
// status codes, challenges, CORS, Host/Origin checks, body limits, protected-resource metadata, rate limits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithKey, createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';
import { RELAXED_LIMITS } from './mcp-clients.ts';

const PRM_URL = 'http://siteline.test/.well-known/oauth-protected-resource/api/mcp';
const ALLOWED_ORIGIN = 'https://app.example.com';
const ACCEPT = 'application/json, text/event-stream';
const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

let rt: TestRuntime;
let key: string;
let writeKey: string;
let noReadKey: string;

beforeAll(async () => {
  rt = await createTestRuntime({
    env: { CORS_ORIGINS: `${ALLOWED_ORIGIN}, https://claude.ai` },
    shared: RELAXED_LIMITS,
  });
  ({ key } = await createAccountWithKey(rt, { email: 't@example.com', projects: ['shop'] }));
  ({ key: writeKey } = await createAccountWithKey(rt, { email: 'w@example.com', projects: ['shop'], scopes: ['read', 'mcp:write'] }));
  ({ key: noReadKey } = await createAccountWithKey(rt, { email: 'r@example.com', projects: ['shop'], scopes: ['raw'] }));
});
afterAll(() => rt.dispose());

/** A raw request to /api/mcp with the Host header set, as a server would receive it. */
function mcp(init: { method?: string; headers?: Record<string, string>; body?: unknown; key?: string | null; path?: string } = {}): Promise<Response> {
  const headers = new Headers({ host: 'siteline.test', accept: ACCEPT, 'content-type': 'application/json', ...init.headers });
  const credential = init.key === undefined ? key : init.key;
  if (credential) headers.set('authorization', `Bearer ${credential}`);
  const body = init.body === undefined ? JSON.stringify(initialize) : typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
  const method = init.method ?? 'POST';
  return Promise.resolve(rt.app.fetch(new Request(`http://siteline.test${init.path ?? '/api/mcp'}`, { method, headers, ...(method === 'POST' ? { body } : {}) })));
}

/** The SSE-framed legacy answer's JSON-RPC message. */
async function messageOf(res: Response): Promise<Record<string, any>> {
  const text = await res.text();
  if (res.headers.get('content-type')?.includes('text/event-stream')) {
    const data = text.split('\n').find((line) => line.startsWith('data: '));
    return JSON.parse(data!.slice('data: '.length));
  }
  return JSON.parse(text);
}

describe('POST /api/mcp transport', () => {
  it('initializes a 2025-era client: protocol version, serverInfo, capabilities', async () => {
    const res = await mcp();
    expect(res.status).toBe(200);
    const message = await messageOf(res);
    expect(message.result.protocolVersion).toBe('2025-11-25');
    expect(message.result.serverInfo).toMatchObject({ name: 'siteline' });
    expect(Object.keys(message.result.capabilities)).toEqual(expect.arrayContaining(['tools', 'resources', 'prompts']));
    expect(res.headers.get('ratelimit-policy')).toMatch(/q=/);
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('caps JSON-RPC batches and charges every message against the rate limit', async () => {
    const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });
    const tooMany = await mcp({ body: Array.from({ length: 11 }, (_, i) => ping(i)), headers: { 'mcp-protocol-version': '2025-03-26' } });
    expect(tooMany.status).toBe(400);
    expect((await tooMany.json()).error.code).toBe(-32600);
    const before = Number(/r=(\d+)/.exec((await mcp()).headers.get('ratelimit') ?? '')?.[1]);
    await mcp({ body: Array.from({ length: 5 }, (_, i) => ping(i)), headers: { 'mcp-protocol-version': '2025-03-26' } });
    const after = Number(/r=(\d+)/.exec((await mcp()).headers.get('ratelimit') ?? '')?.[1]);
    expect(before - after).toBe(6); // the batch of 5 and the probe itself
  });

  it('406 without text/event-stream in Accept, 415 for another content type', async () => {
    expect((await mcp({ headers: { accept: 'application/json' } })).status).toBe(406);
    expect((await mcp({ headers: { 'content-type': 'text/plain' } })).status).toBe(415);
  });

  it('400 with JSON-RPC -32700 for malformed JSON', async () => {
    const res = await mcp({ body: '{"jsonrpc": "2.0", ' });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe(-32700);
  });

  it('413 for a body over 1 MiB, before parsing', async () => {
    const res = await mcp({ body: JSON.stringify({ ...initialize, padding: 'x'.repeat(1024 * 1024) }) });
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe(-32000);
  });

  it('202 with an empty body for a notification', async () => {
    const res = await mcp({ body: { jsonrpc: '2.0', method: 'notifications/initialized' }, headers: { 'mcp-protocol-version': '2025-11-25' } });
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('');
  });

  it.each(['GET', 'DELETE', 'PUT'])('%s → 405 with Allow: POST and a JSON-RPC error', async (method) => {
    const res = await mcp({ method });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect((await res.json()).error.message).toMatch(/not allowed/i);
  });

  it('400 for an unsupported MCP-Protocol-Version; a request without the header is accepted', async () => {
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    expect((await mcp({ body: list, headers: { 'mcp-protocol-version': '1999-01-01' } })).status).toBe(400);
    const res = await mcp({ body: list });
    expect(res.status).toBe(200);
    expect((await messageOf(res)).result.tools.length).toBeGreaterThan(0);
  });

  it('403 for a foreign Origin or Host; no Origin and allow-listed origins pass', async () => {
    expect((await mcp({ headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect((await mcp({ headers: { origin: 'null' } })).status).toBe(403);
    expect((await mcp({ headers: { host: 'evil.example' } })).status).toBe(403);
    const allowed = await mcp({ headers: { origin: ALLOWED_ORIGIN } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(allowed.headers.get('access-control-expose-headers')).toMatch(/www-authenticate/i);
    expect((await mcp({ headers: { host: 'localhost:3000' } })).status).toBe(200);
  });

  it('a request without Origin (a server-side client) gets no CORS fields, its ids and limits all the same', async () => {
    const res = await mcp({});
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-expose-headers')).toBeNull();
    expect(res.headers.get('vary')).toBeNull();
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.headers.get('ratelimit')).toMatch(/"default";r=\d+/);
  });

  it('answers a preflight from an allow-listed origin with the MCP headers, and none for others', async () => {
    const preflight = (origin: string) =>
      mcp({ method: 'OPTIONS', key: null, headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, mcp-protocol-version' } });
    const res = await preflight(ALLOWED_ORIGIN);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    const allowHeaders = res.headers.get('access-control-allow-headers')!.toLowerCase();
    for (const h of ['authorization', 'content-type', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id']) expect(allowHeaders).toContain(h);
    expect(res.headers.get('access-control-allow-methods')).toMatch(/POST/);
    expect((await preflight('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('POST /api/mcp auth', () => {
  it('401 without credentials: the RFC 9728 challenge with scope, no error code', async () => {
    const res = await mcp({ key: null, headers: { origin: ALLOWED_ORIGIN } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${PRM_URL}", scope="read"`);
    expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect((await res.json()).code).toBe('missing_credentials');
  });

  it('401 invalid_token for an unknown or malformed key', async () => {
    for (const token of ['sl_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'not-a-key']) {
      const res = await mcp({ key: token });
      expect(res.status).toBe(401);
      const challenge = res.headers.get('www-authenticate')!;
      expect(challenge).toMatch(/^Bearer error="invalid_token", error_description="[^"]+", /);
      expect(challenge).toContain(`resource_metadata="${PRM_URL}"`);
      expect(challenge).toContain('scope="read"');
    }
  });

  it('ignores keys in the query string', async () => {
    for (const param of ['api_key', 'token', 'access_token']) {
      expect((await mcp({ key: null, path: `/api/mcp?${param}=${key}` })).status).toBe(401);
    }
  });

  it('403 insufficient_scope for a credential without read', async () => {
    const res = await mcp({ key: noReadKey });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", scope="read", resource_metadata="${PRM_URL}"`);
  });

  it('an API key without mcp:write calling create_funnel gets an isError result naming the scope and how to get it, not a 403 it cannot act on', async () => {
    const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'create_funnel', arguments: { project: 'shop', name: 'x', steps: [] } } };
    const res = await mcp({ body: call, headers: { 'mcp-protocol-version': '2025-11-25' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('www-authenticate')).toBeNull();
    const result = (await messageOf(res)).result;
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/^insufficient_scope: create_funnel needs the mcp:write scope/);
    expect(result.content[0].text).toContain('--scopes read,mcp:write');
    const allowed = await mcp({ key: writeKey, body: call, headers: { 'mcp-protocol-version': '2025-11-25' } });
    expect(allowed.status).toBe(200);
    expect((await messageOf(allowed)).result.isError).toBe(true); // reached the tool: the steps are invalid
  });

  it('applies the per-key request limit to MCP requests (429 with Retry-After)', async () => {
    const { accountId } = await createAccountWithKey(rt, { email: 'l@example.com', projects: ['shop'] });
    const { key: limited } = await rt.apiKeys.create(accountId, { rateLimitPerMinute: 3 });
    expect((await mcp({ key: limited })).status).toBe(200);
    let res = await mcp({ key: limited });
    for (let i = 0; i < 5 && res.status === 200; i++) res = await mcp({ key: limited });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBeTruthy();
    expect((await res.json()).code).toBe('rate_limited');
  });
});

describe('protected-resource metadata (RFC 9728)', () => {
  it.each(['/.well-known/oauth-protected-resource/api/mcp', '/.well-known/oauth-protected-resource'])('%s: public JSON with the exact resource', async (path) => {
    const res = await rt.app.fetch(new Request(`http://siteline.test${path}`, { headers: { origin: 'https://anywhere.example' } }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.json()).toEqual({
      resource: 'http://siteline.test/api/mcp',
      authorization_servers: ['http://siteline.test'],
      scopes_supported: ['read', 'mcp:write'],
      bearer_methods_supported: ['header'],
      resource_name: 'Siteline',
      resource_documentation: 'http://siteline.test/api/v1/docs',
    });
  });

  it('is discoverable with the v2 client helper from the challenge URL', async () => {
    const { discoverOAuthProtectedResourceMetadata } = await import('@modelcontextprotocol/client');
    const fetchFn = async (input: string | URL | Request, init?: RequestInit) => rt.app.fetch(new Request(input, init));
    const metadata = await discoverOAuthProtectedResourceMetadata('http://siteline.test/api/mcp', undefined, fetchFn);
    expect(metadata.resource).toBe('http://siteline.test/api/mcp');
  });
});
