// POST /raw/{analytics,engine1,engine2}/proxy: native JSON passed through byte for byte, everything not allowed
// refused before any upstream call (proved by the sandbox's call counter), provider 4xx passed through, caching.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAccountWithKey } from '../helpers/test-runtime.ts';
import { sandboxDirect, type SandboxDirect } from '../helpers/sandbox-direct.ts';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';

let rt: SandboxRuntime;
let direct: SandboxDirect;
const PROPERTY = '314159265';
const SITE = 'https://www.acme-shop.example/';
const REPORT = { dateRanges: [{ startDate: '2026-01-01', endDate: '2026-01-31' }], dimensions: [{ name: 'country' }], metrics: [{ name: 'sessions' }], limit: 5 };

beforeAll(async () => {
  rt = await createSandboxRuntime();
  direct = sandboxDirect(rt.sandbox);
});
afterAll(() => rt.dispose());
beforeEach(() => rt.sandbox.resetStats());

async function proxy(provider: string, payload: unknown, init: { query?: string; key?: string; contentType?: string; raw?: string } = {}) {
  const res = await rt.request(`/api/v1/raw/${provider}/proxy${init.query ?? ''}`, {
    method: 'POST',
    key: init.key ?? rt.demo.apiKey,
    headers: { 'content-type': init.contentType ?? 'application/json' },
    body: init.raw ?? JSON.stringify(payload),
  });
  const text = await res.text();
  return { status: res.status, text, headers: res.headers, json: () => JSON.parse(text) as Record<string, any> };
}
const calls = () => rt.sandbox.stats().total;

