// The real clients (official Google libraries, Bing fetch client) against a scripted upstream: auth, retries,
// timeouts, circuit breaker, error mapping, paging, batching and raw pass-through, with call counts.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors/app-error.ts';
import { inProcessEndpoints } from '../../src/providers/endpoints.ts';
import { createProviderClients } from '../../src/providers/provider-clients.ts';
import type { ResilienceOptions } from '../../src/providers/resilience.ts';
import { createStubUpstream, hang, json, jwtClaims, testServiceAccount } from './support/stub-upstream.ts';
import { failure } from '../helpers/failure.ts';

const FAST: Partial<ResilienceOptions> = {
  attemptTimeoutMs: 300,
  deadlineMs: 3000,
  backoffInitialMs: 5,
  backoffMaxMs: 20,
  breakerThreshold: 100,
};
const REFRESH = { client_id: 'cid.apps.googleusercontent.com', client_secret: 'GOCSPX-secret', refresh_token: '1//refresh-secret' };
const report = (sessions: string) => ({
  dimensionHeaders: [{ name: 'country' }],
  metricHeaders: [{ name: 'sessions', type: 'TYPE_INTEGER' }],
  rows: [{ dimensionValues: [{ value: 'Germany' }], metricValues: [{ value: sessions }] }],
  rowCount: 1,
  metadata: { currencyCode: 'EUR', timeZone: 'Europe/Berlin' },
  kind: 'analyticsData#runReport',
});
const REQUEST = { dateRanges: [{ startDate: '7daysAgo', endDate: 'yesterday' }], metrics: [{ name: 'sessions' }] };

function setup(resilience: Partial<ResilienceOptions> = FAST) {
  const stub = createStubUpstream();
  const outcomes: [string, string, string][] = [];
  const clients = createProviderClients({
    endpoints: inProcessEndpoints(stub.handler),
    resilience,
    onOutcome: (source, status, message) => outcomes.push([source, status, message]),
  });
  return { stub, clients, outcomes };
}

