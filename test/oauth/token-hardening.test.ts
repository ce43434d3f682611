// Token endpoint hardening: a code is spent only by a request that proves the client and PKCE; concurrent
// refreshes by the legitimate client inside the reuse window keep the grant (RFC 9700 §4.14.2) while a reuse
// after it revokes the grant; registered grant_types are enforced and scopes beyond the registered ones are marked on the consent screen; /oauth/token and /oauth/revoke are
// rate limited per address; the consent page says the client's name is unverified.
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_LIMIT } from '../../src/auth/oauth/oauth-server.ts';
import { findGrant } from '../../src/store/oauth-grants-repository.ts';
import {
  authorizeAndExchange,
  authorizeQuery,
  codeFor as codeForHelper,
  createOAuthFixture,
  exchangeCode,
  form,
  oauthErrorOf,
  pkce,
  refreshWith,
  registerClient,
  signIn,
  type OAuthFixture,
  type RegisteredClient,
  type Tokens,
} from './oauth-helpers.ts';

let now = new Date('2026-11-20T10:00:00Z');
let fx: OAuthFixture;
let cookie: string;
beforeAll(async () => {
  fx = await createOAuthFixture({ clock: () => now });
  cookie = await signIn(fx.rt, fx.email);
});
afterAll(() => fx.rt.dispose());

const codeFor = (client: RegisteredClient, scope = 'read') => codeForHelper(fx.rt, cookie, client, scope);
const exchange = (client: RegisteredClient, code: string, verifier: string, extra: Record<string, string> = {}) => exchangeCode(fx.rt, client, code, verifier, extra);
const refresh = (client: RegisteredClient, refreshToken: string) => refreshWith(fx.rt, client, refreshToken);
const errorOf = oauthErrorOf;

describe('authorization codes are spent only after client and PKCE checks', () => {
  it('a wrong verifier, redirect_uri or client does not burn the code', async () => {
    const client = await registerClient(fx.rt);
    const other = await registerClient(fx.rt);
    const { code, verifier } = await codeFor(client);
    expect(await errorOf(await exchange(client, code, pkce().verifier))).toBe('invalid_grant');
    expect(await errorOf(await exchange(client, code, verifier, { redirect_uri: 'http://127.0.0.1:9/elsewhere' }))).toBe('invalid_grant');
    expect(await errorOf(await exchange(other, code, verifier))).toBe('invalid_grant');
    const res = await exchange(client, code, verifier);
    expect(res.status).toBe(200);
    const grant = await findGrant(fx.rt.store.db, decodeJwt(((await res.json()) as Tokens).access_token).gid as string);
    expect(grant?.revokedAt).toBeNull();
  });
});

describe('refresh token reuse window', () => {
  it('two concurrent refreshes with one token both succeed and keep the grant', async () => {
    const { client, tokens } = await authorizeAndExchange(fx, { cookie });
    const [a, b] = await Promise.all([refresh(client, tokens.refresh_token), refresh(client, tokens.refresh_token)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const [ta, tb] = [(await a.json()) as Tokens, (await b.json()) as Tokens];
    const grant = await findGrant(fx.rt.store.db, decodeJwt(ta.access_token).gid as string);
    expect(grant?.revokedAt).toBeNull();
    expect((await refresh(client, ta.refresh_token)).status).toBe(200);
    expect((await refresh(client, tb.refresh_token)).status).toBe(200);
  });

  it('a retry inside the window succeeds; the same token after the window revokes the grant', async () => {
    const { client, tokens } = await authorizeAndExchange(fx, { cookie });
    expect((await refresh(client, tokens.refresh_token)).status).toBe(200);
    now = new Date(now.getTime() + (fx.deps().oauth.config.refreshReuseWindowSec - 1) * 1000);
    const retry = await refresh(client, tokens.refresh_token);
    expect(retry.status).toBe(200);
    const latest = ((await retry.json()) as Tokens).refresh_token;
    now = new Date(now.getTime() + 2000);
    const stolen = await refresh(client, tokens.refresh_token);
    expect(await errorOf(stolen)).toBe('invalid_grant');
    const grant = await findGrant(fx.rt.store.db, decodeJwt(tokens.access_token).gid as string);
    expect(grant?.revokedReason).toBe('refresh token reused');
    expect(await errorOf(await refresh(client, latest))).toBe('invalid_grant');
  });
});

describe('registered metadata is enforced', () => {
  it('a client registered without refresh_token gets no refresh token and cannot use the grant', async () => {
    const client = await registerClient(fx.rt, { grant_types: ['authorization_code'] });
    const { code, verifier } = await codeFor(client);
    const res = await exchange(client, code, verifier);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Partial<Tokens>;
    expect(body.access_token).toEqual(expect.any(String));
    expect(body.refresh_token).toBeUndefined();
    const refused = await refresh(client, 'x'.repeat(43));
    expect(refused.status).toBe(400);
    expect(await errorOf(refused)).toBe('unauthorized_client');
  });

  it('scopes beyond the registered scope are marked on the consent screen (MCP clients step up on one registration)', async () => {
    const client = await registerClient(fx.rt, { scope: 'read offline_access' });
    const { challenge } = pkce();
    const beyond = await fx.rt.request(authorizeQuery(client, challenge, { scope: 'read mcp:write offline_access' }), { headers: { cookie } });
    const html = await beyond.text();
    expect(html).toMatch(/\(mcp:write\)<\/span> <span class="badge">more than the app registered for<\/span>/);
    expect(html).not.toMatch(/\(read\)<\/span> <span class="badge">/);
    const within = await fx.rt.request(authorizeQuery(client, challenge, { scope: 'read' }), { headers: { cookie } });
    expect(await within.text()).not.toContain('more than the app registered for');
  });
});

describe('consent page', () => {
  it('labels the self-declared client name unverified', async () => {
    const client = await registerClient(fx.rt, { client_name: 'Claude (official)' });
    const page = await fx.rt.request(authorizeQuery(client, pkce().challenge), { headers: { cookie } });
    const html = await page.text();
    expect(html).toMatch(/<span id="client-name">Claude \(official\)<\/span> <span class="badge" id="client-unverified">unverified<\/span>/);
  });
});

describe('rate limits on /oauth/token and /oauth/revoke', () => {
  it('refuses an address past the limit with 429, Retry-After and OAuth JSON; token and revoke share it', async () => {
    const limited = await createOAuthFixture();
    try {
      const body = form({ grant_type: 'refresh_token', refresh_token: 'x', client_id: 'slc_nobody' });
      const send = (path: string) => limited.rt.request(path, { method: 'POST', headers: body.headers, body: body.body });
      const statuses: number[] = [];
      for (let i = 0; i < TOKEN_LIMIT.points; i += 1) statuses.push((await send(i % 2 === 0 ? '/oauth/token' : '/oauth/revoke')).status);
      expect(statuses.every((s) => s === 401)).toBe(true);
      for (const path of ['/oauth/token', '/oauth/revoke']) {
        const refused = await send(path);
        expect(refused.status).toBe(429);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(await errorOf(refused)).toBe('temporarily_unavailable');
      }
    } finally {
      await limited.rt.dispose();
    }
  });
});
