// CORS_ORIGINS on every API surface (/api/v1, /api/graphql, /api/mcp), the same way: a preflight from a listed
// origin is answered with the methods and headers a browser needs (Authorization among them), an actual answer
// carries the origin and exposes the request id, rate-limit and cache fields; any other origin gets no allow-fields;
// a request without Origin gets no CORS fields at all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithKey, createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';

const ALLOWED = 'https://app.example.com';
const REFUSED = 'https://evil.example';

let rt: TestRuntime;
let key: string;
beforeAll(async () => {
  rt = await createTestRuntime({ env: { CORS_ORIGINS: `${ALLOWED}, https://other.example.com` } });
  ({ key } = await createAccountWithKey(rt, { email: 'cors@example.com', projects: ['shop'] }));
});
afterAll(() => rt.dispose());

/** One actual request per surface, as a browser page would send it. */
const SURFACES = {
  rest: { path: '/api/v1/projects/list', method: 'GET', headers: {} as Record<string, string>, body: undefined as string | undefined },
  graphql: { path: '/api/graphql', method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ projects { totalCount } }' }) },
  mcp: {
    path: '/api/mcp',
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', host: 'siteline.test' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  },
};

function preflight(path: string, origin: string) {
  return rt.request(path, {
    method: 'OPTIONS',
    headers: { origin, host: 'siteline.test', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
  });
}

function actual(surface: keyof typeof SURFACES, origin?: string) {
  const { path, method, headers, body } = SURFACES[surface];
  return rt.request(path, { method, key, body, headers: { ...headers, ...(origin ? { origin } : {}) } });
}

describe.each(Object.keys(SURFACES) as (keyof typeof SURFACES)[])('CORS on %s', (surface) => {
  const { path } = SURFACES[surface];

  it('answers a preflight from a listed origin: methods, Authorization, a max age', async () => {
    const res = await preflight(path, ALLOWED);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(res.headers.get('access-control-allow-methods')).toMatch(/POST/);
    expect(res.headers.get('access-control-allow-methods')).toMatch(/GET/);
    const allowHeaders = res.headers.get('access-control-allow-headers')!.toLowerCase();
    for (const name of ['authorization', 'content-type']) expect(allowHeaders).toContain(name);
    expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('vary')).toMatch(/origin/i);
  });

  it('gives a preflight from another origin no allow-fields, so the browser stops there', async () => {
    const res = await preflight(path, REFUSED);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-headers')).toBeNull();
  });

  it('lets a listed origin read the answer and its request id, rate-limit and cache fields', async () => {
    const res = await actual(surface, ALLOWED);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(res.headers.get('vary')).toMatch(/origin/i);
    const exposed = res.headers.get('access-control-expose-headers')!.toLowerCase();
    for (const name of ['x-request-id', 'ratelimit', 'ratelimit-policy', 'retry-after', 'cache-status']) expect(exposed).toContain(name);
  });

  it('a refused answer (no credential) carries the CORS fields too, so the page can read the problem', async () => {
    const { path: target, method, headers, body } = SURFACES[surface];
    const res = await rt.request(target, { method, body, headers: { ...headers, origin: ALLOWED } });
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });

  it('another origin gets no allow-origin on the answer', async () => {
    const res = await actual(surface, surface === 'mcp' ? 'https://other.example.com:8443' : REFUSED);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('a request without Origin gets no CORS fields', async () => {
    const res = await actual(surface);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-expose-headers')).toBeNull();
    expect(res.headers.get('vary')).toBeNull();
  });
});

describe('CORS_ORIGINS empty (the default)', () => {
  it('no origin is allowed on any surface', async () => {
    const plain = await createTestRuntime();
    try {
      for (const path of ['/api/v1/projects/list', '/api/graphql', '/api/mcp']) {
        const res = await plain.request(path, { method: 'OPTIONS', headers: { origin: ALLOWED, host: 'siteline.test', 'access-control-request-method': 'POST' } });
        expect(res.headers.get('access-control-allow-origin'), path).toBeNull();
      }
    } finally {
      await plain.dispose();
    }
  });
});
