// Sharing and roles in real Chromium: an admin shares a project (email and role), sees the confirmation steps for
// removing access and disconnecting a source, and reads the audit log; the invitee accepts on the Invitations page
// and sees the project as an editor; a new email's link shows the project invitation; the team page as a member and
// as the owner; a dashboard 404. Every page passes axe-core, fits 390 px, works without script errors under the
// strict CSP (a CSP violation fails the test).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createAccount, setAccountPassword } from '../../src/store/accounts-repository.ts';
import { putProjectRole } from '../../src/store/project-roles-repository.ts';
import { accountActor, OPERATOR } from '../../src/writes/actor.ts';
import { createAccountAsOperator } from '../../src/writes/account-writes.ts';
import { createProject } from '../../src/writes/project-writes.ts';
import { connectSources } from '../../src/writes/source-writes.ts';
import { hasChromium, launchBrowser, serveTestRuntime, type Browser, type ServedRuntime } from '../helpers/browser.ts';
import { checkPage, openWatchingCsp } from './page-checks.ts';

const PASSWORD = 'a long password';

describe.skipIf(!hasChromium)('sharing and roles in Chromium', () => {
  let served: ServedRuntime;
  let browser: Browser;
  const cspViolations: string[] = [];

  beforeAll(async () => {
    served = await serveTestRuntime();
    const db = served.rt.store.db;
    const deps = { db, clock: () => new Date() };
    const owner = await createAccountAsOperator(deps, OPERATOR, { email: 'owner@example.com', name: 'Olivia Owner', password: PASSWORD, owner: true });
    const shop = await createProject(deps, accountActor(owner.id, 'dashboard'), { key: 'shop', name: 'Shop', domain: 'shop.example' });
    await connectSources({ ...deps, box: served.rt.box }, accountActor(owner.id, 'dashboard'), shop, [{ source: 'engine2', siteUrl: 'https://shop.example/', credential: { kind: 'api_key', secret: 'bing-key' } }]);
    for (const [email, name] of [['viewer@example.com', 'Vera Viewer'], ['mate@example.com', 'Mats Mate']] as const) {
      const account = await createAccount(db, { email, name });
      await setAccountPassword(db, account.id, PASSWORD);
      if (email === 'viewer@example.com') await putProjectRole(db, account.id, shop.id, 'viewer', new Date());
    }
    // A project the owner holds no role on: the team page offers to recover it.
    const stranger = await createAccount(db, { email: 'stranger@example.com', name: 'Stranger' });
    await createProject(deps, accountActor(stranger.id, 'dashboard'), { key: 'blog', name: 'Blog', domain: 'blog.example' });
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  const open = (path: string): Promise<Page> => openWatchingCsp(browser.context, `${served.origin}${path}`, cspViolations);

  async function signIn(page: Page, email: string): Promise<void> {
    await page.goto(`${served.origin}/account/sign-in?return_to=%2Fdashboard`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${served.origin}/dashboard`);
  }

  async function signOut(page: Page): Promise<void> {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/signed_out=1/);
  }

  it('an admin shares, confirms before removing and disconnecting, and reads the audit log; the invitee accepts', async () => {
    const page = await open('/account/sign-in');
    await signIn(page, 'owner@example.com');
    await page.goto(`${served.origin}/dashboard/p/shop/settings`);
    await checkPage(page, 'settings-admin');

    await page.getByLabel('Their email').fill('mate@example.com');
    await page.getByLabel('Role', { exact: true }).selectOption('editor');
    await page.getByRole('button', { name: 'Invite' }).click();
    expect(await page.getByRole('status').textContent()).toContain('mate@example.com is invited as editor');
    await checkPage(page, 'settings-shared');
    await page.getByLabel('Their email').fill('newcomer@example.com');
    await page.getByRole('button', { name: 'Invite' }).click();
    const link = (await page.locator('#share-link').textContent())?.trim() ?? '';

    await page.getByRole('button', { name: 'Remove access for viewer@example.com' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Remove access?');
    await checkPage(page, 'confirm-remove-access');
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL(/\/dashboard\/p\/shop\/settings$/);

    await page.goto(`${served.origin}/dashboard/p/shop/sources`);
    await page.getByRole('button', { name: 'Disconnect Bing' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Disconnect Bing?');
    await checkPage(page, 'confirm-disconnect');
    await page.getByRole('button', { name: 'Disconnect Bing' }).click();
    await page.waitForURL(/\/sources\?done=engine2-disconnected/);

    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Audit log' }).click();
    const log = await page.locator('tbody').textContent();
    for (const action of ['source.disconnect', 'access.invite', 'source.connect', 'project.create']) expect(log).toContain(action);
    await checkPage(page, 'audit-log');

    await page.getByRole('link', { name: 'Team' }).click();
    expect(await page.getByRole('button', { name: 'Become admin of Blog' }).isVisible()).toBe(true);
    await checkPage(page, 'team-owner');
    await page.getByRole('button', { name: 'Become admin of Blog' }).click();
    await checkPage(page, 'confirm-recover');

    await page.goto(`${served.origin}/dashboard/p/shop/no-such-page`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Page not found');
    await checkPage(page, 'not-found');
    await signOut(page);

    await signIn(page, 'mate@example.com');
    await page.getByRole('link', { name: /invitation to a project is waiting/ }).click();
    await checkPage(page, 'invitations');
    await page.getByRole('button', { name: 'Accept the invitation to Shop' }).click();
    await page.waitForURL(/done=accepted/);
    await page.getByRole('link', { name: 'Shop' }).click();
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Settings' }).click();
    expect(await page.getByRole('button', { name: 'Delete project' }).count()).toBe(0);
    expect(await page.getByLabel('Brand terms, one per line').isVisible()).toBe(true);
    await checkPage(page, 'settings-editor');
    await page.getByRole('link', { name: 'Team' }).click();
    expect(await page.locator('tbody').textContent()).not.toContain('stranger@example.com');
    await checkPage(page, 'team-member');
    await signOut(page);

    await page.goto(link);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Join Shop');
    expect(await page.getByLabel('Email').inputValue()).toBe('newcomer@example.com');
    await checkPage(page, 'join-project');

    expect(cspViolations).toEqual([]);
    await page.close();
  }, 180_000);
});
