// Errors that name the real cause: the sandbox answers with Google's and Bing's exact bodies for each setup
// mistake, and the clients turn them into specific problem codes whose message says what to change while the
// provider's own words stay in `upstream`.
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inProcessEndpoints } from '../../src/providers/endpoints.ts';
import { createProviderClients } from '../../src/providers/provider-clients.ts';
import { failure } from '../helpers/failure.ts';
import { sharedSandbox } from './support/shared-sandbox.ts';

const sandbox = sharedSandbox();

const clients = () =>
  createProviderClients({ endpoints: inProcessEndpoints((r) => sandbox.fetch(r)), resilience: { backoffInitialMs: 1, backoffMaxMs: 5, breakerThreshold: 100 } });
const shop = () => sandbox.catalogue.find((s) => s.key === 'acme-shop')!;
const sa = () => sandbox.credentials.serviceAccount;
const oauth = () => sandbox.credentials.oauthClient;
const PROPERTY = () => shop().analytics.propertyId;
const SITE = () => shop().engine1.siteUrl;
const REPORT = { dateRanges: [{ startDate: '7daysAgo', endDate: 'yesterday' }], metrics: [{ name: 'sessions' }] };
const failOn = (target: string, failure: string) => sandbox.setFaults({ targets: { [target]: { failure: failure as never } } });