describe('raw analytics proxy', () => {
  it('returns the provider JSON byte for byte', async () => {
    const res = await proxy('analytics', { project_key: 'acme-shop', path: `properties/${PROPERTY}:runReport`, body: REPORT });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const native = await direct.google('POST', `/v1beta/properties/${PROPERTY}:runReport`, REPORT);
    expect(res.text).toBe(native.text);
  });

  it('serves metadata (GET upstream) unchanged', async () => {
    const res = await proxy('analytics', { project_key: 'acme-shop', path: `properties/${PROPERTY}/metadata` });
    expect(res.status).toBe(200);
    expect(res.text).toBe((await direct.google('GET', `/v1beta/properties/${PROPERTY}/metadata`)).text);
  });

  it('caches on the exact body; force=1 goes upstream again', async () => {
    const payload = { project_key: 'acme-shop', path: `properties/${PROPERTY}:runReport`, body: { ...REPORT, limit: 3 } };
    const first = await proxy('analytics', payload);
    expect(first.headers.get('cache-status')).toContain('fwd=miss');
    rt.sandbox.resetStats();
    const second = await proxy('analytics', payload);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('cache-status')).toBe('siteline; hit');
    expect(calls()).toBe(0);
    const other = await proxy('analytics', { ...payload, body: { ...REPORT, limit: 4 } });
    expect(other.status).toBe(200);
    expect(rt.sandbox.stats().analytics).toEqual({ runReport: 1 });
    rt.sandbox.resetStats();
    const forced = await proxy('analytics', payload, { query: '?force=1' });
    expect(forced.headers.get('cache-status')).toContain('fwd=request');
    expect(rt.sandbox.stats().analytics).toEqual({ runReport: 1 });
  });

  it('a provider 4xx comes back with its status and body as upstream_rejected, and is not cached', async () => {
    const payload = { project_key: 'acme-shop', path: `properties/${PROPERTY}:runReport`, body: { ...REPORT, metrics: [{ name: 'nope' }] } };
    const res = await proxy('analytics', payload);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.json()).toMatchObject({ code: 'upstream_rejected', provider: 'analytics', upstream: { error: { code: 400, status: 'INVALID_ARGUMENT' } } });
    rt.sandbox.resetStats();
    expect((await proxy('analytics', payload)).status).toBe(400);
    expect(rt.sandbox.stats().analytics).toEqual({ runReport: 1 });
  });

  it.each([
    ['a foreign property id', 'properties/271828182:runReport', 404],
    ['traversal with ..', `properties/${PROPERTY}/../271828182:runReport`, 400],
    ['encoded traversal', `properties/%2e%2e/${PROPERTY}:runReport`, 400],
    ['a leading ..', `../v1beta/properties/${PROPERTY}:runReport`, 400],
    ['another host', `//evil.example/properties/${PROPERTY}:runReport`, 400],
    ['a full URL', `https://evil.example/v1beta/properties/${PROPERTY}:runReport`, 400],
    ['backslashes', `properties\\${PROPERTY}:runReport`, 400],
    ['a query string', `properties/${PROPERTY}:runReport?alt=media`, 400],
    ['an unknown method', `properties/${PROPERTY}:deleteProperty`, 400],
    ['the v1alpha funnel method', `properties/${PROPERTY}:runFunnelReport`, 400],
  ])('refuses %s without any upstream call', async (_what, path, status) => {
    const res = await proxy('analytics', { project_key: 'acme-shop', path, body: REPORT });
    expect(res.status).toBe(status);
    expect(res.json().param ?? 'path').toBe('path');
    expect(calls()).toBe(0);
  });

  it('refuses an oversize body (413), another media type (415) and broken JSON (400) without any upstream call', async () => {
    const big = await proxy('analytics', { project_key: 'acme-shop', path: `properties/${PROPERTY}:runReport`, body: { ...REPORT, pad: 'x'.repeat(70 * 1024) } });
    expect(big.status).toBe(413);
    expect(big.json().code).toBe('payload_too_large');
    const form = await proxy('analytics', null, { contentType: 'text/plain', raw: 'project_key=acme-shop' });
    expect(form.status).toBe(415);
    const broken = await proxy('analytics', null, { raw: '{"project_key": ' });
    expect(broken.json()).toMatchObject({ status: 400, code: 'invalid_json' });
    expect(calls()).toBe(0);
  });

  it.each([
    ['no project_key', { path: `properties/${PROPERTY}:runReport` }, 400, 'project_key'],
    ['no path', { project_key: 'acme-shop' }, 400, 'path'],
    ['a body that is not an object', { project_key: 'acme-shop', path: `properties/${PROPERTY}:runReport`, body: [1] }, 400, 'body'],
    ['an unknown field', { project_key: 'acme-shop', path: `properties/${PROPERTY}:runReport`, headers: { host: 'x' } }, 400, 'headers'],
    ['a payload that is not an object', ['acme-shop'], 400, 'body'],
    ['an invisible project', { project_key: 'nope', path: `properties/${PROPERTY}:runReport` }, 404, undefined],
  ])('refuses %s', async (_what, payload, status, param) => {
    const res = await proxy('analytics', payload);
    expect(res.status).toBe(status);
    expect(res.json().param).toBe(param);
    expect(calls()).toBe(0);
  });

  it('needs the raw scope (403) and is POST only (405)', async () => {
    const { key } = await createAccountWithKey({ ...rt, demo: undefined }, { email: 'reader@example.com', projects: ['acme-shop'], scopes: ['read'] });
    const res = await proxy('analytics', { project_key: 'acme-shop', path: `properties/${PROPERTY}:runReport` }, { key });
    expect(res.status).toBe(403);
    expect(res.json().code).toBe('insufficient_scope');
    const get = await rt.request('/api/v1/raw/analytics/proxy', { key: rt.demo.apiKey });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(calls()).toBe(0);
  });
});

describe('every raw proxy', () => {
  it.each(['analytics', 'engine1', 'engine2'])('%s answers a JSON null (or a bare string) as 400 naming the body, never 500', async (provider) => {
    for (const raw of ['null', '"text"', '42']) {
      const res = await proxy(provider, null, { raw });
      expect(res.status, raw).toBe(400);
      expect(res.json(), raw).toMatchObject({ code: 'invalid_parameter', param: 'body' });
    }
    expect(calls()).toBe(0);
  });
});

