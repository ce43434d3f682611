// Google's web-server flow against the sandbox through the production client (google-auth-library + the official
// Admin and Search Console clients): consent → code → tokens → pickers; Cancel, a wrong redirect_uri or PKCE
// verifier, and revocation answer as Google does.
import { beforeAll, describe, expect, it } from 'vitest';
import { inProcessEndpoints } from '../../src/providers/endpoints.ts';
import { googleWebEndpointsOf } from '../../src/providers/google-web/google-web-endpoints.ts';
import { createGoogleWebFlow, googleErrorCode, type GoogleWebFlow } from '../../src/providers/google-web/google-web-flow.ts';
import { createProviderClients } from '../../src/providers/provider-clients.ts';
import type { Sandbox } from '../../src/sandbox/sandbox.ts';
import { testSandbox } from './helpers.ts';

const REDIRECT = 'http://siteline.test/dashboard/connect/google/callback';
let sandbox: Sandbox;
let flow: GoogleWebFlow;

beforeAll(async () => {
  sandbox = await testSandbox({ now: () => new Date() });
  const c = sandbox.credentials.oauthClient;
  flow = createGoogleWebFlow({ clientId: c.client_id, clientSecret: c.client_secret }, googleWebEndpointsOf(inProcessEndpoints((r) => sandbox.fetch(r))));
});

/** Plays the browser on the consent page: submits its form with the decision; returns the redirect's query. */
async function consent(url: string, decision: 'allow' | 'cancel'): Promise<URLSearchParams> {
  const page = await sandbox.fetch(new Request(url));
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('Google Analytics data');
  const form = new URLSearchParams([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))]));
  form.set('decision', decision);
  const answer = await sandbox.fetch(new Request('http://sandbox.invalid/o/oauth2/v2/auth', { method: 'POST', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } }));
  expect(answer.status).toBe(302);
  const location = new URL(answer.headers.get('location')!);
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
  return location.searchParams;
}

describe('sandbox web-server flow', () => {
  it('consent → code (PKCE) → refresh token that lists properties and sites and reads data → revoke', async () => {
    const started = await flow.start({ state: 'st4te', redirectUri: REDIRECT });
    const auth = new URL(started.url);
    expect(auth.pathname).toBe('/o/oauth2/v2/auth');
    expect(auth.searchParams.get('access_type')).toBe('offline');
    expect(auth.searchParams.get('include_granted_scopes')).toBe('true');
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    const back = await consent(started.url, 'allow');
    expect(back.get('state')).toBe('st4te');
    const tokens = await flow.exchange({ code: back.get('code')!, verifier: started.verifier, redirectUri: REDIRECT });
    expect(tokens.refreshToken).toMatch(/^1\/\/0sbxweb\./);

    const properties = await flow.listProperties(tokens);
    expect(properties.map((p) => p.propertyId)).toEqual(sandbox.catalogue.map((s) => s.analytics.propertyId));
    const sites = await flow.listSites(tokens);
    expect(sites.map((s) => s.siteUrl)).toContain('https://www.acme-shop.example/');

    const credential = { client_id: sandbox.credentials.oauthClient.client_id, client_secret: sandbox.credentials.oauthClient.client_secret, refresh_token: tokens.refreshToken };
    const clients = createProviderClients({ endpoints: inProcessEndpoints((r) => sandbox.fetch(r)) });
    const report = await clients.analytics(credential, '314159265').runReport({ dateRanges: [{ startDate: '7daysAgo', endDate: 'yesterday' }], metrics: [{ name: 'sessions' }] });
    expect(report.rows.length).toBeGreaterThan(0);

    await flow.revoke(tokens.refreshToken);
    // The access token is refused, and so is the refresh the client then tries.
    const refused = await flow.listProperties(tokens).catch((error: unknown) => error);
    expect(googleErrorCode(refused)).toBe('invalid_grant');
    const fresh = createProviderClients({ endpoints: inProcessEndpoints((r) => sandbox.fetch(r)) });
    const failed = await fresh.analytics(credential, '314159265').runReport({ dateRanges: [{ startDate: '7daysAgo', endDate: 'yesterday' }], metrics: [{ name: 'sessions' }] }).catch((error: unknown) => error);
    expect((failed as { code?: string }).code).toBe('upstream_credential_invalid');
  });

  it('Cancel returns error=access_denied with the state', async () => {
    const started = await flow.start({ state: 'abc', redirectUri: REDIRECT });
    const back = await consent(started.url, 'cancel');
    expect(back.get('error')).toBe('access_denied');
    expect(back.get('state')).toBe('abc');
    expect(back.has('code')).toBe(false);
  });

  it('a code is bound to its redirect_uri and PKCE verifier, and is single-use', async () => {
    const started = await flow.start({ state: 's', redirectUri: REDIRECT });
    const code = (await consent(started.url, 'allow')).get('code')!;
    const wrongVerifier = await flow.exchange({ code, verifier: 'x'.repeat(50), redirectUri: REDIRECT }).catch((e: unknown) => e);
    expect(googleErrorCode(wrongVerifier)).toBe('invalid_grant');

    const second = await flow.start({ state: 's', redirectUri: REDIRECT });
    const code2 = (await consent(second.url, 'allow')).get('code')!;
    const wrongRedirect = await flow.exchange({ code: code2, verifier: second.verifier, redirectUri: 'http://evil.test/cb' }).catch((e: unknown) => e);
    expect(googleErrorCode(wrongRedirect)).toBe('redirect_uri_mismatch');
    const reused = await flow.exchange({ code: code2, verifier: second.verifier, redirectUri: REDIRECT }).catch((e: unknown) => e);
    expect(googleErrorCode(reused)).toBe('invalid_grant');
  });

  it('an unknown client gets an error page, not a redirect', async () => {
    const started = await flow.start({ state: 's', redirectUri: REDIRECT });
    const url = new URL(started.url);
    url.searchParams.set('client_id', 'someone-else.apps.googleusercontent.com');
    const page = await sandbox.fetch(new Request(url));
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('invalid_client');
  });
});
