// The demo as a newcomer meets it, in real Chromium: the embedded default (sandbox on a port of its own, no
// PUBLIC_URL, real providers offline), signed in with the demo account at 127.0.0.1 and at localhost; at localhost a
// project is created, Google connected through the sandbox's consent page and Bing with the sandbox's key, and then
// its overview, search numbers and a funnel preview show data equal to the API's for the same request and to the
// seeded acme-shop project on the same property. Nothing may reach the real Google or Bing on the way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO_EMAIL } from '../../src/demo/seed-demo.ts';
import { hasChromium, launchBrowser, type Browser } from '../helpers/browser.ts';
import { serveDemo, type DemoServer } from '../helpers/demo-server.ts';
import { checkPage } from '../dashboard/page-checks.ts';

const PROJECT = 'acme-by-hand';
const FUNNEL_STEPS = [
  { match: 'begins_with', value: '/products/' },
  { match: 'exact', value: '/cart' },
] as const;

describe.skipIf(!hasChromium)('the demo owner path in Chromium', () => {
  let demo: DemoServer;
  let browser: Browser;
  const cspViolations: string[] = [];

  beforeAll(async () => {
    demo = await serveDemo();
    browser = await launchBrowser();
    browser.context.setDefaultTimeout(30_000);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await demo?.close();
  });

  async function open(origin: string, path: string): Promise<Page> {
    const page = await browser.context.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    await page.goto(`${origin}${path}`);
    return page;
  }

  async function api(path: string): Promise<any> {
    const res = await fetch(`${demo.origins.ip}/api/v1${path}`, { headers: { authorization: `Bearer ${demo.seeded.apiKey}` } });
    expect(res.status, path).toBe(200);
    return res.json();
  }

  async function signIn(origin: string): Promise<void> {
    const password = demo.seeded.password;
    if (!password.known) throw new Error('the demo password should be known to the instance that seeded it');
    const page = await open(origin, '/account/sign-out');
    if (new URL(page.url()).pathname === '/account/sign-out') {
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(/\/account\/sign-in/);
    }
    await page.goto(`${origin}/account`);
    expect(new URL(page.url()).pathname).toBe('/account/sign-in');
    await page.getByLabel('Email').fill(DEMO_EMAIL);
    await page.getByLabel('Password').fill(password.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${origin}/account`);
    expect(await page.getByRole('heading', { name: 'Account settings' }).isVisible()).toBe(true);
    await page.goto(`${origin}/dashboard`);
    expect(await page.getByRole('link', { name: /Acme Shop/ }).count()).toBeGreaterThan(0);
    await page.close();
  }

  it('signs the demo account in at 127.0.0.1 and at localhost', async () => {
    await signIn(demo.origins.ip);
    await signIn(demo.origins.localhost);
  }, 60_000);

  /** The numbers a page shows in `[data-<attribute>]` elements, by the attribute's value. */
  async function shownNumbers(page: Page, attribute: string): Promise<Record<string, number>> {
    const pairs = await page.locator(`[data-${attribute}]`).evaluateAll(
      (cards, name) => cards.map((c) => [c.getAttribute(`data-${name}`), Number(c.getAttribute('data-raw'))]),
      attribute,
    );
    return Object.fromEntries(pairs) as Record<string, number>;
  }

  async function previewUsers(origin: string, project: string): Promise<number[]> {
    const page = await open(origin, `/dashboard/p/${project}/funnels/new`);
    const suggestions = await page.locator('#observed-pages option').count();
    expect(suggestions, `page suggestions on ${project}`).toBeGreaterThan(2);
    expect(await page.locator('#observed-events option').count(), `event suggestions on ${project}`).toBeGreaterThan(2);
    await page.getByLabel('Funnel name').fill('Product to cart');
    for (const [i, step] of FUNNEL_STEPS.entries()) {
      await page.locator(`#step-${i}-type`).selectOption('page');
      await page.locator(`#step-${i}-match`).selectOption(step.match);
      await page.locator(`#step-${i}-value`).fill(step.value);
    }
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.waitForLoadState();
    await expect.poll(() => page.locator('#preview [data-users]').count(), { timeout: 15_000 }).toBe(FUNNEL_STEPS.length);
    const users = (await page.locator('#preview [data-users]').allTextContents()).map((t) => Number(t.replace(/,/g, '')));
    if (project === PROJECT) {
      await page.getByRole('button', { name: 'Save funnel' }).click();
      await page.waitForURL(/\/funnels\?done=saved/);
    }
    await page.close();
    return users;
  }

  it('creates a project, connects Google and Bing through the sandbox, and reads the API’s and acme-shop’s numbers', async () => {
    const origin = demo.origins.localhost;
    await signIn(origin);
    const page = await open(origin, '/dashboard');
    await page.getByRole('link', { name: 'Create a project' }).click();
    await page.getByLabel('Name').fill('Acme Shop, connected by hand');
    await page.getByLabel('Key', { exact: true }).fill(PROJECT);
    await page.getByLabel('Domain').fill('www.acme-shop.example');
    await page.getByLabel('Time zone').fill('Europe/Berlin');
    await page.getByLabel('Currency').fill('EUR');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL(`${origin}/dashboard/p/${PROJECT}/sources?done=created`);

    await page.getByRole('button', { name: 'Connect Google' }).click();
    await page.waitForURL(new RegExp(`^${demo.rt.demo!.sandboxUrl}/o/oauth2/v2/auth`));
    await page.getByRole('button', { name: 'Allow' }).click();
    // Back at the host the user is on, where the session cookie is.
    await page.waitForURL(new RegExp(`^${origin}/dashboard/connect/google/`));
    expect(await page.getByLabel(/Acme Shop · www.acme-shop.example \(314159265\)/).isChecked()).toBe(true);
    expect(await page.getByLabel('https://www.acme-shop.example/').isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.waitForURL(/\/sources\?done=google/);
    expect(await page.getByRole('status').textContent()).toContain('Google is connected');

    await page.getByLabel('Bing Webmaster API key').fill(await demo.bingApiKey());
    await page.getByRole('button', { name: 'Check key' }).click();
    await page.getByRole('button', { name: 'Connect Bing' }).click();
    await page.waitForURL(/\/sources\?done=engine2/);
    expect(await page.locator('.status-ok').count()).toBe(3);

    await page.goto(`${origin}/dashboard/p/${PROJECT}`);
    expect(await page.getByRole('region', { name: 'Data sources' }).textContent()).not.toContain('Error');
    const site = await shownNumbers(page, 'metric');
    const search = await shownNumbers(page, 'search-metric');
    expect(site.sessions).toBeGreaterThan(0);
    expect(search.clicks).toBeGreaterThan(0);
    const [summary, seededSummary, searchSummary, seededSearch] = await Promise.all([
      api(`/metrics/${PROJECT}/summary`),
      api('/metrics/acme-shop/summary'),
      api(`/metrics/${PROJECT}/search/summary`),
      api('/metrics/acme-shop/search/summary'),
    ]);
    for (const [name, value] of Object.entries(site)) {
      expect(summary.metrics[name].value, name).toBe(value);
      expect(seededSummary.metrics[name].value, `acme-shop ${name}`).toBe(value);
    }
    for (const [name, value] of Object.entries(search)) {
      expect(searchSummary.totals[name].value, name).toBe(value);
      expect(seededSearch.totals[name].value, `acme-shop ${name}`).toBe(value);
    }
    expect(searchSummary.byProvider).toEqual(seededSearch.byProvider);
    await page.close();

    const preview = await previewUsers(origin, PROJECT);
    expect(preview[0]).toBeGreaterThan(0);
    expect(await previewUsers(origin, 'acme-shop')).toEqual(preview);
    const { funnels } = await api(`/projects/${PROJECT}/funnels/list`);
    const results = await api(`/funnels/${funnels[0].key}/results?period=28days`);
    expect(results.steps.map((s: { users: number }) => s.users)).toEqual(preview);

    expect(demo.real.calls).toEqual([]);
    expect(cspViolations).toEqual([]);
  }, 180_000);

  it('/account fits a 390 px screen and passes axe, signed in and out', async () => {
    await signIn(demo.origins.localhost);
    const page = await open(demo.origins.localhost, '/account');
    await checkPage(page, 'account-settings');
    await page.goto(`${demo.origins.localhost}/account/sign-out`);
    await checkPage(page, 'account-sign-out');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/account\/sign-in/);
    await checkPage(page, 'account-sign-in');
    await page.close();
  }, 90_000);
});
