// The official Google clients, pointed at the sandbox by fetch implementation or base URL only, exercise
// every method; tokens come through both grants of the sandbox's token endpoint.
import { analyticsdata } from '@googleapis/analyticsdata';
import { searchconsole } from '@googleapis/searchconsole';
import { JWT, UserRefreshClient } from 'google-auth-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, sandboxFetch, type Sandbox } from '../../src/sandbox/sandbox.ts';
import { CREDENTIALS_DIR, JOURNAL_SITE, LARGE, SHOP_SITE, SMALL } from './helpers.ts';
import { rejectionOf } from '../domain/expect-app-error.ts';

const SCOPES = ['https://www.googleapis.com/auth/analytics.readonly', 'https://www.googleapis.com/auth/webmasters.readonly'];

describe('official clients in-process (fetchImplementation)', () => {
  let sandbox: Sandbox;
  let jwt: JWT;
  let refresh: UserRefreshClient;

  beforeAll(async () => {
    // The JWT grant signs with the real clock, so these tests keep the default clock.
    sandbox = await createSandbox({ credentialsDir: CREDENTIALS_DIR, env: {} });
    ({ jwt, refresh } = authClients());
  });

  /** Fresh clients (no token cached yet), so a test's token count does not depend on the tests before it. */
  function authClients(): { jwt: JWT; refresh: UserRefreshClient } {
    const fetchImplementation = sandboxFetch(sandbox);
    const c = sandbox.credentials.oauthClient;
    return {
      jwt: new JWT({ email: sandbox.credentials.serviceAccount.client_email, key: sandbox.credentials.serviceAccount.private_key, scopes: SCOPES, transporterOptions: { fetchImplementation } }),
      refresh: new UserRefreshClient({ clientId: c.client_id, clientSecret: c.client_secret, refreshToken: c.refresh_token, transporterOptions: { fetchImplementation } }),
    };
  }

  it('obtains tokens through the JWT-bearer and refresh_token grants', async () => {
    const fresh = authClients();
    const before = sandbox.stats().token.token ?? 0;
    const a = await fresh.jwt.getAccessToken();
    const b = await fresh.refresh.getAccessToken();
    expect(a.token).toMatch(/^ya29\.sbx\./);
    expect(b.token).toMatch(/^ya29\.sbx\./);
    expect(sandbox.stats().token.token).toBe(before + 2);
  });

  it('rejects a JWT signed by another key with invalid_grant', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    const forged = new JWT({ email: sandbox.credentials.serviceAccount.client_email, key: privateKey, scopes: SCOPES, transporterOptions: { fetchImplementation: sandboxFetch(sandbox) } });
    const error = await rejectionOf(forged.getAccessToken());
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('invalid_grant: Invalid JWT Signature.');
  });

  it('serves every v1beta method', async () => {
    const ga = analyticsdata({ version: 'v1beta', auth: jwt, fetchImplementation: sandboxFetch(sandbox) });
    const property = `properties/${LARGE}`;
    const body = { dateRanges: [{ startDate: '28daysAgo', endDate: 'yesterday' }], dimensions: [{ name: 'country' }], metrics: [{ name: 'sessions' }], limit: '5' };
    const run = await ga.properties.runReport({ property, requestBody: body });
    expect(run.data.kind).toBe('analyticsData#runReport');
    expect(run.data.rows).toHaveLength(5);
    expect(run.data.rowCount).toBeGreaterThan(5);
    expect(run.data.metadata).toEqual({ currencyCode: 'EUR', timeZone: 'Europe/Berlin' });

    const batch = await ga.properties.batchRunReports({ property, requestBody: { requests: [body, { ...body, dimensions: [{ name: 'deviceCategory' }] }] } });
    expect(batch.data.kind).toBe('analyticsData#batchRunReports');
    expect(batch.data.reports?.map((r) => r.dimensionHeaders?.[0]?.name)).toEqual(['country', 'deviceCategory']);

    const pivotBody = {
      dateRanges: body.dateRanges, dimensions: [{ name: 'country' }, { name: 'deviceCategory' }], metrics: [{ name: 'sessions' }],
      pivots: [{ fieldNames: ['country'], limit: '2', orderBys: [{ metric: { metricName: 'sessions' }, desc: true }] }, { fieldNames: ['deviceCategory'], limit: '3', metricAggregations: ['TOTAL'] }],
    };
    const pivot = await ga.properties.runPivotReport({ property, requestBody: pivotBody });
    expect(pivot.data.kind).toBe('analyticsData#runPivotReport');
    expect(pivot.data.pivotHeaders?.[0]?.pivotDimensionHeaders).toHaveLength(2);
    expect(pivot.data.rows).toHaveLength(6);
    const batchPivot = await ga.properties.batchRunPivotReports({ property, requestBody: { requests: [pivotBody] } });
    expect(batchPivot.data.kind).toBe('analyticsData#batchRunPivotReports');
    expect(batchPivot.data.pivotReports).toHaveLength(1);

    const realtime = await ga.properties.runRealtimeReport({ property, requestBody: { dimensions: [{ name: 'minutesAgo' }], metrics: [{ name: 'activeUsers' }] } });
    expect(realtime.data.kind).toBe('analyticsData#runRealtimeReport');
    expect(realtime.data.rows?.length).toBeGreaterThan(20);
    expect(realtime.data).not.toHaveProperty('metadata');

    const compat = await ga.properties.checkCompatibility({ property, requestBody: { dimensions: [{ name: 'pagePath' }], metrics: [{ name: 'sessions' }], compatibilityFilter: 'INCOMPATIBLE' } });
    expect(compat.data.dimensionCompatibilities?.map((d) => d.dimensionMetadata?.apiName)).toContain('itemName');

    const meta = await ga.properties.getMetadata({ name: `${property}/metadata` });
    expect(meta.data.name).toBe(`${property}/metadata`);
    expect(meta.data.dimensions?.find((d) => d.apiName === 'customEvent:plan_tier')?.customDefinition).toBe(true);
    expect(meta.data.metrics?.find((m) => m.apiName === 'customEvent:credits_used')?.category).toBe('Custom');
    const wildcard = await ga.properties.getMetadata({ name: 'properties/0/metadata' });
    expect(wildcard.data.dimensions?.some((d) => d.customDefinition)).toBe(false);
  });

  it('serves v1alpha runFunnelReport through the auth client (the generated v1alpha client has no such method)', async () => {
    const res = await refresh.request<Record<string, any>>({
      url: `https://analyticsdata.googleapis.com/v1alpha/properties/${SMALL}:runFunnelReport`, method: 'POST',
      data: {
        dateRanges: [{ startDate: '30daysAgo', endDate: 'yesterday' }],
        funnel: { steps: [
          { name: 'Visit', filterExpression: { funnelEventFilter: { eventName: 'page_view' } } },
          { name: 'Pricing', filterExpression: { funnelFieldFilter: { fieldName: 'pagePath', stringFilter: { matchType: 'BEGINS_WITH', value: '/pricing' } } } },
          { name: 'Sign up', filterExpression: { funnelEventFilter: { eventName: 'sign_up' } } },
        ] },
        funnelBreakdown: { breakdownDimension: { name: 'deviceCategory' } },
      },
    });
    expect(res.data.kind).toBe('analyticsData#runFunnelReport');
    const totals = res.data.funnelTable.rows.filter((r: any) => r.dimensionValues[1].value === 'RESERVED_TOTAL').map((r: any) => Number(r.metricValues[0].value));
    expect(totals).toHaveLength(3);
    expect(totals[0]).toBeGreaterThan(0);
    expect(res.data.funnelVisualization.rows.map((r: any) => r.dimensionValues[0].value)).toEqual(['1. Visit', '2. Pricing', '3. Sign up']);
  });

  it('serves every Search Console method', async () => {
    const gsc = searchconsole({ version: 'v1', auth: refresh, fetchImplementation: sandboxFetch(sandbox) });
    const sites = await gsc.sites.list();
    expect(sites.data.siteEntry?.map((s) => s.siteUrl)).toContain(JOURNAL_SITE);
    expect((await gsc.sites.get({ siteUrl: JOURNAL_SITE })).data.permissionLevel).toBe('siteOwner');
    const today = new Date().toISOString().slice(0, 10);
    const q = await gsc.searchanalytics.query({ siteUrl: JOURNAL_SITE, requestBody: { startDate: '2026-01-01', endDate: today, dimensions: ['QUERY', 'DEVICE'], rowLimit: 10, dataState: 'ALL' } });
    expect(q.data.rows).toHaveLength(10);
    expect(q.data.responseAggregationType).toBe('byProperty');
    expect(['DESKTOP', 'MOBILE', 'TABLET']).toContain(q.data.rows?.[0]?.keys?.[1]);
    const maps = await gsc.sitemaps.list({ siteUrl: SHOP_SITE });
    const first = maps.data.sitemap?.[0]?.path ?? '';
    expect(first).toBe('https://www.acme-shop.example/sitemap.xml');
    expect((await gsc.sitemaps.get({ siteUrl: SHOP_SITE, feedpath: first })).data.isSitemapsIndex).toBe(true);
    const inspect = await gsc.urlInspection.index.inspect({ requestBody: { siteUrl: SHOP_SITE, inspectionUrl: 'https://www.acme-shop.example/cart' } });
    expect(inspect.data.inspectionResult?.indexStatusResult?.verdict).toBe('PASS');
    await expect(gsc.searchanalytics.query({ siteUrl: 'https://unknown.example/', requestBody: { startDate: '2026-01-01', endDate: '2026-01-02' } })).rejects.toMatchObject({ status: 403 });
    const s = sandbox.stats();
    expect(s.engine1['searchanalytics.query']).toBe(2);
    expect(s.engine1['urlInspection.index.inspect']).toBe(1);
  });
});

