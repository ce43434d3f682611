// The production clients against the in-process sandbox: real official libraries, real token grants, the
// sandbox's data, fault switches and call counter. Only endpoints and credentials differ from production.
import { describe, expect, it } from 'vitest';
import { inProcessEndpoints, sandboxEndpoints } from '../../src/providers/endpoints.ts';
import { createProviderClients } from '../../src/providers/provider-clients.ts';
import type { ResilienceOptions } from '../../src/providers/resilience.ts';
import { failure } from '../helpers/failure.ts';
import { sharedSandbox } from './support/shared-sandbox.ts';
import { expectEvery } from '../helpers/expect-every.ts';

const sandbox = sharedSandbox();

const FAST: Partial<ResilienceOptions> = { attemptTimeoutMs: 2000, deadlineMs: 8000, backoffInitialMs: 5, backoffMaxMs: 20 };

function setup(resilience: Partial<ResilienceOptions> = FAST, onRetry?: () => void) {
  const logger = { warn: () => onRetry?.(), debug: () => {} };
  return createProviderClients({ endpoints: inProcessEndpoints((r) => sandbox.fetch(r)), resilience, logger });
}
const site = (key: string) => {
  const found = sandbox.catalogue.find((s) => s.key === key);
  if (!found) throw new Error(`no demo site ${key}`);
  return found;
};
const large = () => site('acme-shop');
const sa = () => sandbox.credentials.serviceAccount;
const oauth = () => sandbox.credentials.oauthClient;
const REPORT = {
  dateRanges: [{ startDate: '28daysAgo', endDate: 'yesterday' }],
  dimensions: [{ name: 'country' }],
  metrics: [{ name: 'sessions' }, { name: 'engagementRate' }],
  limit: '20',
};

function isoDaysAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}

