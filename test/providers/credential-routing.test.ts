// Routing follows the credential, not the mode: the sandbox's own service account, OAuth client and Bing key go
// to the sandbox (whatever project uses them); any other credential goes to the real provider.
import { generateKeyPairSync } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { inProcessEndpoints } from '../../src/providers/endpoints.ts';
import { createProviderClients } from '../../src/providers/provider-clients.ts';
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

function setup() {
  const production = createStubUpstream();
  production.on('/v1beta/properties/42:runReport', () => json({ rowCount: 0, kind: 'analyticsData#runReport' }));
  production.on('/webmaster/api.svc/json/GetUserSites', () => json({ d: [] }));
  const c = sandbox.credentials;
  const clients = createProviderClients({
    endpoints: inProcessEndpoints(production.handler),
    sandbox: {
      endpoints: inProcessEndpoints((r) => sandbox.fetch(r)),
      credentials: { serviceAccountJson: JSON.stringify(c.serviceAccount), oauthClientJson: JSON.stringify(c.oauthClient), bingApiKey: c.bingApiKey },
    },
    resilience: { backoffInitialMs: 1, backoffMaxMs: 5 },
  });
  return { production, clients };
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
});