describe('official clients against a real port (rootUrl + token URL)', () => {
  let sandbox: Sandbox;
  let server: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    sandbox = await createSandbox({ credentialsDir: CREDENTIALS_DIR, env: {} });
    server = await sandbox.listen({ port: 0 });
  });
  afterAll(() => server.close());

  it('serves GA and Search Console over HTTP with a refresh-token client using endpoints.oauth2TokenUrl', async () => {
    const c = sandbox.credentials.oauthClient;
    const auth = new UserRefreshClient({ clientId: c.client_id, clientSecret: c.client_secret, refreshToken: c.refresh_token, endpoints: { oauth2TokenUrl: `${server.url}/token` } });
    const ga = analyticsdata({ version: 'v1beta', auth, rootUrl: `${server.url}/` });
    const res = await ga.properties.runReport({ property: `properties/${SMALL}`, requestBody: { dateRanges: [{ startDate: '7daysAgo', endDate: 'yesterday' }], dimensions: [{ name: 'date' }], metrics: [{ name: 'activeUsers' }] } });
    expect(res.data.rows).toHaveLength(7);
    expect(res.data.rows?.[0]?.dimensionValues?.[0]?.value).toMatch(/^\d{8}$/);
    const gsc = searchconsole({ version: 'v1', auth, rootUrl: `${server.url}/` });
    const sites = await gsc.sites.list();
    expect(sites.data.siteEntry).toHaveLength(3);
    const bing = await fetch(`${server.url}/webmaster/api.svc/json/GetUserSites?apikey=${sandbox.credentials.bingApiKey}`);
    expect(((await bing.json()) as { d: unknown[] }).d).toHaveLength(3);
    const stats = (await (await fetch(`${server.url}/__sandbox/stats`)).json()) as Record<string, any>;
    expect(stats.analytics.runReport).toBe(1);
    expect(stats.token.token).toBe(1);
  });
});
