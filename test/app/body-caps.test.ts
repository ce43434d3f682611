// Every route of the app that takes a body, found in the h3 app's own route list, refuses an oversized body after
// reading at most its cap plus one chunk (a stream body counts what was pulled from it): problem JSON for the API,
// OAuth JSON for the OAuth endpoints, JSON-RPC for MCP, an HTML page for browser forms. Deeply nested JSON is a 400
// on every raw proxy, never a stack overflow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { H3Route } from 'h3';
import { MAX_JSON_DEPTH } from '../../src/http/json-nesting.ts';
import { BODY_LIMITS } from '../../src/http/read-body.ts';
import { REST_ROUTES } from '../../src/rest/route-table.ts';
import { createOAuthFixture, signIn, type OAuthFixture } from '../oauth/oauth-helpers.ts';

const CHUNK = 16 * 1024;
const BIG = 50 * 1024 * 1024;

let fx: OAuthFixture;
let cookie: string;
let key: string;
beforeAll(async () => {
  fx = await createOAuthFixture({ projects: ['shop'] });
  cookie = await signIn(fx.rt, fx.email);
  key = (await fx.rt.apiKeys.create(fx.accountId, { scopes: ['read', 'raw', 'mcp:write'] })).key;
});
afterAll(() => fx.rt.dispose());

/** A body of `total` bytes of `a` handed out one chunk per pull, with nothing read ahead; counts what was pulled. */
function countingBody(total = BIG) {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled >= total) return controller.close();
        const size = Math.min(CHUNK, total - pulled);
        pulled += size;
        controller.enqueue(new Uint8Array(size).fill(0x61));
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => pulled };
}

type Kind = 'api-json' | 'graphql' | 'mcp' | 'oauth-json' | 'oauth-form' | 'browser-form';

function kindOf(path: string): Kind {
  if (path === '/api/mcp') return 'mcp';
  if (path === '/api/graphql') return 'graphql';
  if (path.startsWith('/api/')) return 'api-json';
  if (path === '/oauth/register') return 'oauth-json';
  if (path === '/oauth/token' || path === '/oauth/revoke') return 'oauth-form';
  return 'browser-form';
}

const LIMIT: Record<Kind, number> = {
  'api-json': BODY_LIMITS.json,
  graphql: BODY_LIMITS.graphql,
  mcp: BODY_LIMITS.mcp,
  'oauth-json': BODY_LIMITS.json,
  'oauth-form': BODY_LIMITS.form,
  'browser-form': BODY_LIMITS.form,
};

