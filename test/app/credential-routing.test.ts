// The embedded default with a real project beside the demo: the demo credentials (even on a project added by
// hand, and a refresh token the sandbox's consent flow minted) are answered by the sandbox; a real credential goes
// to the real provider, never to the sandbox's token endpoint (where it would be refused and the source wrongly
// marked broken). Turned off, the sandbox's credentials are refused and never sent to the real providers.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/config/settings.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import { inProcessEndpoints } from '../../src/providers/endpoints.ts';
import { createRuntime, type Runtime } from '../../src/runtime.ts';
import { connectSource } from '../../src/store/data-sources-repository.ts';
import { createProject, grantProjectAccess } from '../../src/store/projects-repository.ts';
import { createWebGrants } from '../../src/sandbox/auth/web-grants.ts';
import { createStubUpstream, json, type StubUpstream } from '../providers/support/stub-upstream.ts';

let dataDir: string;
let rt: Runtime;
let production: StubUpstream;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'siteline-routing-'));
  production = createStubUpstream();
  // One empty report per request of the batch (the summary's metric chunks and the first-day look-up).
  production.on('/v1beta/properties/42:batchRunReports', (call) => {
    const { requests } = JSON.parse(call.body) as { requests: unknown[] };
    return json({ reports: requests.map(() => ({ rowCount: 0, kind: 'analyticsData#runReport' })), kind: 'analyticsData#batchRunReports' });
  });
  const settings = loadSettings({ DATA_DIR: dataDir, SITELINE_SANDBOX: 'auto', SANDBOX_PORT: '0', SITELINE_SECRET_KEY: randomBytes(32).toString('base64'), LOG_LEVEL: 'silent', PUBLIC_URL: 'http://siteline.test' });
  rt = await createRuntime(settings, { logger: silentLogger(), endpoints: inProcessEndpoints(production.handler) });
  const accountId = rt.demo!.seeded.accountId;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  const customer = await createProject(rt.store.db, { key: 'customer', name: 'Customer', domain: 'www.customer.example' });
  await connectSource(rt.store.db, rt.box, customer.id, 'analytics', {
    propertyId: '42',
    credential: { kind: 'service_account', secret: JSON.stringify({ type: 'service_account', client_email: 'reader@customer.iam.gserviceaccount.com', private_key: privateKey }) },
  });
  const byHand = await createProject(rt.store.db, { key: 'by-hand', name: 'By hand', domain: 'www.acme-shop.example', timezone: 'Europe/Berlin' });
  const serviceAccountJson = await readFile(join(dataDir, 'sandbox-credentials', 'service-account.json'), 'utf8');
  await connectSource(rt.store.db, rt.box, byHand.id, 'analytics', { propertyId: '314159265', credential: { kind: 'service_account', secret: serviceAccountJson } });
  // What "Connect Google" stores after the sandbox's consent page: its OAuth client with a refresh token minted for it.
  const client = JSON.parse(await readFile(join(dataDir, 'sandbox-credentials', 'oauth-client.json'), 'utf8')) as { client_id: string; client_secret: string };
  const tokenSecret = (await readFile(join(dataDir, 'sandbox-credentials', 'token-secret.txt'), 'utf8')).trim();
  const refreshToken = createWebGrants({ tokenSecret }).issueRefreshToken({ clientId: client.client_id, scopes: ['https://www.googleapis.com/auth/analytics.readonly', 'https://www.googleapis.com/auth/webmasters.readonly'], account: 'owner@sandbox.example' });
  const consented = await createProject(rt.store.db, { key: 'consented', name: 'Consented', domain: 'www.acme-shop.example', timezone: 'Europe/Berlin' });
  await connectSource(rt.store.db, rt.box, consented.id, 'analytics', {
    propertyId: '314159265',
    credential: { kind: 'oauth_refresh_token', secret: JSON.stringify({ ...client, refresh_token: refreshToken }) },
  });
  for (const project of [customer, byHand, consented]) await grantProjectAccess(rt.store.db, accountId, project.id);
});
afterAll(async () => {
  await rt.close();
  await rm(dataDir, { recursive: true, force: true });
});

const get = async (path: string) => {
  const res = await rt.app.request(`http://siteline.test${path}`, { headers: { authorization: `Bearer ${rt.demo!.seeded.apiKey}` } });
  return { status: res.status, body: (await res.json()) as any };
};

describe('routing by credential in the embedded default', () => {
  it('a project connected by hand with the sandbox credential files reads the sandbox', async () => {
    const res = await get('/api/v1/metrics/by-hand/summary?period=7days');
    expect(res.status).toBe(200);
    expect(res.body.metrics.sessions.value).toBeGreaterThan(0);
    expect(production.calls).toHaveLength(0);
  });

  it('a project connected through the sandbox\'s consent flow reads the sandbox: the same numbers as the seeded project', async () => {
    const [consented, seeded] = await Promise.all([get('/api/v1/metrics/consented/summary?period=7days'), get('/api/v1/metrics/acme-shop/summary?period=7days')]);
    expect(consented.status).toBe(200);
    expect(consented.body.metrics).toEqual(seeded.body.metrics);
    expect(production.calls).toHaveLength(0);
  });

  it('a real credential reaches the real provider and its source is not marked broken', async () => {
    const res = await get('/api/v1/metrics/customer/summary?period=7days');
    expect(res.status).toBe(200);
    expect(production.count('/token')).toBe(1);
    expect(production.count('/v1beta/properties/42:batchRunReports')).toBe(1);
    const project = await get('/api/v1/projects/customer');
    expect(project.body.project.dataSources.analytics.status).toBe('ok');
  });
});
