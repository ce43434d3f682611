// Connecting through the dashboard in the embedded default, over HTTP in-process: the sandbox's consent flow and
// its Bing key reach the sandbox (nothing goes to the real Google or Bing), each source is probed with the stored
// credential before it is shown OK, a failed probe is stored with its reason, and a wrong key saves nothing.
// At localhost the consent flow comes back to localhost, where the browser's session is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '../../src/demo/seed-demo.ts';
import { listSources, readSourceCredential } from '../../src/store/data-sources-repository.ts';
import { getProjectByKey } from '../../src/store/projects-repository.ts';
import { connectBingThroughDashboard, connectGoogleThroughDashboard, createProjectThroughDashboard, signedInClient } from '../helpers/dashboard-owner.ts';
import { serveDemo, type DemoServer } from '../helpers/demo-server.ts';
import type { WebClient } from './web-client.ts';

const ACME = { propertyId: '314159265', siteUrl: 'https://www.acme-shop.example/' };
let demo: DemoServer;
let client: WebClient;
/** acme-shop's statuses right after start, before any test reads it. */
let seededStatuses: Record<string, string>;

beforeAll(async () => {
  demo = await serveDemo({ listen: false });
  seededStatuses = await statuses('acme-shop');
  if (!demo.seeded.password.known) throw new Error('the demo password should be known to the instance that seeded it');
  client = await signedInClient(demo, demo.origins.localhost, DEMO_EMAIL, demo.seeded.password.password);
}, 60_000);
afterAll(() => demo?.close());

async function statuses(projectKey: string): Promise<Record<string, string>> {
  const project = (await getProjectByKey(demo.rt.store.db, projectKey))!;
  const sources = await listSources(demo.rt.store.db, project.id);
  return Object.fromEntries(sources.map((s) => [s.source, s.status === 'error' ? `error: ${s.statusMessage}` : s.status]));
}

const setSandboxFaults = (patch: object) =>
  fetch(`${demo.rt.demo!.sandboxUrl}/__sandbox/faults`, { method: patch === null ? 'DELETE' : 'POST', body: JSON.stringify(patch) }).then((res) => expect(res.status).toBe(200));

describe('connecting in the demo dashboard', () => {
  it('the demo projects were probed when seeded: OK before any read', async () => {
    expect(seededStatuses).toEqual({ analytics: 'ok', engine1: 'ok', engine2: 'ok' });
  });

  it('Google through the sandbox consent page and the sandbox\'s Bing key: probed, OK, and the data is the seeded project\'s', async () => {
    const realCallsBefore = demo.real.calls.length;
    await createProjectThroughDashboard(client, { key: 'by-hand', name: 'By hand', domain: 'www.acme-shop.example', timezone: 'UTC', currency: 'USD' });
    const started = await client.post('/dashboard/p/by-hand/connect/google', {});
    expect(new URL(started.location!).searchParams.get('redirect_uri')).toBe(`${demo.origins.localhost}/dashboard/connect/google/callback`);
    expect(await connectGoogleThroughDashboard(client, 'by-hand', ACME)).toBe('/dashboard/p/by-hand/sources?done=google');
    const bing = await connectBingThroughDashboard(client, 'by-hand', await demo.bingApiKey(), ACME.siteUrl);
    expect(bing.location).toBe('/dashboard/p/by-hand/sources?done=engine2');
    expect(await statuses('by-hand')).toEqual({ analytics: 'ok', engine1: 'ok', engine2: 'ok' });
    // The probe read the property's time zone and currency, which the project adopted (as the CLI's connect does).
    expect(await getProjectByKey(demo.rt.store.db, 'by-hand')).toMatchObject({ timezone: 'Europe/Berlin', currency: 'EUR' });

    const read = async (path: string) => (await demo.rt.app.request(`${demo.origins.ip}/api/v1${path}`, { headers: { authorization: `Bearer ${demo.seeded.apiKey}` } })).json() as Promise<any>;
    const [mine, seeded] = await Promise.all([read('/metrics/by-hand/search/summary?period=90days'), read('/metrics/acme-shop/search/summary?period=90days')]);
    expect(mine.totals).toEqual(seeded.totals);
    expect(mine.totals.clicks.value).toBeGreaterThan(0);
    expect(demo.real.calls.slice(realCallsBefore)).toEqual([]);
  });

  it('a probe that fails stores the source with the reason, never as OK', async () => {
    await createProjectThroughDashboard(client, { key: 'disabled-api', name: 'Disabled', domain: 'www.acme-shop.example', timezone: 'Europe/Berlin', currency: 'EUR' });
    await setSandboxFaults({ targets: { [ACME.propertyId]: { failure: 'service_disabled' } } });
    try {
      expect(await connectGoogleThroughDashboard(client, 'disabled-api', ACME)).toBe('/dashboard/p/disabled-api/sources?done=google-unread');
    } finally {
      await setSandboxFaults({ targets: { [ACME.propertyId]: { failure: null } } });
    }
    const found = await statuses('disabled-api');
    expect(found.analytics).toMatch(/^error: .*API/);
    expect(found.engine1).toBe('ok');
    const page = await client.get('/dashboard/p/disabled-api/sources?done=google-unread');
    expect(page.html).toContain('reading a source with it failed');
    expect(page.html).toContain('class="status-error"');
  });

  it('a key the sandbox did not issue goes to the real Bing, saves nothing, and the page says where the demo key is', async () => {
    await createProjectThroughDashboard(client, { key: 'wrong-key', name: 'Wrong key', domain: 'www.acme-shop.example', timezone: 'Europe/Berlin', currency: 'EUR' });
    const before = demo.real.calls.length;
    const answer = await connectBingThroughDashboard(client, 'wrong-key', 'NOT-THE-SANDBOX-KEY', ACME.siteUrl);
    expect(answer.status).toBe(502);
    expect(answer.html).toContain('Bing could not be reached');
    expect(answer.html).toContain('sandbox-credentials/bing-api-key.txt');
    expect(demo.real.calls.slice(before).every((url) => url.startsWith('https://ssl.bing.com/'))).toBe(true);
    expect(await statuses('wrong-key')).toEqual({});
  });

  it('Google access revoked by the user: the overview still answers, showing the error and what is left', async () => {
    await createProjectThroughDashboard(client, { key: 'revoked', name: 'Revoked', domain: 'www.acme-shop.example', timezone: 'Europe/Berlin', currency: 'EUR' });
    expect(await connectGoogleThroughDashboard(client, 'revoked', ACME)).toBe('/dashboard/p/revoked/sources?done=google');
    expect((await connectBingThroughDashboard(client, 'revoked', await demo.bingApiKey(), ACME.siteUrl)).location).toBe('/dashboard/p/revoked/sources?done=engine2');
    const project = (await getProjectByKey(demo.rt.store.db, 'revoked'))!;
    const { refresh_token: token } = JSON.parse((await readSourceCredential(demo.rt.store.db, demo.rt.box, project.id, 'analytics'))!.secret) as { refresh_token: string };
    expect((await fetch(`${demo.rt.demo!.sandboxUrl}/revoke?token=${encodeURIComponent(token)}`, { method: 'POST' })).status).toBe(200);
    const page = await client.get('/dashboard/p/revoked');
    expect(page.status).toBe(200);
    expect(page.html).toMatch(/Google Analytics 4: <span class="status-error">Error/);
    expect(page.html).toContain('data-search-metric="clicks"');
  });
});