/** Headers a real caller of that kind of route sends: its credential, its media type, what it accepts. */
function headersFor(kind: Kind): Record<string, string> {
  const json = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
  switch (kind) {
    case 'mcp':
      return { ...json, accept: 'application/json, text/event-stream', host: 'siteline.test' };
    case 'api-json':
    case 'graphql':
      return { ...json, accept: 'application/json' };
    case 'oauth-json':
      return { 'content-type': 'application/json', accept: 'application/json' };
    case 'oauth-form':
      return { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    case 'browser-form':
      return { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html,application/xhtml+xml', origin: 'http://siteline.test', cookie };
  }
}

/** A concrete path for a route pattern (`:key` → the project, other parameters → a placeholder). */
function concrete(route: string): string {
  return route.replace(/:key\b/g, 'shop').replace(/:provider\b/g, 'analytics').replace(/:(\w+)/g, 'x').replace(/\/\*\*$/, '/anything');
}

/** Every path that answers a POST: explicit POST/PUT/PATCH routes and the method-less ones (`app.all`). */
function bodyCandidates(): { path: string; method: string; explicit: boolean }[] {
  const routes = (fx.rt.app as unknown as { '~routes': H3Route[] })['~routes'];
  const seen = new Set<string>();
  const out: { path: string; method: string; explicit: boolean }[] = [];
  for (const route of routes) {
    const method = route.method || 'POST';
    if (!['POST', 'PUT', 'PATCH'].includes(method) || !route.route) continue;
    const path = concrete(route.route);
    if (seen.has(`${method} ${path}`)) continue;
    seen.add(`${method} ${path}`);
    out.push({ path, method, explicit: Boolean(route.method) });
  }
  return out;
}

/** The routes that must read a body: every explicit POST, the REST routes with a body, and the body-taking `all` routes. */
const MUST_READ = new Set([
  '/api/graphql',
  '/api/mcp',
  '/oauth/register',
  '/oauth/token',
  '/oauth/revoke',
  ...REST_ROUTES.filter((r) => r.method === 'POST').map((r) => concrete(r.path)),
]);

/** Routes that answer without reading the body in this setup, and why. */
const REFUSED_BEFORE_READING: Record<string, string> = { '/signup': 'sign-up is closed in the default SIGNUP=invite mode' };

async function send(path: string, method: string, init: { headers?: Record<string, string>; total?: number } = {}) {
  const body = countingBody(init.total);
  const kind = kindOf(path);
  const request = new Request(`http://siteline.test${path}`, { method, headers: { ...headersFor(kind), ...init.headers }, body: body.stream, duplex: 'half' } as RequestInit);
  const res = await fx.rt.app.request(request);
  return { res, text: await res.text(), pulled: body.pulled(), kind };
}

describe('one body reader with a cap, on every route that takes a body', () => {
  const candidates = () => bodyCandidates();

  it('finds the routes in the app itself', () => {
    const paths = candidates().map((c) => c.path);
    expect(paths).toEqual(expect.arrayContaining([...MUST_READ, '/join', '/setup', '/account/sign-in', '/dashboard/projects', '/oauth/authorize']));
    expect(candidates().filter((c) => c.explicit).length).toBeGreaterThanOrEqual(25);
  });

  it('each refuses a 50 MB body after at most its cap plus one chunk, with an answer in its own shape', async () => {
    const refused: string[] = [];
    for (const { path, method, explicit } of candidates()) {
      const { res, text, pulled, kind } = await send(path, method);
      const what = `${method} ${path} → ${res.status} after ${pulled} bytes`;
      expect(res.status, what).toBeLessThan(500);
      expect(pulled, what).toBeLessThanOrEqual(LIMIT[kind] + CHUNK);
      if (REFUSED_BEFORE_READING[path]) expect(pulled, `${what}: ${REFUSED_BEFORE_READING[path]}`).toBe(0);
      else if (explicit || MUST_READ.has(path)) expect(res.status, `${what}: ${text.slice(0, 200)}`).toBe(413);
      else expect(pulled, `${what}: a route that does not take a body reads none`).toBe(0);
      if (res.status !== 413) continue;
      refused.push(path);
      if (kind === 'browser-form') {
        expect(res.headers.get('content-type'), what).toMatch(/^text\/html/);
        expect(text, what).toMatch(/too large/i);
        expect(text, what).toContain(`${BODY_LIMITS.form / 1024} KiB`);
      } else if (kind === 'mcp') {
        expect(JSON.parse(text).error.code, what).toBe(-32000);
      } else if (kind.startsWith('oauth')) {
        expect(JSON.parse(text).error, what).toBe('invalid_request');
      } else {
        expect(JSON.parse(text), what).toMatchObject({ code: 'payload_too_large', status: 413 });
      }
    }
    expect(refused.length).toBeGreaterThanOrEqual(MUST_READ.size + 25);
  });

  it('a declared Content-Length past the cap is refused before anything is read', async () => {
    for (const path of ['/join', '/api/v1/raw/analytics/proxy', '/api/graphql', '/api/mcp', '/oauth/token', '/oauth/register']) {
      const { res, pulled } = await send(path, 'POST', { headers: { 'content-length': String(BIG) } });
      expect(res.status, path).toBe(413);
      expect(pulled, path).toBe(0);
    }
  });

  it('an understated Content-Length is not trusted: the count stops the read', async () => {
    for (const path of ['/join', '/api/v1/raw/analytics/proxy', '/api/graphql', '/api/mcp', '/oauth/token']) {
      const { res, pulled, kind } = await send(path, 'POST', { headers: { 'content-length': '10' } });
      expect(res.status, path).toBe(413);
      expect(pulled, path).toBeLessThanOrEqual(LIMIT[kind] + CHUNK);
    }
  });

  it('POST /join reads a bounded form before it looks at the invitation', async () => {
    const { res, text, pulled } = await send('/join', 'POST');
    expect(res.status).toBe(413);
    expect(pulled).toBeLessThanOrEqual(BODY_LIMITS.form + CHUNK);
    expect(text).toMatch(/nothing was saved/i);
  });
});

describe('JSON nesting', () => {
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it.each(['analytics', 'engine1', 'engine2'])('a deeply nested body on the %s raw proxy is a 400 invalid_json naming the limit', async (provider) => {
    const body = `{"project_key":"shop","path":"x","body":{"a":${nested(30_000)}}}`;
    expect(Buffer.byteLength(body)).toBeLessThan(BODY_LIMITS.json);
    const res = await fx.rt.request(`/api/v1/raw/${provider}/proxy`, { method: 'POST', key, headers: { 'content-type': 'application/json' }, body });
    expect(res.status).toBe(400);
    const problem = await res.json();
    expect(problem).toMatchObject({ code: 'invalid_json', status: 400 });
    expect(problem.detail).toContain(`${MAX_JSON_DEPTH} levels`);
  });

  it('nesting up to the limit is accepted (the request goes on to its next check)', async () => {
    const within = `{"project_key":"nope","path":"x","body":{"a":${nested(MAX_JSON_DEPTH - 2)}}}`;
    const res = await fx.rt.request('/api/v1/raw/analytics/proxy', { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: within });
    expect((await res.json()).code).not.toBe('invalid_json');
  });

  it('GraphQL: a nested rawProxy request in variables or in the query itself is a client error, never a 500', async () => {
    const query = 'query ($r: JSON) { rawProxy(provider: "analytics", request: $r) { status } }';
    const viaBody = await fx.rt.request('/api/graphql', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: `{"query":${JSON.stringify(query)},"variables":{"r":{"project_key":"shop","path":"x","body":{"a":${nested(30_000)}}}}}`,
    });
    expect(viaBody.status).toBe(400);
    expect((await viaBody.json()).code).toBe('invalid_json');

    const literal = `{ rawProxy(provider: "analytics", request: {project_key: "shop", path: "x", body: {a: ${nested(2_000)}}}) { status } }`;
    const viaQuery = await fx.rt.request('/api/graphql', { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: literal }) });
    const queryText = await viaQuery.clone().text();
    expect(viaQuery.status, queryText).toBe(400);
    const [error] = (await viaQuery.json()).errors;
    expect(error.message).toContain(`more than ${MAX_JSON_DEPTH} levels`);
    expect(error.extensions).toMatchObject({ code: 'invalid_parameter', param: 'query' });

    const viaGet = await fx.rt.request(`/api/graphql?query=${encodeURIComponent(literal)}`, { key, headers: { accept: 'application/json' } });
    expect(viaGet.status).toBe(400);
    expect((await viaGet.json()).errors[0].extensions.code).toBe('invalid_parameter');
  });

  it('MCP: a deeply nested message is a JSON-RPC parse error naming the limit', async () => {
    const res = await fx.rt.request('/api/mcp', {
      method: 'POST',
      key,
      headers: { host: 'siteline.test', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":${nested(100_000)}}}`,
    });
    expect(res.status).toBe(400);
    const message = await res.json();
    expect(message.error.code).toBe(-32700);
    expect(message.error.message).toContain(`${MAX_JSON_DEPTH} levels`);
  });
});