describe('analytics against the sandbox', () => {
  it('runs a report with a service-account token, reusing the token across client instances', async () => {
    const clients = setup();
    const report = await clients.analytics(sa(), large().analytics.propertyId).runReport(REPORT);
    await clients.analytics(sa(), large().analytics.propertyId).runReport(REPORT);
    expect(report.rows.length).toBeGreaterThan(0);
    expect(report.rowCount).toBeGreaterThanOrEqual(report.rows.length);
    const first = report.rows[0];
    expect(typeof first?.dimensions.country).toBe('string');
    expect(Number.isInteger(first?.metrics.sessions)).toBe(true);
    expect(first?.metrics.engagementRate).toBeGreaterThanOrEqual(0);
    expect(first?.metrics.engagementRate).toBeLessThanOrEqual(1);
    expect(report.timeZone).toBe(large().timezone);
    expect(sandbox.stats().token).toEqual({ token: 1 });
    expect(sandbox.stats().analytics.runReport).toBe(2);
  });

  it('sends 7 reports as batches of 5 and 2, each equal to the same report run alone', async () => {
    const clients = setup({ ...FAST });
    const client = clients.analytics(oauth(), large().analytics.propertyId);
    const requests = Array.from({ length: 7 }, (_, i) => ({ ...REPORT, dateRanges: [{ startDate: `${i + 2}daysAgo`, endDate: 'yesterday' }] }));
    const batched = await client.batchRunReports(requests);
    expect(sandbox.stats().analytics.batchRunReports).toBe(2);
    expect(batched).toHaveLength(7);
    const alone = await Promise.all(requests.map((r) => client.runReport(r)));
    expect(batched.map((r) => r.rows)).toEqual(alone.map((r) => r.rows));
    expect(batched[0]?.rows).not.toEqual(batched[6]?.rows);
  });

  it('reads realtime, metadata and compatibility', async () => {
    const client = setup().analytics(sa(), large().analytics.propertyId);
    const realtime = await client.runRealtimeReport({ dimensions: [{ name: 'minutesAgo' }], metrics: [{ name: 'activeUsers' }] });
    expect(realtime.rows.length).toBeGreaterThan(0);
    expectEvery(realtime.rows, (r) => /^\d\d$/.test(r.dimensions.minutesAgo ?? '') && (r.metrics.activeUsers ?? -1) >= 0);
    const metadata = await client.getMetadata();
    expect(metadata.dimensions.map((d) => d.apiName)).toContain('date');
    expect(metadata.metrics.find((m) => m.apiName === 'sessions')?.type).toBe('TYPE_INTEGER');
    const compat = await client.checkCompatibility({ dimensions: [{ name: 'country' }], metrics: [{ name: 'sessions' }] });
    expect(compat.dimensions.length + compat.metrics.length).toBeGreaterThan(0);
  });

  it('runs a funnel report whose steps never grow', async () => {
    const client = setup().analytics(sa(), large().analytics.propertyId);
    const funnel = await client.runFunnelReport({
      dateRanges: [{ startDate: '28daysAgo', endDate: 'yesterday' }],
      funnel: {
        steps: [
          { name: 'Visit', filterExpression: { funnelEventFilter: { eventName: 'page_view' } } },
          { name: 'Session', filterExpression: { funnelEventFilter: { eventName: 'session_start' } } },
          { name: 'Scroll', filterExpression: { funnelEventFilter: { eventName: 'scroll' } } },
        ],
      },
    });
    expect(funnel.steps.map((s) => [s.step, s.name])).toEqual([[1, 'Visit'], [2, 'Session'], [3, 'Scroll']]);
    const users = funnel.steps.map((s) => s.activeUsers);
    expect(users[0]).toBeGreaterThan(0);
    for (let i = 1; i < users.length; i++) expect(users[i]).toBeLessThanOrEqual(users[i - 1] ?? 0);
    expect(sandbox.stats().analytics.runFunnelReport).toBe(1);
  });

  it('maps an unknown metric to invalid_parameter without retrying', async () => {
    const client = setup().analytics(sa(), large().analytics.propertyId);
    const error = await failure(client.runReport({ ...REPORT, metrics: [{ name: 'pageViewz' }] }));
    expect(error).toMatchObject({ code: 'invalid_parameter', status: 400 });
    expect(error.message).toContain('pageViewz');
    expect(error.message).not.toMatch(/https?:\/\//);
    expect(sandbox.stats().analytics.runReport).toBe(1);
  });

  it('raw proxy returns the provider JSON unchanged', async () => {
    const client = setup().analytics(sa(), large().analytics.propertyId);
    const raw = await client.rawRequest('POST', `properties/${large().analytics.propertyId}:runReport`, REPORT);
    expect(raw.status).toBe(200);
    const direct = await sandbox.fetch(
      new Request(`http://x/v1beta/properties/${large().analytics.propertyId}:runReport`, {
        method: 'POST',
        body: JSON.stringify(REPORT),
        headers: { authorization: (await tokenHeader()) ?? '', 'content-type': 'application/json' },
      }),
    );
    expect(raw.body).toBe(await direct.text());
  });
});

async function tokenHeader(): Promise<string | undefined> {
  const { client_id, client_secret, refresh_token } = oauth();
  const res = await sandbox.fetch(
    new Request('http://x/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', client_id, client_secret, refresh_token }),
    }),
  );
  const body = (await res.json()) as { access_token?: string };
  return body.access_token ? `Bearer ${body.access_token}` : undefined;
}

describe('engine1 against the sandbox', () => {
  it('pages past 25,000 rows: the result is the concatenation of the pages, one call per page', async () => {
    const client = setup().engine1(oauth(), large().engine1.siteUrl);
    const request = { startDate: isoDaysAgo(31), endDate: isoDaysAgo(3), dimensions: ['query', 'page'], dataState: 'all' };
    const result = await client.querySearchAnalytics({ ...request, rowLimit: 100_000 });
    expect(result.rows.length).toBeGreaterThan(25_000);
    expect(result.rows.length).toBeLessThan(100_000); // ended on a short page, not on the limit
    expect(result).toMatchObject({ pages: Math.ceil(result.rows.length / 25_000), truncated: false });
    expect(sandbox.stats().engine1['searchanalytics.query']).toBe(result.pages);
    const pages = [];
    for (let start = 0; start < result.rows.length; start += 25_000) {
      pages.push((await client.querySearchAnalytics({ ...request, rowLimit: 25_000, startRow: start })).rows);
    }
    expect(pages.reduce((sum, rows) => sum + rows.length, 0)).toBe(result.rows.length);
    expectEvery(pages.flat(), (row, i) => JSON.stringify(row) === JSON.stringify(result.rows[i]));
    expect(Object.keys(result.rows[0]?.keys ?? {})).toEqual(['query', 'page']);
  }, 60_000);

  it('lists sites and sitemaps with the refresh-token credential', async () => {
    const client = setup().engine1(oauth(), large().engine1.siteUrl);
    const sites = await client.listSites();
    expect(sites.map((s) => s.siteUrl)).toContain(large().engine1.siteUrl);
    expect(Array.isArray(await client.listSitemaps())).toBe(true);
  });
});