describe('GraphQL rawProxy', () => {
  const query = 'query($request: JSON!) { rawProxy(provider: analytics, request: $request) { status body } }';
  const request = { project_key: 'acme-shop', path: `properties/${PROPERTY}:runReport`, body: REPORT };
  async function graphql(key: string) {
    const res = await rt.request('/api/graphql', { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables: { request } }) });
    return { status: res.status, json: (await res.json()) as { data?: { rawProxy: { status: number; body: string } | null } | null; errors?: { extensions: Record<string, unknown> }[] } };
  }

  it('answers with the provider JSON for a key with the raw scope', async () => {
    const { status, json } = await graphql(rt.demo.apiKey);
    expect(status).toBe(200);
    expect(json.errors).toBeUndefined();
    expect(json.data?.rawProxy?.status).toBe(200);
    expect(JSON.parse(json.data!.rawProxy!.body)).toHaveProperty('rows');
  });

  it('refuses a read-only key with insufficient_scope before any upstream call', async () => {
    const { key } = await createAccountWithKey({ ...rt, demo: undefined }, { email: 'gql-reader@example.com', projects: ['acme-shop'], scopes: ['read'] });
    const { status, json } = await graphql(key);
    expect(status).toBe(200);
    expect(json.data?.rawProxy ?? null).toBeNull();
    expect(json.errors).toHaveLength(1);
    expect(json.errors![0]!.extensions).toMatchObject({ code: 'insufficient_scope', status: 403 });
    expect(calls()).toBe(0);
  });
});

describe('raw proxy through GraphQL', () => {
  const gql = (request: unknown) =>
    rt.request('/api/graphql', {
      method: 'POST',
      key: rt.demo.apiKey,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'query($r: JSON!) { rawProxy(provider: analytics, request: $r) { status } }', variables: { r: request } }),
    });

  it('refuses a request over 64 KiB with the same 413 REST gives, before any upstream call', async () => {
    // Over the proxy's 64 KiB, within the GraphQL body cap (a larger GraphQL body is refused before it is parsed).
    const res = await gql({ project_key: 'acme-shop', path: `properties/${PROPERTY}:runReport`, body: { ...REPORT, pad: 'x'.repeat(100 * 1024) } });
    const body = (await res.json()) as { data: unknown; errors: { extensions: Record<string, unknown> }[] };
    expect(body.errors[0]?.extensions).toMatchObject({ code: 'payload_too_large', status: 413 });
    expect(calls()).toBe(0);
    const small = (await (await gql({ project_key: 'acme-shop', path: `properties/${PROPERTY}:runReport`, body: REPORT })).json()) as { data: { rawProxy: { status: number } } };
    expect(small.data.rawProxy.status).toBe(200);
  });
});

