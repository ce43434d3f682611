// Google's most used GA4 Node client, `@google-analytics/data` (gax), in its REST fallback against the sandbox on
// a port: it sends `$alt=json;enum-encoding=int` and enums as numbers, and reads numbers back. The same requests
// spelled with enum names through `@googleapis/analyticsdata` give the same answers.
import { BetaAnalyticsDataClient, protos, v1alpha } from '@google-analytics/data';
import { analyticsdata } from '@googleapis/analyticsdata';
import { UserRefreshClient } from 'google-auth-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox.ts';
import { CREDENTIALS_DIR, LARGE, SMALL } from './helpers.ts';

let sandbox: Sandbox;
let server: { url: string; close(): Promise<void> };
let auth: UserRefreshClient;
let beta: BetaAnalyticsDataClient;
let alpha: v1alpha.AlphaAnalyticsDataClient;

beforeAll(async () => {
  sandbox = await createSandbox({ credentialsDir: CREDENTIALS_DIR, env: {} });
  server = await sandbox.listen({ port: 0 });
  const c = sandbox.credentials.oauthClient;
  auth = new UserRefreshClient({ clientId: c.client_id, clientSecret: c.client_secret, refreshToken: c.refresh_token, endpoints: { oauth2TokenUrl: `${server.url}/token` } });
  const { hostname, port } = new URL(server.url);
  const options = { fallback: true, apiEndpoint: hostname, port: Number(port), protocol: 'http', authClient: auth } as const;
  beta = new BetaAnalyticsDataClient(options);
  alpha = new v1alpha.AlphaAnalyticsDataClient(options);
});
afterAll(async () => {
  await beta.close();
  await alpha.close();
  await server.close();
});

const property = `properties/${LARGE}`;
const { MetricAggregation } = protos.google.analytics.data.v1beta;
type Row = protos.google.analytics.data.v1beta.IRow;
type Value = { value?: string | null };
const dateRanges = [{ startDate: '28daysAgo', endDate: 'yesterday' }];