describe('Google setup errors', () => {
  it('SERVICE_DISABLED names the API, the Cloud project and where to enable it', async () => {
    failOn(PROPERTY(), 'service_disabled');
    const ga = await failure(clients().analytics(sa(), PROPERTY()).runReport(REPORT));
    expect(ga).toMatchObject({ code: 'upstream_api_disabled', status: 424, provider: 'analytics' });
    expect(ga.message).toContain('Google Analytics Data API is not enabled in Google Cloud project 123456789012');
    expect(ga.message).toContain('https://console.cloud.google.com/apis/library/analyticsdata.googleapis.com?project=123456789012');
    expect(ga.upstream).toMatchObject({ status: 'PERMISSION_DENIED', reason: 'SERVICE_DISABLED' });
    expect((ga.upstream as { message: string }).message).toContain('has not been used in project 123456789012 before or it is disabled');
    expect(sandbox.stats().analytics.runReport).toBe(1);

    failOn(SITE(), 'service_disabled');
    const gsc = await failure(clients().engine1(sa(), SITE()).listSitemaps());
    expect(gsc).toMatchObject({ code: 'upstream_api_disabled', provider: 'engine1' });
    expect(gsc.message).toContain('Google Search Console API is not enabled');
  });

  it('ACCESS_TOKEN_SCOPE_INSUFFICIENT asks to reconnect with the missing scope', async () => {
    failOn(SITE(), 'scope_insufficient');
    const error = await failure(clients().engine1(oauth(), SITE()).querySearchAnalytics({ startDate: '2026-01-01', endDate: '2026-01-02' }));
    expect(error).toMatchObject({ code: 'upstream_scope_insufficient', status: 424 });
    expect(error.message).toContain('https://www.googleapis.com/auth/webmasters.readonly');
    expect(error.upstream).toMatchObject({ reason: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT' });
  });

  it('user credentials without a quota project get the quota-project advice; quota_project_id is sent as x-goog-user-project', async () => {
    failOn(PROPERTY(), 'quota_project_required');
    const missing = await failure(clients().analytics(oauth(), PROPERTY()).runReport(REPORT));
    expect(missing).toMatchObject({ code: 'upstream_quota_project_required', status: 424 });
    expect(missing.message).toContain('quota_project_id');
    expect((missing.upstream as { message: string }).message).toContain('requires a quota project');
    const withProject = await clients().analytics({ ...oauth(), quota_project_id: 'acme-analytics' }, PROPERTY()).runReport(REPORT);
    expect(withProject.rows.length).toBeGreaterThan(0);
  });

  it('USER_PROJECT_DENIED names the quota project and the role to grant', async () => {
    failOn(PROPERTY(), 'user_project_denied');
    const error = await failure(clients().analytics({ ...oauth(), quota_project_id: 'someone-elses-project' }, PROPERTY()).runReport(REPORT));
    expect(error).toMatchObject({ code: 'upstream_quota_project_denied', status: 424 });
    expect(error.message).toContain('someone-elses-project');
    expect(error.message).toContain('roles/serviceusage.serviceUsageConsumer');
  });

  it('PERMISSION_DENIED on the property or site says whom to add where', async () => {
    failOn(PROPERTY(), 'permission_denied');
    const ga = await failure(clients().analytics(sa(), PROPERTY()).runReport(REPORT));
    expect(ga).toMatchObject({ code: 'upstream_permission_denied', status: 424 });
    expect(ga.message).toContain(sa().client_email);
    expect(ga.message).toContain('Viewer');
    failOn(SITE(), 'permission_denied');
    const gsc = await failure(clients().engine1(sa(), SITE()).listSitemaps());
    expect(gsc).toMatchObject({ code: 'upstream_permission_denied', provider: 'engine1' });
    expect(gsc.message).toContain('Users and permissions');
    expect((gsc.upstream as { message: string }).message).toContain(`sufficient permission for site '${SITE()}'`);
  });
});

describe('token endpoint refusals keep their description', () => {
  it('a refresh token of an OAuth app in Testing expires after 7 days, with advice to publish the app', async () => {
    sandbox.setFaults({ oauthTestingApp: { refreshTokenIssuedAt: new Date(Date.now() - 6 * 86_400_000).toISOString() } });
    await expect(clients().analytics(oauth(), PROPERTY()).runReport(REPORT)).resolves.toBeDefined();
    sandbox.setFaults({ oauthTestingApp: { refreshTokenIssuedAt: new Date(Date.now() - 8 * 86_400_000).toISOString() } });
    const error = await failure(clients().engine1(oauth(), SITE()).listSites());
    expect(error).toMatchObject({ code: 'upstream_credential_invalid', status: 424 });
    expect(error.message).toContain('invalid_grant: Token has been expired or revoked.');
    expect(error.message).toContain('Testing');
    expect(error.upstream).toEqual({ error: 'invalid_grant', message: 'Token has been expired or revoked.' });
  });

  it('a deleted service-account key reads "Invalid JWT Signature." and asks for a new key', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    const error = await failure(clients().analytics({ ...sa(), private_key: privateKey }, PROPERTY()).runReport(REPORT));
    expect(error).toMatchObject({ code: 'upstream_credential_invalid' });
    expect(error.message).toContain('Invalid JWT Signature.');
    expect(error.message).toContain('Create a new JSON key');
  });
});

describe('Bing ErrorCodes', () => {
  it('NotAuthorized for a site the key cannot read is a permission problem with Bing\'s own body', async () => {
    const site = shop().engine2.siteUrl;
    sandbox.setFaults({ targets: { [site]: { failure: 'not_authorized' } } });
    const error = await failure(clients().engine2(sandbox.credentials.bingApiKey, site).getQueryStats());
    expect(error).toMatchObject({ code: 'upstream_permission_denied', status: 424, provider: 'engine2' });
    expect(error.message).toContain('verify the site in Bing Webmaster Tools');
    expect(error.upstream).toEqual({ ErrorCode: 14, Message: 'ERROR!!! NotAuthorized' });
  });

  it('an invalid key says where to copy the current one', async () => {
    const error = await failure(clients().engine2('0'.repeat(32), shop().engine2.siteUrl).getQueryStats());
    expect(error).toMatchObject({ code: 'upstream_credential_invalid' });
    expect(error.message).toContain('API access');
    expect(error.upstream).toEqual({ ErrorCode: 3, Message: 'ERROR!!! InvalidApiKey' });
  });
});