describe('raw engine1 proxy', () => {
  const encoded = encodeURIComponent(SITE);
  const QUERY = { startDate: '2026-01-01', endDate: '2026-01-07', dimensions: ['date'] };

  it('passes searchAnalytics/query and sitemaps through unchanged', async () => {
    const res = await proxy('engine1', { project_key: 'acme-shop', path: `sites/${encoded}/searchAnalytics/query`, body: QUERY });
    expect(res.status).toBe(200);
    expect(res.text).toBe((await direct.google('POST', `/webmasters/v3/sites/${encoded}/searchAnalytics/query`, QUERY)).text);
    const maps = await proxy('engine1', { project_key: 'acme-shop', path: `sites/${SITE}/sitemaps` });
    expect(maps.status).toBe(200);
    expect(maps.text).toBe((await direct.google('GET', `/webmasters/v3/sites/${encoded}/sitemaps`)).text);
  });

  it.each([
    ["another project's site", `sites/${encodeURIComponent('sc-domain:northwind-journal.example')}/searchAnalytics/query`, 404],
    ['encoded traversal in the site', `sites/..%2F..%2Fsites/searchAnalytics/query`, 404],
    ['traversal after the method', `sites/${encoded}/sitemaps/../../sites`, 400],
    ['an unknown resource', `sites/${encoded}/urlCrawlErrorsCounts/query`, 400],
    ['another host', `//evil.example/sites/${encoded}/sitemaps`, 400],
  ])('refuses %s without any upstream call', async (_what, path, status) => {
    const res = await proxy('engine1', { project_key: 'acme-shop', path, body: QUERY });
    expect(res.status).toBe(status);
    expect(calls()).toBe(0);
  });

  it('URL inspection only for the project site', async () => {
    const res = await proxy('engine1', { project_key: 'acme-shop', path: 'urlInspection/index:inspect', body: { inspectionUrl: 'https://northwind-journal.example/', siteUrl: 'sc-domain:northwind-journal.example' } });
    expect(res.status).toBe(404);
    const foreignPage = await proxy('engine1', { project_key: 'acme-shop', path: 'urlInspection/index:inspect', body: { inspectionUrl: 'https://northwind-journal.example/', siteUrl: SITE } });
    expect(foreignPage.status).toBe(400);
    expect(foreignPage.json()).toMatchObject({ code: 'invalid_parameter', param: 'inspectionUrl' });
    expect(calls()).toBe(0);
  });
});

describe('raw engine2 proxy', () => {
  it('passes Get* read methods through unchanged, the key added by Siteline', async () => {
    const res = await proxy('engine2', { project_key: 'northwind-journal', path: 'GetQueryStats' });
    expect(res.status).toBe(200);
    expect(res.text).toBe((await direct.bing('GetQueryStats', { siteUrl: 'https://northwind-journal.example/' })).text);
    expect(res.text).not.toContain(rt.sandbox.credentials.bingApiKey);
  });

  it.each([
    ['a write method', 'SubmitUrl', 400],
    ['traversal', '../GetQueryStats', 400],
    ["another project's site", `GetQueryStats?siteUrl=${encodeURIComponent('https://northwind-journal.example/')}`, 404],
    ['a smuggled key', 'GetQueryStats?apikey=stolen', 400],
  ])('refuses %s without any upstream call', async (_what, path, status) => {
    const res = await proxy('engine2', { project_key: 'acme-shop', path });
    expect(res.status).toBe(status);
    expect(calls()).toBe(0);
  });

  it('409 when engine2 is not connected to the project', async () => {
    const res = await proxy('engine2', { project_key: 'tiny-saas', path: 'GetQueryStats' });
    expect(res.status).toBe(409);
    expect(res.json()).toMatchObject({ code: 'source_not_connected', provider: 'engine2' });
    expect(calls()).toBe(0);
  });
});

describe('provider 4xx over a real connection (as in the demo)', () => {
  let http: SandboxRuntime;
  beforeAll(async () => {
    http = await createSandboxRuntime({ overHttp: true });
  });
  afterAll(() => http.dispose());

  it.each([
    ['analytics', { project_key: 'acme-shop', path: `properties/${PROPERTY}:runReport`, body: { ...REPORT, metrics: [{ name: 'nope' }] } }],
    ['engine1', { project_key: 'acme-shop', path: `sites/${encodeURIComponent(SITE)}/searchAnalytics/query`, body: { startDate: '2026-01-01' } }],
    ['engine2', { project_key: 'acme-shop', path: 'GetQueryPageStats?query=' }],
  ])('%s passes the provider error body in upstream', async (provider, payload) => {
    const res = await http.request(`/api/v1/raw/${provider}/proxy`, { method: 'POST', key: http.demo.apiKey, headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
    const body = (await res.json()) as Record<string, any>;
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(body).toMatchObject({ code: 'upstream_rejected', provider });
    expect(body.upstream).toBeTypeOf('object');
    expect(body.upstream).not.toBeNull();
  });
});