describe('@google-analytics/data (REST fallback, integer enums)', () => {
  it('runReport with filters, orderBys and metricAggregations matches the name-encoded request', async () => {
    const request = {
      property,
      dateRanges,
      dimensions: [{ name: 'pagePath' }],
      metrics: [{ name: 'screenPageViews' }, { name: 'sessions' }],
      dimensionFilter: {
        andGroup: {
          expressions: [
            { filter: { fieldName: 'pagePath', stringFilter: { matchType: 'BEGINS_WITH' as const, value: '/products/' } } },
            { notExpression: { filter: { fieldName: 'deviceCategory', stringFilter: { matchType: 'EXACT' as const, value: 'tablet' } } } },
          ],
        },
      },
      metricFilter: { filter: { fieldName: 'screenPageViews', numericFilter: { operation: 'GREATER_THAN' as const, value: { int64Value: '10' } } } },
      orderBys: [{ dimension: { dimensionName: 'pagePath', orderType: 'CASE_INSENSITIVE_ALPHANUMERIC' as const } }],
      limit: 20,
    };
    const [gax] = (await beta.runReport({ ...request, metricAggregations: [MetricAggregation.TOTAL, MetricAggregation.MAXIMUM] })) as [protos.google.analytics.data.v1beta.IRunReportResponse, unknown, unknown];
    expect(gax.rows?.length).toBeGreaterThan(0);
    expect(gax.rows?.every((r: Row) => r.dimensionValues?.[0]?.value?.startsWith('/products/'))).toBe(true);
    const paths = gax.rows!.map((r: Row) => r.dimensionValues![0]!.value!);
    expect(paths).toEqual([...paths].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(gax.totals).toHaveLength(1);
    expect(gax.maximums).toHaveLength(1);
    // Numbers came back and were decoded to the enum's name by the client.
    expect(gax.metricHeaders?.[0]?.type).toBe('TYPE_INTEGER');

    const ga = analyticsdata({ version: 'v1beta', auth, rootUrl: `${server.url}/` });
    const { property: _p, limit, ...body } = request;
    const named = await ga.properties.runReport({ property, requestBody: { ...body, metricAggregations: ['TOTAL', 'MAXIMUM'], limit: String(limit) } });
    expect(gax.rows!.map((r: Row) => r.metricValues!.map((m: Value) => m.value))).toEqual(named.data.rows!.map((r) => r.metricValues!.map((m) => m.value)));
    expect(gax.totals![0]!.metricValues!.map((m: Value) => m.value)).toEqual(named.data.totals![0]!.metricValues!.map((m) => m.value));
  });

  it('checkCompatibility with compatibilityFilter INCOMPATIBLE', async () => {
    const [res] = await beta.checkCompatibility({ property, dimensions: [{ name: 'pagePath' }], metrics: [{ name: 'sessions' }], compatibilityFilter: 'INCOMPATIBLE' });
    expect(res.dimensionCompatibilities?.length).toBeGreaterThan(0);
    expect(res.dimensionCompatibilities?.every((d) => d.compatibility === 'INCOMPATIBLE')).toBe(true);
    expect(res.dimensionCompatibilities?.map((d) => d.dimensionMetadata?.apiName)).toContain('itemName');
  });

  it('getMetadata decodes metric types', async () => {
    const [meta] = await beta.getMetadata({ name: `${property}/metadata` });
    expect(meta.metrics?.find((m) => m.apiName === 'sessions')?.type).toBe('TYPE_INTEGER');
    expect(meta.metrics?.find((m) => m.apiName === 'averageSessionDuration')?.type).toBe('TYPE_SECONDS');
  });

  it('runPivotReport keeps the TOTAL aggregation of a pivot', async () => {
    const [pivot] = (await beta.runPivotReport({
      property,
      dateRanges,
      dimensions: [{ name: 'country' }, { name: 'deviceCategory' }],
      metrics: [{ name: 'sessions' }],
      pivots: [
        { fieldNames: ['country'], limit: 2, orderBys: [{ metric: { metricName: 'sessions' }, desc: true }] },
        { fieldNames: ['deviceCategory'], limit: 3, metricAggregations: [MetricAggregation.TOTAL] },
      ],
    })) as [protos.google.analytics.data.v1beta.IRunPivotReportResponse, unknown, unknown];
    expect(pivot.aggregates?.length).toBeGreaterThan(0);
    expect(pivot.aggregates?.some((r: Row) => r.dimensionValues?.some((v: Value) => v.value === 'RESERVED_TOTAL'))).toBe(true);
  });

  it('v1alpha runFunnelReport, standard and trended', async () => {
    const funnel = {
      steps: [
        { name: 'Visit', filterExpression: { funnelEventFilter: { eventName: 'page_view' } } },
        { name: 'Pricing', filterExpression: { funnelFieldFilter: { fieldName: 'pagePath', stringFilter: { matchType: 'BEGINS_WITH' as const, value: '/pricing' } } } },
        { name: 'Sign up', filterExpression: { funnelEventFilter: { eventName: 'sign_up' } } },
      ],
    };
    const base = { property: `properties/${SMALL}`, dateRanges: [{ startDate: '30daysAgo', endDate: 'yesterday' }], funnel };
    const [standard] = await alpha.runFunnelReport({ ...base, funnelVisualizationType: 'STANDARD_FUNNEL' });
    expect(standard.funnelVisualization?.rows?.map((r) => r.dimensionValues?.[0]?.value)).toEqual(['1. Visit', '2. Pricing', '3. Sign up']);
    const [trended] = await alpha.runFunnelReport({ ...base, funnelVisualizationType: 'TRENDED_FUNNEL' });
    expect(trended.funnelVisualization?.dimensionHeaders?.map((h) => h.name)).toEqual(['funnelStepName', 'date']);
    expect(trended.funnelVisualization?.rows?.length).toBeGreaterThan(3);
    expect(trended.funnelTable?.metricHeaders?.[0]?.type).toBe('TYPE_INTEGER');
  });

  it('answers enums as numbers only when asked with enum-encoding=int, and rejects an unknown number naming it', async () => {
    const { token } = await auth.getAccessToken();
    const post = (query: string, body: object) =>
      fetch(`${server.url}/v1beta/${property}:runReport${query}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const body = { dateRanges, metrics: [{ name: 'sessions' }, { name: 'averageSessionDuration' }], metricAggregations: [1] };
    const ints = (await (await post('?$alt=json%3Benum-encoding=int', body)).json()) as { metricHeaders: { type: unknown }[]; totals: unknown[] };
    expect(ints.metricHeaders.map((h) => h.type)).toEqual([1, 4]);
    expect(ints.totals).toHaveLength(1);
    const names = (await (await post('', body)).json()) as { metricHeaders: { type: unknown }[] };
    expect(names.metricHeaders.map((h) => h.type)).toEqual(['TYPE_INTEGER', 'TYPE_SECONDS']);
    const bad = await post('', { ...body, metricAggregations: [99] });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toContain('99');
  });
});
