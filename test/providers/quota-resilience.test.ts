// Quota-aware resilience against the sandbox: GA 5xx get one retry at most, quota answers are never retried and
// say when the spent quota returns, breakers are per (credential, property or site), and every GA report asks
// for the property's quota so `quota_low` can fire.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors/app-error.ts';
import { inProcessEndpoints } from '../../src/providers/endpoints.ts';
import { createProviderClients } from '../../src/providers/provider-clients.ts';
import { msUntilNextHour, msUntilPacificMidnight } from '../../src/providers/quota-reset.ts';
import type { ResilienceOptions } from '../../src/providers/resilience.ts';
import { failure } from '../helpers/failure.ts';
import { sharedSandbox } from './support/shared-sandbox.ts';

const sandbox = sharedSandbox();

const FAST: Partial<ResilienceOptions> = { attemptTimeoutMs: 2000, deadlineMs: 8000, backoffInitialMs: 1, backoffMaxMs: 5, breakerThreshold: 100 };
const clientsWith = (resilience: Partial<ResilienceOptions> = FAST) => createProviderClients({ endpoints: inProcessEndpoints((r) => sandbox.fetch(r)), resilience });
const siteOf = (key: string) => sandbox.catalogue.find((s) => s.key === key)!;
const SHOP = () => siteOf('acme-shop');
const SAAS = () => siteOf('tiny-saas');
const sa = () => sandbox.credentials.serviceAccount;
const REPORT = { dateRanges: [{ startDate: '7daysAgo', endDate: 'yesterday' }], metrics: [{ name: 'sessions' }] };

const retryAfterSeconds = (error: AppError) => Number(error.headers['Retry-After']);

describe('analytics quota and server errors', () => {
  it('spends at most one retry on a GA 5xx', async () => {
    sandbox.setFaults({ targets: { [SHOP().analytics.propertyId]: { errorRate: 1 } } });
    const error = await failure(clientsWith().analytics(sa(), SHOP().analytics.propertyId).runReport(REPORT));
    expect(error).toMatchObject({ code: 'upstream_error', status: 502 });
    expect(sandbox.stats().analytics.runReport).toBe(2);
  });

  it('does not retry hourly-token exhaustion and answers Retry-After up to the next hour', async () => {
    sandbox.setFaults({ targets: { [SHOP().analytics.propertyId]: { failure: 'hourly_tokens' } } });
    const error = await failure(clientsWith().analytics(sa(), SHOP().analytics.propertyId).runReport(REPORT));
    expect(error).toMatchObject({ code: 'upstream_quota_exhausted', status: 429, provider: 'analytics' });
    expect(Math.abs(retryAfterSeconds(error) - Math.ceil(msUntilNextHour(Date.now()) / 1000))).toBeLessThanOrEqual(2);
    expect(sandbox.stats().analytics.runReport).toBe(1);
  });

  it('answers daily-token exhaustion with Retry-After up to midnight Pacific time', async () => {
    sandbox.setFaults({ targets: { [SHOP().analytics.propertyId]: { failure: 'daily_tokens' } } });
    const error = await failure(clientsWith().analytics(sa(), SHOP().analytics.propertyId).runReport(REPORT));
    expect(Math.abs(retryAfterSeconds(error) - Math.ceil(msUntilPacificMidnight(Date.now()) / 1000))).toBeLessThanOrEqual(2);
    expect(retryAfterSeconds(error)).toBeGreaterThan(0);
    expect(retryAfterSeconds(error)).toBeLessThanOrEqual(25 * 3600);
  });

  it('after 10 server errors in an hour the sandbox spends the property\'s server-error quota; that 429 is not retried', async () => {
    const property = SAAS().analytics.propertyId;
    sandbox.setFaults({ targets: { [property]: { errorRate: 1 } } });
    const client = clientsWith().analytics(sa(), property);
    for (let i = 0; i < 5; i++) expect((await failure(client.runReport(REPORT))).code).toBe('upstream_error');
    expect(sandbox.stats().analytics.runReport).toBe(10);
    sandbox.setFaults({ targets: { [property]: {} } });
    const spent = await failure(client.runReport(REPORT));
    expect(spent).toMatchObject({ code: 'upstream_quota_exhausted', status: 429 });
    expect(spent.message).toContain('server errors');
    expect(Math.abs(retryAfterSeconds(spent) - Math.ceil(msUntilNextHour(Date.now()) / 1000))).toBeLessThanOrEqual(2);
    expect(sandbox.stats().analytics.runReport).toBe(11);
  });

  it('asks for the property quota on every report: remaining buckets on the report, quota_low under 10%', async () => {
    const client = clientsWith().analytics(sa(), siteOf('northwind-journal').analytics.propertyId);
    const plenty = await client.runReport(REPORT);
    expect(plenty.quota?.tokensPerHour).toBeGreaterThan(30_000);
    expect(plenty.quota?.serverErrorsPerProjectPerHour).toBeGreaterThan(0);
    expect(plenty.warnings.map((w) => w.code)).not.toContain('quota_low');
    const [batched] = await client.batchRunReports([REPORT]);
    expect(batched?.quota?.tokensPerDay).toBeGreaterThan(0);
    // A bucket of 1,000 tokens: what is left is far under 10% of the standard 40,000.
    sandbox.setFaults({ analyticsQuota: { tokensPerHour: 1_000 } });
    const low = await client.runReport(REPORT);
    expect(low.quota?.tokensPerHour).toBeLessThan(4_000);
    expect(low.warnings.find((w) => w.code === 'quota_low')?.message).toContain('tokensPerHour');
  });
});

describe('circuit breakers per (credential, property or site)', () => {
  it('five failing requests on one property pause that property only, not others sharing the credential', async () => {
    const clients = clientsWith({ ...FAST, maxAttempts: 1, breakerThreshold: 5, breakerHalfOpenAfterMs: 30_000 });
    sandbox.setFaults({ targets: { [SHOP().analytics.propertyId]: { errorRate: 1 } } });
    const failing = clients.analytics(sa(), SHOP().analytics.propertyId);
    for (let i = 0; i < 5; i++) expect((await failure(failing.runReport(REPORT))).code).toBe('upstream_error');
    expect(await failure(failing.runReport(REPORT))).toMatchObject({ code: 'upstream_unavailable', status: 503 });
    const healthy = await clients.analytics(sa(), siteOf('northwind-journal').analytics.propertyId).runReport(REPORT);
    expect(healthy.rows.length).toBeGreaterThan(0);
    const sites = await clients.engine1(sa(), SAAS().engine1.siteUrl).listSites();
    expect(sites.length).toBeGreaterThan(0);
  });
});

describe('search console quota', () => {
  it('a load-quota 403 is not retried and asks callers to come back in 15 minutes', async () => {
    sandbox.setFaults({ targets: { [SHOP().engine1.siteUrl]: { failure: 'load_quota' } } });
    const error = await failure(clientsWith().engine1(sa(), SHOP().engine1.siteUrl).querySearchAnalytics({ startDate: '2026-01-01', endDate: '2026-01-07' }));
    expect(error).toMatchObject({ code: 'upstream_quota_exhausted', status: 429, provider: 'engine1' });
    expect(retryAfterSeconds(error)).toBe(900);
    expect(sandbox.stats().engine1['searchanalytics.query']).toBe(1);
  });
});