describe('engine2 against the sandbox', () => {
  it('parses weekly query and page stats (page URL from Query) and daily traffic on consecutive Pacific days', async () => {
    const client = setup().engine2(sandbox.credentials.bingApiKey, large().engine2.siteUrl);
    const queries = await client.getQueryStats();
    const pages = await client.getPageStats();
    const traffic = await client.getRankAndTrafficStats();
    expect(queries.length).toBeGreaterThan(0);
    expectEvery(queries, (q) => /^\d{4}-\d{2}-\d{2}$/.test(q.date) && q.query !== '' && q.position > 0);
    expectEvery(queries, (q) => q.clickPosition === null ? q.clicks === 0 : q.clickPosition > 0);
    expectEvery(pages, (p) => p.page.startsWith(`https://${large().domain}`));
    const weekdays = new Set(queries.map((q) => new Date(`${q.date}T00:00:00Z`).getUTCDay()));
    expect(weekdays.size).toBe(1);
    const days = [...new Set(traffic.map((t) => t.date))].sort();
    expect(days.length).toBe(traffic.length);
    for (let i = 1; i < days.length; i++) {
      const gap = Date.parse(`${days[i]}T00:00:00Z`) - Date.parse(`${days[i - 1]}T00:00:00Z`);
      expect(gap).toBe(86_400_000);
    }
  });

  it('agrees with an independent Pacific reading of the raw /Date()/ values, on both sides of DST', async () => {
    const client = setup().engine2(sandbox.credentials.bingApiKey, large().engine2.siteUrl);
    const raw = JSON.parse((await client.rawRequest('GET', 'GetRankAndTrafficStats')).body) as { d: { Date: string }[] };
    const typed = await client.getRankAndTrafficStats();
    const pacific = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' });
    const parsed = raw.d.map(({ Date: value }) => /^\/Date\((\d+)([+-]\d{4})?\)\/$/.exec(value));
    expectEvery(parsed, (m) => m !== null);
    expect(typed.map((t) => t.date)).toEqual(parsed.map((m) => pacific.format(new Date(Number(m?.[1])))));
    expect(new Set(parsed.map((m) => m?.[2]))).toEqual(new Set(['-0800', '-0700']));
  });
});