describe('Google credentials', () => {
  it('signs a JWT grant for a service account, sends the token, and reuses it across clients', async () => {
    const { stub, clients } = setup();
    stub.on('/v1beta/properties/123:runReport', () => json(report('412')));
    const sa = testServiceAccount();
    const first = await clients.analytics(sa, '123').runReport(REQUEST);
    await clients.analytics(JSON.stringify(sa), 'properties/123').runReport(REQUEST);
    expect(first.rows[0]?.metrics.sessions).toBe(412);
    expect(stub.count('/token')).toBe(1);
    const grant = stub.calls.find((c) => c.path === '/token');
    expect(new URLSearchParams(grant?.body).get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    const claims = jwtClaims(grant?.body ?? '');
    expect(claims.iss).toBe(sa.client_email);
    expect(String(claims.scope).split(' ').sort()).toEqual([
      'https://www.googleapis.com/auth/analytics.readonly',
      'https://www.googleapis.com/auth/webmasters.readonly',
    ]);
    const api = stub.calls.filter((c) => c.path.startsWith('/v1beta'));
    expect(api.map((c) => c.authorization)).toEqual([`Bearer ${stub.issuedTokens[0]}`, `Bearer ${stub.issuedTokens[0]}`]);
  });

  it('uses the refresh-token grant for an OAuth credential', async () => {
    const { stub, clients } = setup();
    stub.on('/webmasters/v3/sites', () => json({ siteEntry: [{ siteUrl: 'sc-domain:example.com', permissionLevel: 'siteOwner' }] }));
    const sites = await clients.engine1(REFRESH, 'sc-domain:example.com').listSites();
    expect(sites).toEqual([{ siteUrl: 'sc-domain:example.com', permissionLevel: 'siteOwner' }]);
    const form = new URLSearchParams(stub.calls.find((c) => c.path === '/token')?.body);
    expect(Object.fromEntries(form)).toMatchObject({ grant_type: 'refresh_token', client_id: REFRESH.client_id, refresh_token: REFRESH.refresh_token });
  });

  it('answers 424 (not 401) for a revoked credential, without retrying, and reports the outcome', async () => {
    const { stub, clients, outcomes } = setup();
    stub.on('/v1beta/properties/123:runReport', () => json(report('1')));
    const error = await failure(clients.analytics({ ...REFRESH, refresh_token: 'revoked' }, '123').runReport(REQUEST));
    expect(error).toMatchObject({ code: 'upstream_credential_invalid', status: 424, provider: 'analytics' });
    expect(error.message).toContain('invalid_grant');
    expect(stub.count('/token')).toBe(1);
    expect(stub.count('/v1beta')).toBe(0);
    expect(outcomes).toEqual([['analytics', 'error', error.message]]);
  });

  it('rejects an unusable stored credential before any call', async () => {
    const { stub, clients } = setup();
    expect(() => clients.analytics('{"nope":1}', '123')).toThrow(AppError);
    expect(() => clients.engine1({ ...testServiceAccount(), private_key: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----' }, 'sc-domain:x')).toThrow(
      /unreadable private key/,
    );
    expect(stub.calls).toHaveLength(0);
  });
});

describe('resilience', () => {
  it('retries one analytics 5xx and succeeds (2 calls)', async () => {
    const { stub, clients, outcomes } = setup();
    const err = () => json({ error: { code: 503, message: 'busy', status: 'UNAVAILABLE' } }, 503);
    stub.on('/v1beta/properties/123:runReport', err, () => json(report('7')));
    const out = await clients.analytics(REFRESH, '123').runReport(REQUEST);
    expect(out.rows[0]?.metrics.sessions).toBe(7);
    expect(stub.count('/v1beta')).toBe(2);
    expect(outcomes.at(-1)?.[1]).toBe('ok');
  });

  it('gives up after 2 attempts on a persistent analytics 5xx with 502 (each one spends GA server-error quota)', async () => {
    const { stub, clients } = setup();
    stub.on('/v1beta/properties/123:runReport', () => json({ error: { code: 500, message: 'boom', status: 'INTERNAL' } }, 500));
    const error = await failure(clients.analytics(REFRESH, '123').runReport(REQUEST));
    expect(error).toMatchObject({ code: 'upstream_error', status: 502 });
    expect(stub.count('/v1beta')).toBe(2);
  });

  it('does not retry an hourly quota 429 and says when the tokens return', async () => {
    const { stub, clients } = setup();
    const limited = () =>
      json({ error: { code: 429, message: 'Exhausted property tokens per hour.', status: 'RESOURCE_EXHAUSTED' } }, 429, { 'retry-after': '1' });
    stub.on('/v1beta/properties/123:runReport', limited, () => json(report('3')));
    const error = await failure(clients.analytics(REFRESH, '123').runReport(REQUEST));
    const toNextHour = Math.ceil((3_600_000 - (Date.now() % 3_600_000)) / 1000);
    expect(error).toMatchObject({ code: 'upstream_quota_exhausted', status: 429 });
    expect(Math.abs(Number(error.headers['Retry-After']) - toNextHour)).toBeLessThanOrEqual(2);
    expect(stub.count('/v1beta')).toBe(1);
  });

  it('does not retry a daily quota exhaustion', async () => {
    const { stub, clients } = setup();
    stub.on('/v1beta/properties/123:runReport', () =>
      json({ error: { code: 429, message: 'Exhausted property tokens per day for a project per property.', status: 'RESOURCE_EXHAUSTED' } }, 429),
    );
    const error = await failure(clients.analytics(REFRESH, '123').runReport(REQUEST));
    expect(error).toMatchObject({ code: 'upstream_quota_exhausted', status: 429, provider: 'analytics' });
    expect(stub.count('/v1beta')).toBe(1);
  });

  it('ends a hanging request with 504 within the deadline', async () => {
    const { stub, clients } = setup({ ...FAST, attemptTimeoutMs: 100, deadlineMs: 250 });
    stub.on('/v1beta/properties/123:runReport', hang);
    // The stub never answers: only the attempt timeout and the deadline can settle this (no wall-clock bound needed).
    const error = await failure(clients.analytics(REFRESH, '123').runReport(REQUEST));
    expect(error).toMatchObject({ code: 'upstream_timeout', status: 504 });
    expect(stub.count('/v1beta')).toBeGreaterThanOrEqual(2);
  });

  it('answers 502 for a malformed body without retrying', async () => {
    const { stub, clients } = setup();
    stub.on('/v1beta/properties/123:runReport', () => new Response('<html>oops</html>', { headers: { 'content-type': 'text/html' } }));
    const error = await failure(clients.analytics(REFRESH, '123').runReport(REQUEST));
    expect(error).toMatchObject({ code: 'upstream_error', status: 502 });
    expect(error.message).toContain('malformed');
    expect(stub.count('/v1beta')).toBe(1);
    stub.on('/v1beta/properties/123:runReport', () => json({ rows: 'nope' }));
    expect((await failure(clients.analytics(REFRESH, '123').runReport(REQUEST))).code).toBe('upstream_error');
  });

  it('opens the circuit after repeated failures: 503 with Retry-After and no upstream call', async () => {
    const { stub, clients } = setup({ ...FAST, maxAttempts: 1, breakerThreshold: 2, breakerHalfOpenAfterMs: 60_000 });
    stub.on('/v1beta/properties/123:runReport', () => json({ error: { code: 500, message: 'x', status: 'INTERNAL' } }, 500));
    const client = clients.analytics(REFRESH, '123');
    await failure(client.runReport(REQUEST));
    await failure(client.runReport(REQUEST));
    const before = stub.count('/v1beta');
    const error = await failure(client.runReport(REQUEST));
    expect(error).toMatchObject({ code: 'upstream_unavailable', status: 503 });
    expect(Number(error.headers['Retry-After'])).toBeGreaterThan(50);
    expect(stub.count('/v1beta')).toBe(before);
    // Another credential has its own breaker.
    stub.on('/v1beta/properties/123:runReport', () => json(report('1')));
    await expect(clients.analytics({ ...REFRESH, refresh_token: 'other' }, '123').runReport(REQUEST)).resolves.toBeDefined();
  });
});

describe('analytics specifics', () => {
  it('splits a batch of 12 into calls of 5, 5 and 2 and keeps the order', async () => {
    const { stub, clients } = setup();
    stub.on('/v1beta/properties/123:batchRunReports', (call) => {
      const { requests } = JSON.parse(call.body) as { requests: { limit: string }[] };
      return json({ reports: requests.map((r) => report(r.limit)), kind: 'analyticsData#batchRunReports' });
    });
    const requests = Array.from({ length: 12 }, (_, i) => ({ ...REQUEST, limit: String(i + 1) }));
    const reports = await clients.analytics(REFRESH, '123').batchRunReports(requests);
    expect(reports.map((r) => r.rows[0]?.metrics.sessions)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    const sizes = stub.calls
      .filter((c) => c.path.endsWith(':batchRunReports'))
      .map((c) => (JSON.parse(c.body) as { requests: unknown[] }).requests.length)
      .sort();
    expect(sizes).toEqual([2, 5, 5]);
  });

  it('maps 400 INVALID_ARGUMENT to invalid_parameter with the provider message and 403 to 424', async () => {
    const { stub, clients, outcomes } = setup();
    stub.on('/v1beta/properties/123:runReport', () =>
      json({ error: { code: 400, message: 'Field pageViews is not a valid metric. For a list of valid dimensions and metrics, see https://developers.google.com/analytics/x', status: 'INVALID_ARGUMENT' } }, 400),
    );
    const bad = await failure(clients.analytics(REFRESH, '123').runReport(REQUEST));
    expect(bad).toMatchObject({ code: 'invalid_parameter', status: 400, message: 'Field pageViews is not a valid metric.' });
    expect(outcomes).toEqual([]); // a caller mistake says nothing about the data source
    stub.on('/v1beta/properties/123:runReport', () =>
      json({ error: { code: 403, message: 'User does not have sufficient permissions for this property.', status: 'PERMISSION_DENIED' } }, 403),
    );
    expect(await failure(clients.analytics(REFRESH, '123').runReport(REQUEST))).toMatchObject({ code: 'upstream_permission_denied', status: 424 });
  });

  it('raw: returns the body byte for byte, passes a 4xx through, never follows redirects', async () => {
    const { stub, clients } = setup();
    const body = '{ "rows" : [ ], "kind":"analyticsData#runReport" }';
    stub.on('/v1beta/properties/123:runReport', () => new Response(body, { headers: { 'content-type': 'application/json' } }));
    const client = clients.analytics(REFRESH, '123');
    const ok = await client.rawRequest('POST', 'properties/123:runReport', { metrics: [{ name: 'sessions' }] });
    expect(ok).toMatchObject({ status: 200, body });
    expect(JSON.parse(stub.calls.at(-1)?.body ?? '')).toEqual({ metrics: [{ name: 'sessions' }] });
    const upstream = { error: { code: 400, message: 'Field x is not a valid metric.', status: 'INVALID_ARGUMENT' } };
    stub.on('/v1beta/properties/123:runReport', () => json(upstream, 400));
    const rejected = await failure(client.rawRequest('POST', 'properties/123:runReport', {}));
    expect(rejected).toMatchObject({ code: 'upstream_rejected', status: 400, upstream });
    stub.on('/v1beta/properties/123/metadata', () => new Response(null, { status: 302, headers: { location: 'http://sandbox.invalid/evil' } }));
    stub.on('/evil', () => json({}));
    expect((await failure(client.rawRequest('GET', 'properties/123/metadata'))).code).toBe('upstream_error');
    expect(stub.count('/evil')).toBe(0);
    const before = stub.calls.length;
    expect((await failure(client.rawRequest('POST', 'properties/456:runReport', {}))).code).toBe('not_found');
    expect(stub.calls.length).toBe(before);
  });
});

describe('engine1 paging', () => {
  it('pages with rowLimit 25000 and startRow until a short page', async () => {
    const { stub, clients } = setup();
    const sizes = [25_000, 25_000, 7_000];
    stub.on('/webmasters/v3/sites/sc-domain%3Aexample.com/searchAnalytics/query', (call) => {
      const { startRow, rowLimit } = JSON.parse(call.body) as { startRow: number; rowLimit: number };
      const size = Math.min(rowLimit, sizes[startRow / 25_000] ?? 0);
      const rows = Array.from({ length: size }, (_, i) => ({ keys: [`q${startRow + i}`], clicks: 1, impressions: 2, ctr: 0.5, position: 3 }));
      return json({ rows, responseAggregationType: 'byProperty', metadata: { firstIncompleteDate: '2025-03-06' } });
    });
    const result = await clients.engine1(REFRESH, 'sc-domain:example.com').querySearchAnalytics({
      startDate: '2025-01-01',
      endDate: '2025-03-07',
      dimensions: ['query'],
      rowLimit: 100_000,
      dataState: 'all',
    });
    const pages = stub.calls.filter((c) => c.path.endsWith('/searchAnalytics/query')).map((c) => JSON.parse(c.body) as { startRow: number; rowLimit: number });
    expect(pages.map((p) => [p.startRow, p.rowLimit])).toEqual([[0, 25_000], [25_000, 25_000], [50_000, 25_000]]);
    expect(result).toMatchObject({ pages: 3, truncated: false, dataThrough: '2025-03-05', firstIncompleteDate: '2025-03-06' });
    expect(result.rows).toHaveLength(57_000);
    expect(result.rows[56_999]?.keys).toEqual({ query: 'q56999' });
  });

  it('names the site when the credential lacks permission', async () => {
    const { stub, clients } = setup();
    stub.on('/webmasters/v3/sites/https%3A%2F%2Fwww.example.com%2F/sitemaps', () =>
      json({ error: { code: 403, message: "User does not have sufficient permission for site 'https://www.example.com/'.", errors: [{ domain: 'global', reason: 'forbidden' }] } }, 403),
    );
    const error = await failure(clients.engine1(REFRESH, 'https://www.example.com/').listSitemaps());
    expect(error).toMatchObject({ code: 'upstream_permission_denied', status: 424, provider: 'engine1' });
    expect(error.message).toContain("'https://www.example.com/'");
  });
});

describe('engine2', () => {
  const KEY = 'bing-key-0123456789-secret';
  const SITE = 'https://www.example.com/';

  it('sends siteUrl and the key as query parameters and parses the d wrapper', async () => {
    const { stub, clients } = setup();
    stub.on('/webmaster/api.svc/json/GetPageStats', () =>
      json({ d: [{ __type: 'QueryStats:#Microsoft.Bing.Webmaster.Api', AvgClickPosition: -1, AvgImpressionPosition: 4, Clicks: 0, Date: '/Date(1741334400000-0800)/', Impressions: 130, Query: 'https://www.example.com/shoes/' }] }),
    );
    stub.on('/webmaster/api.svc/json/GetQueryStats', () => json({ d: null }));
    const client = clients.engine2(KEY, SITE);
    expect(await client.getPageStats()).toEqual([
      { date: '2025-03-07', page: 'https://www.example.com/shoes/', clicks: 0, impressions: 130, position: 4, clickPosition: null },
    ]);
    expect(await client.getQueryStats()).toEqual([]);
    expect(stub.calls[0]?.search.get('siteUrl')).toBe(SITE);
    expect(stub.calls[0]?.search.get('apikey')).toBe(KEY);
  });

  it('maps ErrorCode 3 to 424 and retries a throttle (ErrorCode 4) before succeeding', async () => {
    const { stub, clients } = setup();
    stub.on('/webmaster/api.svc/json/GetRankAndTrafficStats', () => json({ ErrorCode: 3, Message: 'ERROR!!! InvalidApiKey' }, 400));
    expect(await failure(clients.engine2(KEY, SITE).getRankAndTrafficStats())).toMatchObject({ code: 'upstream_credential_invalid', status: 424 });
    expect(stub.count('/webmaster')).toBe(1);
    stub.on('/webmaster/api.svc/json/GetRankAndTrafficStats', () => json({ ErrorCode: 4, Message: 'ThrottleUser' }, 400), () =>
      json({ d: [{ Date: '/Date(1741849200000-0700)/', Clicks: 40, Impressions: 1210 }] }),
    );
    expect(await clients.engine2(KEY, SITE).getRankAndTrafficStats()).toEqual([{ date: '2025-03-13', clicks: 40, impressions: 1210 }]);
    stub.on('/webmaster/api.svc/json/GetRankAndTrafficStats', () => json({ ErrorCode: 5, Message: 'ThrottleHost' }, 400));
    expect(await failure(clients.engine2(KEY, SITE).getRankAndTrafficStats())).toMatchObject({ code: 'upstream_quota_exhausted', status: 429 });
  });

  it('passes a Bing error body through on raw requests and returns success bodies unchanged', async () => {
    const { stub, clients } = setup();
    const text = '{"d":[{"__type":"RankAndTrafficStats:#Microsoft.Bing.Webmaster.Api","Clicks":40,"Date":"\\/Date(1741849200000-0700)\\/","Impressions":1210}]}';
    stub.on('/webmaster/api.svc/json/GetRankAndTrafficStats', () => new Response(text, { headers: { 'content-type': 'application/json' } }));
    expect((await clients.engine2(KEY, SITE).rawRequest('GET', 'GetRankAndTrafficStats')).body).toBe(text);
    // The user's whole site list (other projects' sites, verification codes) is not this project's data.
    expect(await failure(clients.engine2(KEY, SITE).rawRequest('GET', 'GetUserSites'))).toMatchObject({ code: 'invalid_parameter', param: 'path' });
    stub.on('/webmaster/api.svc/json/GetQueryPageStats', () => json({ ErrorCode: 8, Message: 'InvalidParameter' }, 400));
    const error = await failure(clients.engine2(KEY, SITE).rawRequest('GET', 'GetQueryPageStats?query=x'));
    expect(error).toMatchObject({ code: 'upstream_rejected', status: 400, upstream: { ErrorCode: 8, Message: 'InvalidParameter' } });
  });
});
