// What a browser gets when something is off: HSTS on every answer of an https installation (redirects and problem
// JSON too), pages (not problem JSON) for unknown dashboard paths, oversized or non-form posts and refusals raised
// inside an action, each saying what happened.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, setAccountPassword } from '../../src/store/accounts-repository.ts';
import { BODY_LIMITS } from '../../src/http/read-body.ts';
import { accountActor } from '../../src/writes/actor.ts';
import { createProject } from '../../src/writes/project-writes.ts';
import { createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';
import { webClient, type WebClient } from './web-client.ts';

describe('HSTS', () => {
  it('is on every answer of an https installation, and on none of an http one', async () => {
    const https = await createTestRuntime({ env: { PUBLIC_URL: 'https://siteline.test' } });
    const http = await createTestRuntime();
    try {
      for (const path of ['/dashboard', '/healthz', '/api/v1/nothing-here', '/api/v1/projects/list', '/account/sign-in']) {
        const secure = await https.request(path);
        expect(secure.headers.get('strict-transport-security'), path).toBe('max-age=31536000');
        expect((await http.request(path)).headers.get('strict-transport-security'), path).toBeNull();
      }
      expect((await https.request('/dashboard')).status).toBe(302);
      expect((await https.request('/api/v1/nothing-here')).headers.get('content-type')).toContain('application/problem+json');
    } finally {
      await Promise.all([https.dispose(), http.dispose()]);
    }
  });
});

describe('dashboard answers that say what happened', () => {
  let rt: TestRuntime;
  let browser: WebClient;

  beforeAll(async () => {
    rt = await createTestRuntime();
    const account = await createAccount(rt.store.db, { email: 'a@example.com', name: 'A' });
    await setAccountPassword(rt.store.db, account.id, 'a long password');
    await createProject({ db: rt.store.db, clock: () => new Date() }, accountActor(account.id, 'dashboard'), { key: 'shop', name: 'Shop', domain: 'shop.example' });
    browser = webClient(rt);
    await browser.get('/account/sign-in');
    await browser.post('/account/sign-in', { email: 'a@example.com', password: 'a long password', return_to: '/dashboard' });
  });
  afterAll(() => rt.dispose());

  it('an unknown dashboard path is an HTML page, signed in or not', async () => {
    const anonymous = await rt.request('/dashboard/no/such/page');
    expect(anonymous.status).toBe(404);
    expect(anonymous.headers.get('content-type')).toContain('text/html');
    expect(await anonymous.text()).toContain('There is no dashboard page at /dashboard/no/such/page');
    const page = await browser.get('/dashboard/p/shop/nothing');
    expect(page.status).toBe(404);
    expect(page.html).toContain('Page not found');
    expect(page.html).toContain('Sign out');
  });

  it('a form over the size limit says it was too large, not that it expired', async () => {
    await browser.get('/dashboard/p/shop/settings');
    const big = await browser.post('/dashboard/p/shop/brand-terms', { brand_terms: 'x'.repeat(BODY_LIMITS.form + 1), action: 'save' });
    expect(big.status).toBe(413);
    expect(big.html).toMatch(/too large/i);
    expect(big.html).toContain(`${BODY_LIMITS.form / 1024} KiB`);
    expect(big.html).not.toContain('expired');
  });

  it('a refusal raised inside an action is a page too', async () => {
    await browser.get('/dashboard/p/shop/sources');
    const answer = await browser.post('/dashboard/p/shop/disconnect/engine2', { confirm: 'yes' });
    expect(answer.status).toBe(404);
    expect(answer.html).toContain('engine2 is not connected to shop');
    expect(answer.html).toContain('Nothing was changed');
  });
});

describe('an oversized form before signing in', () => {
  it('is an HTML page saying it was too large on /setup, /join and /signup (SIGNUP=open)', async () => {
    const rt = await createTestRuntime({ env: { SIGNUP: 'open' } });
    try {
      for (const path of ['/setup', '/join', '/signup']) {
        const headers = { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html,application/xhtml+xml', origin: 'http://siteline.test' };
        const res = await rt.request(path, { method: 'POST', headers, body: `csrf=x&name=${'x'.repeat(BODY_LIMITS.form)}` });
        expect(res.status, path).toBe(413);
        expect(res.headers.get('content-type'), path).toContain('text/html');
        const html = await res.text();
        expect(html, path).toMatch(/too large/i);
        expect(html, path).not.toContain('expired');
        expect(await rt.store.db.selectFrom('accounts').select('id').execute(), path).toEqual([]);
      }
    } finally {
      await rt.dispose();
    }
  });
});
