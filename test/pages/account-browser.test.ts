// The account pages in real headless Chromium: sign in, create an API key (shown once, copied with the
// button), use it against /api/v1/projects/list, revoke it, see 401. The strict CSP must not block the page's
// own style and script (a CSP violation is a test failure). Screenshots of the sign-in and keys pages.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setAccountPassword } from '../../src/store/accounts-repository.ts';
import { hasChromium, launchBrowser, SCREENSHOT_DIR, serveTestRuntime, type Browser, type ServedRuntime } from '../helpers/browser.ts';
import { createAccountWithKey } from '../helpers/test-runtime.ts';
import { checkPage } from '../dashboard/page-checks.ts';

const EMAIL = 'browser@example.com';
const PASSWORD = 'a long enough password';

describe.skipIf(!hasChromium)('account pages in Chromium', () => {
  let served: ServedRuntime;
  let browser: Browser;

  beforeAll(async () => {
    served = await serveTestRuntime();
    const { accountId } = await createAccountWithKey(served.rt, { email: EMAIL, projects: ['shop', 'blog'] });
    await setAccountPassword(served.rt.store.db, accountId, PASSWORD);
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  it('sign in → create key (shown once) → it works → revoke → 401', async () => {
    const page = await browser.context.newPage();
    const cspViolations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: served.origin });

    await page.goto(`${served.origin}/account`);
    expect(new URL(page.url()).pathname).toBe('/account/sign-in');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'sign-in.png'), fullPage: true });

    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill('wrong password!');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('not correct');

    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${served.origin}/account`);
    await expect.poll(() => page.getByRole('heading', { name: 'Account settings' }).isVisible()).toBe(true);

    await page.getByLabel('Name').fill('Browser key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.locator('#new-key').textContent())?.trim() ?? '';
    expect(key).toMatch(/^sl_live_[A-Za-z0-9]{38}$/);
    await page.getByRole('button', { name: 'Copy key' }).click();
    await expect.poll(() => page.locator('#copy-status').textContent()).toBe('Copied.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'keys.png'), fullPage: true });

    const listed = await fetch(`${served.origin}/api/v1/projects/list`, { headers: { authorization: `Bearer ${key}` } });
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { projects: { key: string }[] }).projects.map((p) => p.key)).toEqual(['blog', 'shop']);

    // Shown once: a fresh load of the page does not contain it.
    await page.goto(`${served.origin}/account`);
    expect(await page.content()).not.toContain(key);

    await page.getByRole('button', { name: 'Revoke Browser key' }).click();
    // A confirmation step (no script needed): the key still works until it is confirmed.
    await expect.poll(() => page.getByRole('heading', { name: 'Revoke this key?' }).isVisible()).toBe(true);
    expect((await fetch(`${served.origin}/api/v1/projects/list`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    await checkPage(page, 'key-revoke-confirm');
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('The key was revoked');
    const refused = await fetch(`${served.origin}/api/v1/projects/list`, { headers: { authorization: `Bearer ${key}` } });
    expect(refused.status).toBe(401);

    expect(cspViolations).toEqual([]);
    await page.close();
  }, 60_000);
});
