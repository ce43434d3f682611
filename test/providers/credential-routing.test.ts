// Routing follows who issued the credential, not the mode: the sandbox's own service-account key, every refresh
// token of its OAuth client (the fixed one and those its consent flow mints) and its Bing key go to the sandbox
// (whatever project uses them); any other credential goes to the real provider. With the sandbox off, its
// credentials are refused here and never sent to Google or Bing.
import { generateKeyPairSync } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { inProcessEndpoints } from '../../src/providers/endpoints.ts';
import { createProviderClients, type SandboxRoute } from '../../src/providers/provider-clients.ts';
import { createWebGrants } from '../../src/sandbox/auth/web-grants.ts';
import { expectAppErrorRejection } from '../domain/expect-app-error.ts';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox.ts';
import { createStubUpstream, json } from './support/stub-upstream.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await createSandbox({ credentialsDir: null, env: {} });
});

const REPORT = { dateRanges: [{ startDate: '7daysAgo', endDate: 'yesterday' }], metrics: [{ name: 'sessions' }] };
const realServiceAccount = () => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  return { type: 'service_account', client_email: 'reader@customer-project.iam.gserviceaccount.com', private_key: privateKey, private_key_id: 'abc' };
};

function setup(options: { sandboxRunning?: boolean } = {}) {
  const production = createStubUpstream();
  production.on('/v1beta/properties/42:runReport', () => json({ rowCount: 0, kind: 'analyticsData#runReport' }));
  production.on('/webmaster/api.svc/json/GetUserSites', () => json({ d: [] }));
  const c = sandbox.credentials;
  const credentials = { serviceAccountJson: JSON.stringify(c.serviceAccount), oauthClientJson: JSON.stringify(c.oauthClient), bingApiKey: c.bingApiKey };
  const route: SandboxRoute = options.sandboxRunning === false ? { credentials } : { endpoints: inProcessEndpoints((r) => sandbox.fetch(r)), credentials };
  const clients = createProviderClients({ endpoints: inProcessEndpoints(production.handler), sandbox: route, resilience: { backoffInitialMs: 1, backoffMaxMs: 5 } });
  return { production, clients };
}

/** A refresh token as the sandbox's consent flow mints it for its OAuth client (self-verifying, so any sandbox honours it). */
function webFlowCredential() {
  const c = sandbox.credentials.oauthClient;
  const refreshToken = createWebGrants(sandbox.credentials).issueRefreshToken({ clientId: c.client_id, scopes: ['https://www.googleapis.com/auth/analytics.readonly', 'https://www.googleapis.com/auth/webmasters.readonly'], account: 'owner@sandbox.example' });
  return { client_id: c.client_id, client_secret: c.client_secret, refresh_token: refreshToken };
}

describe('credential-based routing', () => {
  it('sends a real service account to the real provider (token grant included), never to the sandbox', async () => {
    const { production, clients } = setup();
    sandbox.resetStats();
    await clients.analytics(realServiceAccount(), '42').runReport(REPORT);
    expect(production.count('/token')).toBe(1);
    expect(production.count('/v1beta/properties/42:runReport')).toBe(1);
    expect(sandbox.stats().total).toBe(0);
  });

  it('sends the sandbox\'s own credentials to the sandbox, for any property', async () => {
    const { production, clients } = setup();
    sandbox.resetStats();
    const property = sandbox.catalogue[0]!.analytics.propertyId;
    const report = await clients.analytics(sandbox.credentials.serviceAccount, property).runReport(REPORT);
    expect(report.rows.length).toBeGreaterThan(0);
    await clients.engine1(sandbox.credentials.oauthClient, sandbox.catalogue[0]!.engine1.siteUrl).listSites();
    await clients.engine2(sandbox.credentials.bingApiKey, sandbox.catalogue[0]!.engine2.siteUrl).getUserSites();
    expect(production.calls).toHaveLength(0);
    expect(sandbox.stats().token).toEqual({ token: 2 });
    expect(clients.isSandboxCredential(sandbox.credentials.bingApiKey, 'engine2')).toBe(true);
    expect(clients.isSandboxCredential('a-real-bing-key', 'engine2')).toBe(false);
  });

  it('sends another Bing key to the real provider', async () => {
    const { production, clients } = setup();
    await clients.engine2('0123456789abcdef0123456789abcdef', 'https://www.customer.example/').getUserSites();
    expect(production.count('/webmaster/api.svc/json/GetUserSites')).toBe(1);
  });

  it('sends a refresh token minted by the sandbox\'s consent flow to the sandbox: its OAuth client issued it', async () => {
    const { production, clients } = setup();
    sandbox.resetStats();
    const credential = webFlowCredential();
    const report = await clients.analytics(credential, sandbox.catalogue[0]!.analytics.propertyId).runReport(REPORT);
    expect(report.rows.length).toBeGreaterThan(0);
    expect(await clients.engine1(credential, sandbox.catalogue[0]!.engine1.siteUrl).listSites()).not.toHaveLength(0);
    expect(production.calls).toHaveLength(0);
    expect(sandbox.stats().token).toEqual({ token: 1 });
    expect(clients.isSandboxCredential(credential, 'analytics')).toBe(true);
  });

  it('sends a refresh token of another OAuth client to the real provider, even one that looks like the sandbox\'s', async () => {
    const { production, clients } = setup();
    sandbox.resetStats();
    const lookalike = { ...webFlowCredential(), client_id: '123456789012-abcdef.apps.googleusercontent.com', client_secret: 'GOCSPX-real' };
    await clients.analytics(lookalike, '42').runReport(REPORT);
    expect(production.count('/token')).toBe(1);
    expect(sandbox.stats().total).toBe(0);
  });

  it('with the sandbox off, refuses its credentials (424) without calling anyone; real ones still go out', async () => {
    const { production, clients } = setup({ sandboxRunning: false });
    sandbox.resetStats();
    const property = sandbox.catalogue[0]!.analytics.propertyId;
    const calls: (() => Promise<unknown>)[] = [
      () => clients.analytics(sandbox.credentials.serviceAccount, property).runReport(REPORT),
      () => clients.analytics(webFlowCredential(), property).runReport(REPORT),
      () => clients.engine1(sandbox.credentials.oauthClient, sandbox.catalogue[0]!.engine1.siteUrl).listSites(),
      () => clients.engine2(sandbox.credentials.bingApiKey, sandbox.catalogue[0]!.engine2.siteUrl).getUserSites(),
    ];
    for (const call of calls) {
      await expectAppErrorRejection(Promise.resolve().then(call), { code: 'upstream_credential_invalid', status: 424, includes: ['issued by the provider sandbox, which is not running'] });
    }
    expect(production.calls).toHaveLength(0);
    expect(sandbox.stats().total).toBe(0);
    await clients.analytics(realServiceAccount(), '42').runReport(REPORT);
    expect(production.count('/v1beta/properties/42:runReport')).toBe(1);
  });
});
