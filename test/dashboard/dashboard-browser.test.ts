// The dashboard end to end in real Chromium against a sandbox listening on a port (the browser really visits its
// consent page): first-run setup → project → Connect Google → pick property and site → Bing key and site →
// funnel with live preview → overview with both charts → API key → the REST summary shows the overview's numbers.
// Every page passes axe-core, fits 390 px, and is screenshotted; a CSP violation fails the test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { sandboxEndpoints } from '../../src/providers/endpoints.ts';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox.ts';
import type { Listening } from '../../src/sandbox/listen.ts';
import { hasChromium, launchBrowser, serveTestRuntime, type Browser, type ServedRuntime } from '../helpers/browser.ts';
import { checkPage, openWatchingCsp } from './page-checks.ts';
import { listSources, readSourceCredential } from '../../src/store/data-sources-repository.ts';
import { getProjectByKey } from '../../src/store/projects-repository.ts';

const OWNER = { name: 'Olivia Owner', email: 'owner@example.com', password: 'correct horse battery' };

describe.skipIf(!hasChromium)('dashboard in Chromium', () => {
  let sandbox: Sandbox;
  let listening: Listening;
  let served: ServedRuntime;
  let browser: Browser;
  const cspViolations: string[] = [];

  beforeAll(async () => {
    sandbox = await createSandbox({ credentialsDir: null, env: {} });
    listening = await sandbox.listen({ port: 0, host: '127.0.0.1' });
    const c = sandbox.credentials.oauthClient;
    served = await serveTestRuntime({
      endpoints: sandboxEndpoints(listening.url),
      env: { GOOGLE_OAUTH_CLIENT_ID: c.client_id, GOOGLE_OAUTH_CLIENT_SECRET: c.client_secret },
    });
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await served?.close();
    await listening?.close();
  });

  const open = (path: string): Promise<Page> => openWatchingCsp(browser.context, `${served.origin}${path}`, cspViolations);

  it('walks from first-run setup to the API giving the overview’s numbers', async () => {
    const page = await open('/dashboard');
    expect(new URL(page.url()).pathname).toBe('/setup');
    await checkPage(page, 'setup');
    // Keyboard only: Tab reaches each field in order and Enter submits. The setup code comes from the server log.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('code');
    await page.keyboard.type(served.rt.setupCode!);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('name');
    await page.keyboard.type(OWNER.name);
    await page.keyboard.press('Tab');
    await page.keyboard.type(OWNER.email);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('password');
    await page.keyboard.type(OWNER.password);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${served.origin}/dashboard`);
    await checkPage(page, 'projects-empty');

    await page.getByRole('link', { name: 'Create a project' }).click();
    await checkPage(page, 'project-new');
    await page.getByLabel('Name').fill('My Shop');
    await page.getByLabel('Key', { exact: true }).fill('my-shop');
    await page.getByLabel('Domain').fill('www.acme-shop.example');
    await page.getByLabel('Time zone').fill('Europe/Berlin');
    await page.getByLabel('Currency').fill('EUR');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL(/\/dashboard\/p\/my-shop\/sources/);
    await checkPage(page, 'sources-empty');

    await page.getByRole('button', { name: 'Connect Google' }).click();
    await page.waitForURL(new RegExp(`^${listening.url.replace(/\/$/, '')}/o/oauth2/v2/auth`));
    await page.screenshot({ path: 'test-results/screenshots/dashboard-google-consent-desktop.png' });
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(/\/dashboard\/connect\/google\//);
    expect(await page.getByLabel(/Acme Shop · www.acme-shop.example \(314159265\)/).isChecked()).toBe(true);
    expect(await page.getByLabel('https://www.acme-shop.example/').isChecked()).toBe(true);
    await checkPage(page, 'google-picker');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.waitForURL(/\/sources\?done=google/);
    expect(await page.getByRole('status').textContent()).toContain('Google is connected');

    await page.getByLabel('Bing Webmaster API key').fill(sandbox.credentials.bingApiKey);
    await page.getByRole('button', { name: 'Check key' }).click();
    await checkPage(page, 'bing-picker');
    await page.getByRole('button', { name: 'Connect Bing' }).click();
    await page.waitForURL(/\/sources\?done=engine2/);
    await checkPage(page, 'sources-connected');

    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Funnels' }).click();
    await checkPage(page, 'funnels-empty');
    await page.getByRole('link', { name: 'Create a funnel' }).click();
    const pages = await page.locator('#observed-pages option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(pages.length).toBeGreaterThan(2);
    await page.getByLabel('Funnel name').fill('Home to cart');
    await page.locator('#step-0-value').fill(pages[0]!);
    await page.locator('#step-1-value').fill('[unclosed');
    await page.locator('#step-1-match').selectOption('regex');
    await expect.poll(() => page.locator('#step-1-error').textContent(), { timeout: 15_000 }).toContain('not a valid RE2');
    await page.locator('#step-1-match').selectOption('begins_with');
    await page.locator('#step-1-value').fill(pages[1]!);
    await expect.poll(() => page.locator('#preview [data-users]').count(), { timeout: 15_000 }).toBe(2);
    const previewUsers = await page.locator('#preview [data-users]').allTextContents();
    expect(Number(previewUsers[0]!.replace(/,/g, ''))).toBeGreaterThan(0);
    await checkPage(page, 'funnel-editor');
    await page.getByRole('button', { name: 'Save funnel' }).click();
    await page.waitForURL(/\/funnels\?done=saved/);
    await checkPage(page, 'funnels');

    // A cold first read of every card on two shared cores takes a while: the page shows its progress note meanwhile.
    page.setDefaultTimeout(120_000);
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Overview' }).click();
    await page.waitForURL(/\/dashboard\/p\/my-shop$/);
    expect(Number(await page.locator('#chart-main').getAttribute('data-points'))).toBeGreaterThan(20);
    expect(await page.locator('[data-completion]').count()).toBe(1);
    const shown = Object.fromEntries(
      await page.locator('[data-metric]').evaluateAll((cards) => cards.map((c) => [c.getAttribute('data-metric'), Number(c.getAttribute('data-raw'))])),
    ) as Record<string, number>;
    expect(shown.sessions).toBeGreaterThan(0);
    await checkPage(page, 'overview');
    // The headline cards sit in one row at 1280 px.
    const tops = await page.locator('[data-metric]').evaluateAll((cards) => cards.map((c) => Math.round(c.getBoundingClientRect().top)));
    expect(new Set(tops).size).toBe(1);

    // Period and comparison without JavaScript: the form is a plain GET.
    await page.getByLabel('Period').selectOption('7days');
    await page.getByLabel('Compare with').selectOption('year');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/period=7days.*compare=year/);
    await page.getByRole('list', { name: 'Chart metric' }).getByRole('link', { name: 'Users' }).click();
    await page.waitForURL(/metric=activeUsers/);
    expect(await page.locator('#chart-main .previous').count()).toBe(1);
    await checkPage(page, 'overview-7days-year');
    // Click to filter: a country row filters every card and shows as a removable chip.
    const country = page.locator('[data-card="countries"] a.row-filter').first();
    const filter = await country.getAttribute('data-filter');
    await country.click();
    await page.waitForURL(/filter=country/);
    expect(await page.locator(`[data-chip="${filter}"]`).count()).toBe(1);
    expect(await page.locator('[data-card="countries"] a.row-filter').count()).toBe(1);
    await checkPage(page, 'overview-filtered');
    await page.getByRole('link', { name: `Remove filter ${filter}` }).click();
    await page.waitForURL((url) => !url.search.includes('filter='));

    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Funnels' }).click();
    await page.getByRole('link', { name: 'Home to cart' }).click();
    await checkPage(page, 'funnel-edit');
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Settings' }).click();
    await checkPage(page, 'project-settings');
    await page.getByLabel('Brand terms, one per line').fill('My Shop\nmyshop');
    await page.getByRole('button', { name: 'Save brand terms' }).click();
    await page.waitForURL(/\/settings\?done=brand-terms/);
    expect(await page.locator('#brand-current').textContent()).toBe('Set by hand: my shop, myshop.');
    expect((await getProjectByKey(served.rt.store.db, 'my-shop'))?.brandTerms).toEqual(['my shop', 'myshop']);
    await checkPage(page, 'project-settings-brand-terms');
    await page.getByRole('link', { name: 'Team' }).click();
    await page.getByLabel('Email').fill('mate@example.com');
    await page.getByRole('button', { name: 'Create invitation link' }).click();
    const invitation = (await page.locator('#invite-link').textContent())?.trim() ?? '';
    await checkPage(page, 'team');
    // The invitation page (shown here in the owner's browser; redeeming is covered in-process).
    const guest = await browser.context.newPage();
    await guest.goto(invitation);
    expect(await guest.getByLabel('Email').inputValue()).toBe('mate@example.com');
    await checkPage(guest, 'join');
    await guest.close();

    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name').fill('Reporting');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.locator('#new-key').textContent())?.trim() ?? '';
    const api = await fetch(`${served.origin}/api/v1/metrics/my-shop/summary`, { headers: { authorization: `Bearer ${key}` } });
    expect(api.status).toBe(200);
    const metrics = ((await api.json()) as { metrics: Record<string, { value: number }> }).metrics;
    for (const [name, value] of Object.entries(shown)) expect(metrics[name]?.value, name).toBe(value);

    expect(cspViolations).toEqual([]);
    await page.close();
    // Each view of the overview is a cold read of every card on two shared cores.
  }, 480_000);

  /** The project's stored connections, to prove a failed attempt changed nothing. */
  async function stored() {
    const project = (await getProjectByKey(served.rt.store.db, 'my-shop'))!;
    const sources = await listSources(served.rt.store.db, project.id);
    const flows = await served.rt.store.db.selectFrom('google_connect_flows').select('id').execute();
    return { project, connections: sources.map((s) => `${s.source}:${s.propertyId ?? s.siteUrl}:${s.credentialVersion}:${s.status}`), flows: flows.length };
  }

  it('Cancel, a wrong state, a revoked Google token and a bad Bing key each say what happened and save nothing', async () => {
    const before = await stored();
    expect(before.connections).toHaveLength(3);

    const page = await open('/dashboard/p/my-shop/sources');
    page.setDefaultTimeout(120_000);
    await page.getByRole('button', { name: 'Reconnect Google' }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL(/\/dashboard\/connect\/google\/callback\?/);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Google was not connected');
    expect(await page.getByRole('alert').textContent()).toContain('You cancelled');
    await checkPage(page, 'google-cancelled');
    expect(await stored()).toEqual(before);

    await page.goto(`${served.origin}/dashboard/connect/google/callback?state=not-the-one&code=4/0abc`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Google sign-in not recognised');
    expect(await page.getByRole('alert').textContent()).toContain('nothing was saved');
    await checkPage(page, 'google-wrong-state');
    expect(await stored()).toEqual(before);

    await page.goto(`${served.origin}/dashboard/p/my-shop/sources`);
    await page.getByLabel('Replace the API key').fill('NOT-A-REAL-KEY');
    await page.getByRole('button', { name: 'Check key' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Bing refused the key');
    expect(await page.getByRole('alert').textContent()).toContain('Nothing was saved');
    await checkPage(page, 'bing-bad-key');
    expect(await stored()).toEqual(before);

    // The user revokes Siteline's access in their Google account.
    const credential = await readSourceCredential(served.rt.store.db, served.rt.box, before.project.id, 'analytics');
    const refreshToken = (JSON.parse(credential!.secret) as { refresh_token: string }).refresh_token;
    expect((await fetch(`${listening.url.replace(/\/$/, '')}/revoke?token=${encodeURIComponent(refreshToken)}`, { method: 'POST' })).status).toBe(200);
    await page.goto(`${served.origin}/dashboard/p/my-shop`);
    await page.getByRole('button', { name: 'Refresh now' }).click();
    await page.waitForURL(/\/dashboard\/p\/my-shop$/);
    const status = page.getByRole('region', { name: 'Data sources' });
    expect(await status.textContent()).toContain('Google Analytics 4: Error');
    await checkPage(page, 'overview-revoked');
    await page.getByRole('button', { name: 'Reconnect Google' }).first().click();
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.waitForURL(/\/sources\?done=google/);
    await page.goto(`${served.origin}/dashboard/p/my-shop`);
    await page.getByRole('button', { name: 'Refresh now' }).click();
    await page.waitForURL(/\/dashboard\/p\/my-shop$/);
    expect(await page.getByRole('region', { name: 'Data sources' }).textContent()).toContain('Google Analytics 4: OK');

    expect(cspViolations).toEqual([]);
    await page.close();
  }, 180_000);
});
