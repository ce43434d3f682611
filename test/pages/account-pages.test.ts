// The account pages in-process: security headers and a nonce-only CSP, cookie flags, CSRF and cross-site
// refusals, sign-in limits per IP and per account, safe return paths, sign-out, and the settings page (keys
// shown once, rotate, revoke, connected apps, projects with data-source status, funnels, escaping).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSource, setSourceStatus } from '../../src/store/data-sources-repository.ts';
import { createFunnel } from '../../src/store/funnels-repository.ts';
import { getProjectByKey } from '../../src/store/projects-repository.ts';
import { createAccount, setAccountPassword } from '../../src/store/accounts-repository.ts';
import { createTestRuntime } from '../helpers/test-runtime.ts';
import { authorizeAndExchange, cookiesFrom, createOAuthFixture, form, hiddenField, PASSWORD, signIn, type OAuthFixture } from '../oauth/oauth-helpers.ts';

let fx: OAuthFixture;
beforeAll(async () => {
  fx = await createOAuthFixture();
  const shop = (await getProjectByKey(fx.rt.store.db, 'shop'))!;
  await connectSource(fx.rt.store.db, fx.rt.box, shop.id, 'analytics', { propertyId: '123456', credential: { kind: 'service_account', secret: JSON.stringify({ type: 'service_account', client_email: 'a@b.iam.gserviceaccount.com', private_key: 'k' }) } });
  await connectSource(fx.rt.store.db, fx.rt.box, shop.id, 'engine2', { siteUrl: 'https://shop.example/', credential: { kind: 'api_key', secret: 'bing-key-0123456789' } });
  await setSourceStatus(fx.rt.store.db, shop.id, 'engine2', 'error', 'Bing rejected the API key');
  await createFunnel(fx.rt.store.db, {
    projectId: shop.id,
    name: 'Checkout <flow>',
    key: 'checkout',
    createdVia: 'cli',
    steps: [
      { name: 'Cart', type: 'page', match: 'begins_with', value: '/cart' },
      { name: 'Paid', type: 'event', match: 'exact', value: 'purchase' },
    ],
  });
});
afterAll(() => fx.rt.dispose());

async function signInForm(extra: Record<string, string | undefined> = {}, headers: Record<string, string> = {}) {
  const page = await fx.rt.request('/account/sign-in');
  const body = form({ csrf: hiddenField(await page.text(), 'csrf'), email: fx.email, password: PASSWORD, return_to: '/account', ...extra });
  return fx.rt.request('/account/sign-in', { method: 'POST', headers: { ...body.headers, cookie: cookiesFrom(page), ...headers }, body: body.body });
}