describe('fault switches', () => {
  it('a revoked credential answers 424 for each kind, never 401', async () => {
    sandbox.setFaults({ revoked: { oauth: true, serviceAccount: true, bingKey: true } });
    const clients = setup();
    const id = large().analytics.propertyId;
    expect(await failure(clients.analytics(oauth(), id).runReport(REPORT))).toMatchObject({ code: 'upstream_credential_invalid', status: 424, provider: 'analytics' });
    expect(await failure(clients.engine1(sa(), large().engine1.siteUrl).listSites())).toMatchObject({ code: 'upstream_credential_invalid', status: 424, provider: 'engine1' });
    expect(await failure(clients.engine2(sandbox.credentials.bingApiKey, large().engine2.siteUrl).getQueryStats())).toMatchObject({
      code: 'upstream_credential_invalid',
      status: 424,
      provider: 'engine2',
    });
  });

  it('a search 5xx burst is retried until success (3 calls)', async () => {
    sandbox.setFaults({ engine1: { errorRate: 1 } });
    let retries = 0;
    const clients = setup(FAST, () => {
      retries += 1;
      if (retries === 2) sandbox.setFaults({ engine1: { errorRate: 0 } });
    });
    const sites = await clients.engine1(sa(), large().engine1.siteUrl).listSites();
    expect(sites.length).toBeGreaterThan(0);
    expect(sandbox.stats().engine1['sites.list']).toBe(3);
  });

  it('a persistent 5xx ends in 502 after 2 analytics attempts (server errors spend GA quota) and 3 elsewhere', async () => {
    sandbox.setFaults({ all: { errorRate: 1 }, token: { errorRate: 0 } });
    const clients = setup();
    expect(await failure(clients.analytics(sa(), large().analytics.propertyId).runReport(REPORT))).toMatchObject({ code: 'upstream_error', status: 502 });
    expect(sandbox.stats().analytics.runReport).toBe(2);
    expect(await failure(clients.engine2(sandbox.credentials.bingApiKey, large().engine2.siteUrl).getPageStats())).toMatchObject({ code: 'upstream_error', status: 502 });
    expect(sandbox.stats().engine2.GetPageStats).toBe(3);
  });

  it('a Google quota 429 is never retried (a retry spends the same quota); a Bing throttle is', async () => {
    sandbox.setFaults({ analytics: { burst429: 2 }, engine1: { burst429: 1 }, engine2: { burst429: 1 } });
    const clients = setup();
    expect(await failure(clients.analytics(sa(), large().analytics.propertyId).runReport(REPORT))).toMatchObject({ code: 'upstream_quota_exhausted', status: 429 });
    expect(sandbox.stats().analytics.runReport).toBe(1);
    expect(await failure(clients.engine1(sa(), large().engine1.siteUrl).listSites())).toMatchObject({ code: 'upstream_quota_exhausted', status: 429 });
    expect(sandbox.stats().engine1['sites.list']).toBe(1);
    await clients.engine2(sandbox.credentials.bingApiKey, large().engine2.siteUrl).getUserSites();
    expect(sandbox.stats().engine2.GetUserSites).toBe(2);
  });

  it('a hanging provider ends in 504 within the deadline', async () => {
    sandbox.setFaults({ engine2: { hang: true } });
    const clients = setup({ ...FAST, attemptTimeoutMs: 100, deadlineMs: 300 });
    // The sandbox hangs until aborted: only the attempt timeout and the deadline can settle this.
    expect(await failure(clients.engine2(sandbox.credentials.bingApiKey, large().engine2.siteUrl).getQueryStats())).toMatchObject({
      code: 'upstream_timeout',
      status: 504,
    });
  });

  it('a malformed body is a 502 without retry', async () => {
    sandbox.setFaults({ engine1: { malformedRate: 1 } });
    const clients = setup();
    expect(await failure(clients.engine1(sa(), large().engine1.siteUrl).listSites())).toMatchObject({ code: 'upstream_error', status: 502 });
    expect(sandbox.stats().engine1['sites.list']).toBe(1);
  });

  it('the circuit opens after repeated failures and then answers 503 without an upstream call', async () => {
    sandbox.setFaults({ analytics: { errorRate: 1 } });
    const clients = setup({ ...FAST, maxAttempts: 1, breakerThreshold: 3, breakerHalfOpenAfterMs: 30_000 });
    const client = clients.analytics(sa(), large().analytics.propertyId);
    for (let i = 0; i < 3; i++) expect((await failure(client.runReport(REPORT))).code).toBe('upstream_error');
    const error = await failure(client.runReport(REPORT));
    expect(error).toMatchObject({ code: 'upstream_unavailable', status: 503 });
    expect(error.headers['Retry-After']).toBeDefined();
    expect(sandbox.stats().analytics.runReport).toBe(3);
  });
});

describe('over real HTTP', () => {
  it('reaches a listening sandbox from one base URL: JWT grant redirected to its /token, API roots rewritten', async () => {
    const listening = await sandbox.listen({ port: 0, host: '127.0.0.1' });
    try {
      const clients = createProviderClients({ endpoints: sandboxEndpoints(`${listening.url.replace(/\/+$/, '')}/`), resilience: FAST });
      const report = await clients.analytics(sa(), large().analytics.propertyId).runReport(REPORT);
      const sites = await clients.engine1(sa(), large().engine1.siteUrl).listSites();
      const traffic = await clients.engine2(sandbox.credentials.bingApiKey, large().engine2.siteUrl).getRankAndTrafficStats();
      expect(report.rows.length).toBeGreaterThan(0);
      expect(sites.length).toBeGreaterThan(0);
      expect(traffic.length).toBeGreaterThan(0);
      expect(sandbox.stats().token).toEqual({ token: 1 });
    } finally {
      await listening.close();
    }
  });
});
