// Drives the OAuth flow in-process (app.request, no port): a signed-in browser session, client registration,
// PKCE, the consent form, and the token endpoint.
import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { WebDeps } from '../../src/account/web-deps.ts';
import { setAccountPassword } from '../../src/store/accounts-repository.ts';
import { createAccountWithKey, createTestRuntime, type TestRuntime, type TestRuntimeOptions } from '../helpers/test-runtime.ts';

export const PUBLIC_URL = 'http://siteline.test';
export const RESOURCE = `${PUBLIC_URL}/api/mcp`;
export const PASSWORD = 'correct horse battery';

export interface OAuthFixture {
  rt: TestRuntime;
  accountId: string;
  email: string;
  apiKey: string;
  /** The OAuth server and account-page dependencies the runtime built. */
  deps(): WebDeps;
}

export async function createOAuthFixture(options: TestRuntimeOptions & { projects?: string[] } = {}): Promise<OAuthFixture> {
  const rt = await createTestRuntime(options);
  const email = `ada-${randomBytes(3).toString('hex')}@example.com`;
  const { accountId, key } = await createAccountWithKey(rt, { email, projects: options.projects ?? ['shop', 'blog'] });
  await setAccountPassword(rt.store.db, accountId, PASSWORD);
  return {
    rt,
    accountId,
    email,
    apiKey: key,
    deps() {
      if (!rt.deps.web) throw new Error('the runtime has no web deps');
      return rt.deps.web;
    },
  };
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function cookiesFrom(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .filter((c) => !c?.endsWith('='))
    .join('; ');
}

export function hiddenField(html: string, name: string): string {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  if (!match?.[1]) throw new Error(`no hidden field ${name}`);
  return match[1].replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
}

export function form(fields: Record<string, string | string[] | undefined>): { headers: Record<string, string>; body: string } {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) params.append(name, v);
  }
  return { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: params.toString() };
}

/** Signs in through the sign-in form; returns the session cookie header. */
export async function signIn(rt: TestRuntime, email: string, password = PASSWORD): Promise<string> {
  const page = await rt.request('/account/sign-in');
  const preCookie = cookiesFrom(page);
  const csrf = hiddenField(await page.text(), 'csrf');
  const body = form({ csrf, email, password, return_to: '/account' });
  const response = await rt.request('/account/sign-in', { method: 'POST', headers: { ...body.headers, cookie: preCookie }, body: body.body });
  expect(response.status).toBe(303);
  return cookiesFrom(response);
}

export interface RegisteredClient {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
}

export async function registerClient(rt: TestRuntime, metadata: Record<string, unknown> = {}): Promise<RegisteredClient> {
  const response = await rt.request('/oauth/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Test client', redirect_uris: ['http://127.0.0.1:33418/callback'], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], ...metadata }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as RegisteredClient;
}

export function authorizeQuery(client: RegisteredClient, challenge: string, extra: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: client.redirect_uris[0]!,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st-123',
    scope: 'read',
    resource: RESOURCE,
  });
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) params.delete(name);
    else params.set(name, value);
  }
  return `/oauth/authorize?${params}`;
}

/** Opens the consent screen and submits it; returns the redirect Location. */
export async function consent(rt: TestRuntime, cookie: string, path: string, decision: 'approve' | 'deny' = 'approve', projects?: string[]): Promise<URL> {
  const page = await rt.request(path, { headers: { cookie } });
  expect(page.status).toBe(200);
  const html = await page.text();
  const fields: Record<string, string | string[] | undefined> = { decision };
  for (const name of ['csrf', 'response_type', 'client_id', 'redirect_uri', 'state', 'scope', 'code_challenge', 'code_challenge_method', 'resource']) {
    if (html.includes(`name="${name}" value=`)) fields[name] = hiddenField(html, name);
  }
  fields.project = projects ?? [...html.matchAll(/name="project" value="([^"]+)"/g)].map((m) => m[1]!);
  const body = form(fields);
  const response = await rt.request('/oauth/authorize', { method: 'POST', headers: { ...body.headers, cookie }, body: body.body });
  expect(response.status).toBe(303);
  return new URL(response.headers.get('location')!);
}

export async function tokenRequest(rt: TestRuntime, fields: Record<string, string | undefined>, headers: Record<string, string> = {}): Promise<Response> {
  const body = form(fields);
  return rt.request('/oauth/token', { method: 'POST', headers: { ...body.headers, ...headers }, body: body.body });
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
}

/** The whole code flow for a fresh public client; returns the client, verifier and tokens. */
export async function authorizeAndExchange(
  fixture: OAuthFixture,
  options: { scope?: string; projects?: string[]; cookie?: string } = {},
): Promise<{ client: RegisteredClient; tokens: Tokens; cookie: string }> {
  const cookie = options.cookie ?? (await signIn(fixture.rt, fixture.email));
  const client = await registerClient(fixture.rt);
  const { verifier, challenge } = pkce();
  const location = await consent(fixture.rt, cookie, authorizeQuery(client, challenge, { scope: options.scope ?? 'read' }), 'approve', options.projects);
  const code = location.searchParams.get('code');
  expect(code).toBeTruthy();
  const response = await tokenRequest(fixture.rt, {
    grant_type: 'authorization_code',
    code: code!,
    code_verifier: verifier,
    client_id: client.client_id,
    redirect_uri: client.redirect_uris[0],
    resource: RESOURCE,
  });
  expect(response.status).toBe(200);
  return { client, tokens: (await response.json()) as Tokens, cookie };
}

/** A fresh code (and its verifier) approved through the consent form. */
export async function codeFor(rt: TestRuntime, cookie: string, client: RegisteredClient, scope = 'read'): Promise<{ code: string; verifier: string }> {
  const { verifier, challenge } = pkce();
  const location = await consent(rt, cookie, authorizeQuery(client, challenge, { scope }));
  return { code: location.searchParams.get('code')!, verifier };
}

/** POST /oauth/token with grant_type=authorization_code for a public client; `extra` overrides or drops fields. */
export function exchangeCode(rt: TestRuntime, client: RegisteredClient, code: string, verifier: string | undefined, extra: Record<string, string | undefined> = {}): Promise<Response> {
  return tokenRequest(rt, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    client_id: client.client_id,
    redirect_uri: client.redirect_uris[0],
    resource: RESOURCE,
    ...extra,
  });
}

/** POST /oauth/token with grant_type=refresh_token for a public client. */
export function refreshWith(rt: TestRuntime, client: RegisteredClient, refreshToken: string, extra: Record<string, string> = {}): Promise<Response> {
  return tokenRequest(rt, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: client.client_id, resource: RESOURCE, ...extra });
}

/** The `error` of an OAuth JSON error answer. */
export async function oauthErrorOf(res: Response): Promise<string> {
  return ((await res.json()) as { error: string }).error;
}
