// In Chromium against the sandbox's Google (grants revoke as one, as Google's do): two projects connected through
// one Google account; Cancel on a third's picker and Disconnect of the first — the page saying beforehand that the
// account stays connected for the other — leave the second project's Google sources working.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxEndpoints } from '../../src/providers/endpoints.ts';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox.ts';
import type { Listening } from '../../src/sandbox/listen.ts';
import { listSources, readSourceCredential } from '../../src/store/data-sources-repository.ts';
import { getProjectByKey } from '../../src/store/projects-repository.ts';
import { accountActor, OPERATOR } from '../../src/writes/actor.ts';
import { createAccountAsOperator } from '../../src/writes/account-writes.ts';
import { createProject } from '../../src/writes/project-writes.ts';
import { hasChromium, launchBrowser, serveTestRuntime, type Browser, type ServedRuntime } from '../helpers/browser.ts';

const PASSWORD = 'a long password';

describe.skipIf(!hasChromium)('one Google grant per account in Chromium', () => {
  let sandbox: Sandbox;
  let listening: Listening;
  let served: ServedRuntime;
  let browser: Browser;

  beforeAll(async () => {
    sandbox = await createSandbox({ credentialsDir: null, env: {} });
    listening = await sandbox.listen({ port: 0, host: '127.0.0.1' });
    const c = sandbox.credentials.oauthClient;
    served = await serveTestRuntime({ endpoints: sandboxEndpoints(listening.url), env: { GOOGLE_OAUTH_CLIENT_ID: c.client_id, GOOGLE_OAUTH_CLIENT_SECRET: c.client_secret } });
    const deps = { db: served.rt.store.db, clock: () => new Date() };
    const owner = await createAccountAsOperator(deps, OPERATOR, { email: 'owner@example.com', name: 'Olivia Owner', password: PASSWORD, owner: true });
    for (const key of ['one', 'two', 'three']) await createProject(deps, accountActor(owner.id, 'dashboard'), { key, name: `Client ${key}`, domain: 'www.acme-shop.example' });
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await served?.close();
    await listening?.close();
  });

  /** Whether the project's stored Google credential still gets an access token. */
  async function works(key: string): Promise<boolean> {
    const project = (await getProjectByKey(served.rt.store.db, key))!;
    const { client_id, client_secret, refresh_token } = JSON.parse((await readSourceCredential(served.rt.store.db, served.rt.box, project.id, 'analytics'))!.secret) as Record<string, string>;
    const res = await fetch(new URL('/token', listening.url), { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token', client_id: client_id!, client_secret: client_secret!, refresh_token: refresh_token! }) });
    return res.status === 200;
  }

  it('Cancel on a third project and Disconnect of one leave the other working', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${served.origin}/account/sign-in?return_to=%2Fdashboard`);
    await page.getByLabel('Email').fill('owner@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${served.origin}/dashboard`);

    const toPicker = async (key: string) => {
      await page.goto(`${served.origin}/dashboard/p/${key}/sources`);
      await page.getByRole('button', { name: 'Connect Google' }).click();
      await page.waitForURL(/\/o\/oauth2\/v2\/auth/);
      await page.getByLabel('Google account').fill('agency@example.com');
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL(/\/dashboard\/connect\/google\//);
    };
    for (const key of ['one', 'two']) {
      await toPicker(key);
      await page.getByRole('button', { name: 'Connect', exact: true }).click();
      await page.waitForURL(/done=google/);
    }
    expect(await works('one')).toBe(true);
    expect(await works('two')).toBe(true);

    await toPicker('three');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL(/\/dashboard\/p\/three\/sources/);
    expect(await works('one')).toBe(true);

    await page.goto(`${served.origin}/dashboard/p/one/sources`);
    await page.getByRole('button', { name: 'Disconnect Google' }).click();
    await page.getByText('agency@example.com stays connected for Client two').waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Disconnect Google' }).click();
    await page.waitForURL(/done=google-shared/);
    expect(await listSources(served.rt.store.db, (await getProjectByKey(served.rt.store.db, 'one'))!.id)).toEqual([]);
    expect(await works('two')).toBe(true);
    await page.close();
  }, 60_000);
});
