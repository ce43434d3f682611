// The authorization endpoint (mcp-notes §6 "Registration and authorization"): PKCE S256 required, bad client or
// redirect URI → error page without redirect, loopback port freedom, state + iss on the way back, RFC 8707
// resource checks, sign-in round trip, consent (deny, project choice) and its CSRF protection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizeQuery,
  consent,
  cookiesFrom,
  createOAuthFixture,
  form,
  hiddenField,
  pkce,
  PUBLIC_URL,
  registerClient,
  signIn,
  type OAuthFixture,
  type RegisteredClient,
} from './oauth-helpers.ts';

let fx: OAuthFixture;
let cookie: string;
let client: RegisteredClient;
const { challenge } = pkce();

beforeAll(async () => {
  fx = await createOAuthFixture();
  cookie = await signIn(fx.rt, fx.email);
  client = await registerClient(fx.rt, { redirect_uris: ['http://127.0.0.1:33418/callback', 'https://vscode.dev/redirect'] });
});
afterAll(() => fx.rt.dispose());

const get = (path: string, withCookie = true) => fx.rt.request(path, { headers: withCookie ? { cookie } : {} });

describe('GET /oauth/authorize: requests the client cannot be trusted with → error page, no redirect', () => {
  it.each([
    ['an unknown client_id', { client_id: 'slc_doesnotexist' }],
    ['no client_id', { client_id: undefined }],
    ['an unregistered redirect_uri', { redirect_uri: 'https://evil.example/steal' }],
    ['a loopback redirect_uri with another path', { redirect_uri: 'http://127.0.0.1:33418/elsewhere' }],
  ])('%s', async (_what, extra) => {
    const res = await get(authorizeQuery(client, challenge, extra));
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toContain('This connection cannot continue');
  });

  it('a client with several redirect URIs must name one', async () => {
    const res = await get(authorizeQuery(client, challenge, { redirect_uri: undefined }));
    expect(res.status).toBe(400);
  });
});

describe('GET /oauth/authorize: bad requests from a known client → redirect with error, state and iss', () => {
  it.each([
    ['no code_challenge', { code_challenge: undefined }, 'invalid_request'],
    ['code_challenge_method=plain', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['no code_challenge_method (defaults to plain)', { code_challenge_method: undefined }, 'invalid_request'],
    ['a malformed challenge', { code_challenge: 'short' }, 'invalid_request'],
    ['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
    ['another resource', { resource: 'https://other.example/api/mcp' }, 'invalid_target'],
    ['the REST API as resource', { resource: `${PUBLIC_URL}/api/v1` }, 'invalid_target'],
  ])('%s → %s, on a page (never a redirect: self-registered clients must not turn Siteline into a redirector)', async (_what, extra, error) => {
    const res = await get(authorizeQuery(client, challenge, extra));
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain(error);
  });

  it('a repeated parameter is invalid_request', async () => {
    const res = await get(`${authorizeQuery(client, challenge)}&scope=mcp:write`);
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain('invalid_request');
  });
});

describe('GET /oauth/authorize: good requests', () => {
  it('sends a signed-out browser to sign in, and back to the same request afterwards', async () => {
    const path = authorizeQuery(client, challenge);
    const res = await get(path, false);
    expect(res.status).toBe(302);
    const signInUrl = new URL(res.headers.get('location')!, PUBLIC_URL);
    expect(signInUrl.pathname).toBe('/account/sign-in');
    expect(signInUrl.searchParams.get('return_to')).toBe(path);

    const page = await fx.rt.request(signInUrl.pathname + signInUrl.search);
    const html = await page.text();
    expect(html).toContain('An app asked to connect');
    const body = form({ csrf: hiddenField(html, 'csrf'), return_to: hiddenField(html, 'return_to'), email: fx.email, password: 'correct horse battery' });
    const signedIn = await fx.rt.request('/account/sign-in', { method: 'POST', headers: { ...body.headers, cookie: cookiesFrom(page) }, body: body.body });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe(path);
  });

  it('shows the consent screen: client name, scopes in words, where it returns to, the projects', async () => {
    const res = await get(authorizeQuery(client, challenge, { scope: 'read mcp:write offline_access' }));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Test client</span> <span class="badge" id="client-unverified">unverified</span> wants to access your Siteline account');
    expect(html).toContain('Read the analytics, search and funnel data');
    expect(html).toContain('Create funnels');
    expect(html).toContain('<strong>127.0.0.1:33418</strong>');
    expect(html).toContain('value="shop"');
    expect(html).toContain('value="blog"');
    expect(res.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:33418");
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('approval redirects with code, the original state and iss; a loopback URI on another port is accepted', async () => {
    const location = await consent(fx.rt, cookie, authorizeQuery(client, challenge, { redirect_uri: 'http://127.0.0.1:50999/callback', state: 'xyz/+ =' }));
    expect(location.origin).toBe('http://127.0.0.1:50999');
    expect(location.pathname).toBe('/callback');
    expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(location.searchParams.get('state')).toBe('xyz/+ =');
    expect(location.searchParams.get('iss')).toBe(PUBLIC_URL);
  });

  it('works without a resource parameter (defaults to the MCP resource) and with an uppercase host', async () => {
    expect((await consent(fx.rt, cookie, authorizeQuery(client, challenge, { resource: undefined }))).searchParams.get('code')).toBeTruthy();
    expect((await consent(fx.rt, cookie, authorizeQuery(client, challenge, { resource: 'HTTP://SITELINE.TEST/api/mcp' }))).searchParams.get('code')).toBeTruthy();
  });

  it('denial redirects with access_denied, state and iss, and no code', async () => {
    const location = await consent(fx.rt, cookie, authorizeQuery(client, challenge), 'deny');
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('st-123');
    expect(location.searchParams.get('iss')).toBe(PUBLIC_URL);
    expect(location.searchParams.get('code')).toBeNull();
  });
});

describe('POST /oauth/authorize (the consent form)', () => {
  async function consentForm(extra: Record<string, string | string[] | undefined>, headers: Record<string, string> = {}): Promise<Response> {
    const page = await get(authorizeQuery(client, challenge));
    const html = await page.text();
    const fields: Record<string, string | string[] | undefined> = { decision: 'approve', project: ['shop', 'blog'] };
    for (const name of ['csrf', 'response_type', 'client_id', 'redirect_uri', 'state', 'scope', 'code_challenge', 'code_challenge_method', 'resource']) fields[name] = hiddenField(html, name);
    const body = form({ ...fields, ...extra });
    return fx.rt.request('/oauth/authorize', { method: 'POST', headers: { ...body.headers, cookie, ...headers }, body: body.body });
  }

  it('refuses a missing or wrong CSRF token and a cross-site Origin', async () => {
    expect((await consentForm({ csrf: 'forged' })).status).toBe(403);
    expect((await consentForm({ csrf: undefined })).status).toBe(403);
    expect((await consentForm({}, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await consentForm({}, { origin: PUBLIC_URL })).status).toBe(303);
  });

  it('re-checks the request: tampering with redirect_uri in the form gives the error page', async () => {
    const res = await consentForm({ redirect_uri: 'https://evil.example/steal' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });

  it('insists on at least one project', async () => {
    const res = await consentForm({ project: [] });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('Select at least one project');
  });

  it('without a session, sends the browser to sign in', async () => {
    const body = form({ client_id: client.client_id, decision: 'approve' });
    const res = await fx.rt.request('/oauth/authorize', { method: 'POST', headers: body.headers, body: body.body });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^\/account\/sign-in\?return_to=/);
  });
});