describe('sign-in page', () => {
  it('sends signed-out visitors of /account to sign in', async () => {
    const res = await fx.rt.request('/account');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/account/sign-in?return_to=%2Faccount');
  });

  it('carries the security headers; the CSP allows only the nonce-tagged inline style', async () => {
    const res = await fx.rt.request('/account/sign-in');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    const nonce = /style-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(await res.text()).toContain(`<style nonce="${nonce}">`);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('signs in: HttpOnly, SameSite=Lax session cookie (not Secure on http) and a redirect to the return path', async () => {
    const res = await signInForm();
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/account');
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('siteline_session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/);
  });

  it('on https uses a __Host- cookie with Secure, and sends HSTS', async () => {
    const rt = await createTestRuntime({ env: { PUBLIC_URL: 'https://siteline.example' } });
    try {
      const account = await createAccount(rt.store.db, { email: 's@example.com', name: 'S' });
      await setAccountPassword(rt.store.db, account.id, PASSWORD);
      const page = await rt.request('/account/sign-in');
      expect(page.headers.get('strict-transport-security')).toMatch(/max-age=/);
      const body = form({ csrf: hiddenField(await page.text(), 'csrf'), email: 's@example.com', password: PASSWORD });
      const res = await rt.request('/account/sign-in', { method: 'POST', headers: { ...body.headers, cookie: cookiesFrom(page) }, body: body.body });
      const cookie = res.headers.getSetCookie().find((c) => c.startsWith('__Host-siteline_session='))!;
      expect(cookie).toMatch(/; Secure/);
    } finally {
      await rt.dispose();
    }
  });

  it('refuses a post without the form token, with a forged one, or from another origin', async () => {
    const body = form({ email: fx.email, password: PASSWORD });
    expect((await fx.rt.request('/account/sign-in', { method: 'POST', headers: body.headers, body: body.body })).status).toBe(403);
    expect((await signInForm({ csrf: 'forged' })).status).toBe(403);
    const crossSite = await signInForm({}, { origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.getSetCookie().some((c) => c.startsWith('siteline_session='))).toBe(false);
  });

  it.each(['//evil.example/x', 'https://evil.example/', '/\\evil.example'])('never returns to %s', async (target) => {
    const res = await signInForm({ return_to: target });
    expect(res.headers.get('location')).toBe('/account');
  });

  it('a wrong password: 400, the same message for unknown emails, escaped echo, no session', async () => {
    const wrong = await signInForm({ password: 'nope-nope' });
    expect(wrong.status).toBe(400);
    const unknown = await signInForm({ email: '<b>x</b>@example.com' });
    const html = await unknown.text();
    expect(html).toContain('The email or password is not correct.');
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;@example.com');
    expect(html).not.toContain('<b>x</b>');
    expect(unknown.headers.getSetCookie().some((c) => c.startsWith('siteline_session='))).toBe(false);
  });
});

describe('sign-in limits', () => {
  // Every wrong password costs a real scrypt check at the production cost, slow on a busy machine.
  it('locks one account after 10 failures (others still get through), and one IP after 20', { timeout: 180_000 }, async () => {
    const limited = await createOAuthFixture();
    const attempt = async (email: string, password: string) => {
      const page = await limited.rt.request('/account/sign-in');
      const body = form({ csrf: hiddenField(await page.text(), 'csrf'), email, password });
      return limited.rt.request('/account/sign-in', { method: 'POST', headers: { ...body.headers, cookie: cookiesFrom(page) }, body: body.body });
    };
    try {
      for (let i = 0; i < 10; i += 1) expect((await attempt(limited.email, 'wrong-password')).status).toBe(400);
      const locked = await attempt(limited.email, PASSWORD);
      expect(locked.status).toBe(429);
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await locked.text()).toContain('Too many failed sign-ins');
      // Another account from the same address is not locked yet…
      expect((await attempt('other@example.com', 'wrong-password')).status).toBe(400);
      for (let i = 0; i < 9; i += 1) await attempt(`guess${i}@example.com`, 'wrong-password');
      // …until the address itself has failed 20 times.
      expect((await attempt('fresh@example.com', 'whatever-pw')).status).toBe(429);
    } finally {
      await limited.rt.dispose();
    }
  });
});

describe('sign-out', () => {
  it('needs the form token, then ends the session server-side', async () => {
    const cookie = await signIn(fx.rt, fx.email);
    const page = await fx.rt.request('/account/sign-out', { headers: { cookie } });
    const csrf = hiddenField(await page.text(), 'csrf');
    const forged = form({ csrf: 'forged' });
    expect((await fx.rt.request('/account/sign-out', { method: 'POST', headers: { ...forged.headers, cookie }, body: forged.body })).status).toBe(403);
    const body = form({ csrf });
    const res = await fx.rt.request('/account/sign-out', { method: 'POST', headers: { ...body.headers, cookie }, body: body.body });
    expect(res.status).toBe(303);
    expect(res.headers.getSetCookie()[0]).toMatch(/^siteline_session=; .*Max-Age=0/);
    // The old cookie no longer opens the account page.
    expect((await fx.rt.request('/account', { headers: { cookie } })).status).toBe(302);
  });
});

describe('settings page', () => {
  let cookie: string;
  let csrf: string;
  beforeAll(async () => {
    cookie = await signIn(fx.rt, fx.email);
    csrf = hiddenField(await (await fx.rt.request('/account', { headers: { cookie } })).text(), 'csrf');
  });
  const post = (path: string, fields: Record<string, string | string[]>) => {
    const body = form({ csrf, ...fields });
    return fx.rt.request(path, { method: 'POST', headers: { ...body.headers, cookie }, body: body.body });
  };

  it('lists projects with data-source status and funnels, escaped', async () => {
    const html = await (await fx.rt.request('/account', { headers: { cookie } })).text();
    expect(html).toContain('<code>shop</code>');
    expect(html).toContain('<code>blog</code>');
    expect(html).toMatch(/class="status-pending">connected, not read yet<\/span><br><span class="muted">123456/);
    expect(html).toContain('Bing rejected the API key');
    expect(html).toMatch(/class="status-not_connected">not connected/);
    expect(html).toContain('Checkout &lt;flow&gt;');
    expect(html).toContain('Cart → Paid');
  });

  it('creates a key: shown once in the response, never again; it works against the REST API', async () => {
    const res = await post('/account/keys', { name: 'Reporting', scope: ['read', 'raw'], expires_days: '30' });
    expect(res.status).toBe(201);
    const html = await res.text();
    const key = /<code id="new-key">([^<]+)<\/code>/.exec(html)?.[1];
    expect(key).toMatch(/^sl_live_/);
    const nonce = /script-src 'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
    expect(html).toContain(`<script nonce="${nonce}">`);
    expect((await fx.rt.request('/api/v1/projects/list', { key })).status).toBe(200);
    const again = await (await fx.rt.request('/account', { headers: { cookie } })).text();
    expect(again).not.toContain(key!);
    expect(again).toContain('Reporting');
    expect(again).toContain('read raw');
  });

  it('rotates (new key shown, old one in grace) and revokes (401 afterwards)', async () => {
    const created = await (await post('/account/keys', { name: 'Rotating', scope: 'read' })).text();
    const oldKey = /<code id="new-key">([^<]+)<\/code>/.exec(created)![1]!;
    const keyId = (await fx.deps().apiKeys.list(fx.accountId)).find((k) => k.name === 'Rotating')!.id;
    const rotated = await post('/account/keys/rotate', { key_id: keyId });
    const newKey = /<code id="new-key">([^<]+)<\/code>/.exec(await rotated.text())![1]!;
    expect(newKey).not.toBe(oldKey);
    expect((await fx.rt.request('/api/v1/projects/list', { key: oldKey })).status).toBe(200);
    // The first post only asks: a confirmation page whose form sends the same key with confirm=yes.
    const asked = await post('/account/keys/revoke', { key_id: keyId });
    expect(asked.status).toBe(200);
    const confirmation = await asked.text();
    expect(confirmation).toContain('Revoke this key?');
    expect(confirmation).toContain('name="confirm" value="yes"');
    expect((await fx.rt.request('/api/v1/projects/list', { key: oldKey })).status).toBe(200);
    const revoke = await post('/account/keys/revoke', { key_id: keyId, confirm: 'yes' });
    expect(revoke.status).toBe(303);
    expect(revoke.headers.get('location')).toBe('/account?done=key-revoked');
    expect((await fx.rt.request('/api/v1/projects/list', { key: oldKey })).status).toBe(401);
    expect((await fx.rt.request('/api/v1/projects/list', { key: newKey })).status).toBe(200);
  });

  it('shows errors inline: an empty name, a key of another account', async () => {
    const empty = await post('/account/keys', { name: '   ' });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain('The key name must be 1–100 characters.');
    const foreign = await post('/account/keys/revoke', { key_id: 'key_notmine', confirm: 'yes' });
    expect(foreign.status).toBe(404);
  });

  it('refuses key creation without the form token or from another origin', async () => {
    const body = form({ name: 'Sneaky' });
    expect((await fx.rt.request('/account/keys', { method: 'POST', headers: { ...body.headers, cookie }, body: body.body })).status).toBe(403);
    const crossSite = form({ csrf, name: 'Sneaky' });
    expect((await fx.rt.request('/account/keys', { method: 'POST', headers: { ...crossSite.headers, cookie, origin: 'https://evil.example' }, body: crossSite.body })).status).toBe(403);
    expect((await fx.deps().apiKeys.list(fx.accountId)).some((k) => k.name === 'Sneaky')).toBe(false);
  });

  it('lists connected apps and disconnects one', async () => {
    const { tokens } = await authorizeAndExchange(fx, { cookie, scope: 'read mcp:write' });
    const html = await (await fx.rt.request('/account', { headers: { cookie } })).text();
    expect(html).toContain('Test client');
    const grantId = /name="grant_id" value="([^"]+)"/.exec(html)![1]!;
    expect(await (await post('/account/apps/revoke', { grant_id: grantId })).text()).toContain('Disconnect this app?');
    const res = await post('/account/apps/revoke', { grant_id: grantId, confirm: 'yes' });
    expect(res.headers.get('location')).toBe('/account?done=app-revoked');
    const body = form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: 'ignored' });
    expect((await fx.rt.request('/oauth/token', { method: 'POST', headers: body.headers, body: body.body })).status).toBeGreaterThanOrEqual(400);
    expect(await (await fx.rt.request('/account?done=app-revoked', { headers: { cookie } })).text()).toContain('The app was disconnected.');
  });
});

describe('the host the server is reached at', () => {
  /** Signs in with every request sent to `origin` (the Host and Origin a browser there would send). */
  async function signInAt(rt: Awaited<ReturnType<typeof createTestRuntime>>, origin: string, email: string): Promise<Response> {
    const page = await rt.app.request(`${origin}/account/sign-in`);
    const body = form({ csrf: hiddenField(await page.text(), 'csrf'), email, password: PASSWORD, return_to: '/account' });
    return rt.app.request(`${origin}/account/sign-in`, { method: 'POST', headers: { ...body.headers, cookie: cookiesFrom(page), origin }, body: body.body });
  }

  it('without PUBLIC_URL, signs in at localhost and at 127.0.0.1 alike, and refuses another site', async () => {
    const rt = await createTestRuntime({ env: { PUBLIC_URL: '', HOST: '127.0.0.1', PORT: '3000' } });
    try {
      const account = await createAccount(rt.store.db, { email: 'local@example.com', name: 'Local' });
      await setAccountPassword(rt.store.db, account.id, PASSWORD);
      for (const origin of ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000']) {
        const res = await signInAt(rt, origin, 'local@example.com');
        expect(res.status, origin).toBe(303);
        expect(res.headers.getSetCookie().some((c) => c.startsWith('siteline_session=')), origin).toBe(true);
      }
      for (const origin of ['http://localhost:3001', 'http://evil.example']) {
        const page = await rt.app.request('http://localhost:3000/account/sign-in');
        const body = form({ csrf: hiddenField(await page.text(), 'csrf'), email: 'local@example.com', password: PASSWORD });
        const res = await rt.app.request('http://localhost:3000/account/sign-in', { method: 'POST', headers: { ...body.headers, cookie: cookiesFrom(page), origin }, body: body.body });
        expect(res.status, origin).toBe(403);
      }
    } finally {
      await rt.dispose();
    }
  });

  it('with a public PUBLIC_URL, a form posted from localhost is another site', async () => {
    const res = await signInForm({}, { origin: 'http://localhost:3000' });
    expect(res.status).toBe(403);
  });
});
