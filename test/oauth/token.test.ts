// The token endpoint (mcp-notes §6): PKCE verification, single-use codes (reuse revokes what the code issued),
// RFC 8707 resource and audience, no-store answers, refresh tokens for every MCP code grant, rotation with
// reuse detection, 401 invalid_client for unknown/deleted clients, confidential clients, revocation (RFC 7009).
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteOAuthClient } from '../../src/store/oauth-clients-repository.ts';
import { findGrant } from '../../src/store/oauth-grants-repository.ts';
import {
  authorizeAndExchange,
  authorizeQuery,
  codeFor as codeForHelper,
  consent,
  createOAuthFixture,
  exchangeCode,
  oauthErrorOf,
  refreshWith,
  form,
  pkce,
  PUBLIC_URL,
  registerClient,
  RESOURCE,
  signIn,
  tokenRequest,
  type OAuthFixture,
  type RegisteredClient,
  type Tokens,
} from './oauth-helpers.ts';

let fx: OAuthFixture;
let cookie: string;
/** Moves the server's clock ahead (past the refresh reuse window). */
let skewMs = 0;
beforeAll(async () => {
  fx = await createOAuthFixture({ clock: () => new Date(Date.now() + skewMs) });
  cookie = await signIn(fx.rt, fx.email);
});
afterAll(() => fx.rt.dispose());

const codeFor = (client: RegisteredClient, scope = 'read') => codeForHelper(fx.rt, cookie, client, scope);
const exchange = (client: RegisteredClient, code: string, verifier: string | undefined, extra: Record<string, string | undefined> = {}) =>
  exchangeCode(fx.rt, client, code, verifier, extra);
const refresh = (client: RegisteredClient, refreshToken: string, extra: Record<string, string> = {}) => refreshWith(fx.rt, client, refreshToken, extra);
const oauthError = oauthErrorOf;

describe('authorization_code grant', () => {
  it('issues a Bearer access token bound to the MCP resource, a refresh token without offline_access, no-store', async () => {
    const client = await registerClient(fx.rt);
    const { code, verifier } = await codeFor(client, 'read');
    const res = await exchange(client, code, verifier);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('pragma')).toBe('no-cache');
    const tokens = (await res.json()) as Tokens;
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'read' });
    expect(tokens.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const claims = decodeJwt(tokens.access_token);
    expect(claims).toMatchObject({ iss: PUBLIC_URL, aud: RESOURCE, sub: fx.accountId, client_id: client.client_id, scope: 'read' });
    expect(claims.exp! - claims.iat!).toBeLessThanOrEqual(3600);
    expect(decodeProtectedHeader(tokens.access_token)).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
  });

  it('keeps offline_access in the grant but out of the access token', async () => {
    const client = await registerClient(fx.rt);
    const { code, verifier } = await codeFor(client, 'read mcp:write offline_access');
    const tokens = (await (await exchange(client, code, verifier)).json()) as Tokens;
    expect(tokens.scope).toBe('read mcp:write offline_access');
    expect(decodeJwt(tokens.access_token).scope).toBe('read mcp:write');
  });

  it('a wrong code_verifier → 400 invalid_grant; a missing one → invalid_request', async () => {
    const client = await registerClient(fx.rt);
    const { code } = await codeFor(client);
    expect((await exchange(client, code, undefined)).status).toBe(400);
    const wrong = await exchange(client, code, pkce().verifier);
    expect(wrong.status).toBe(400);
    expect(await oauthError(wrong)).toBe('invalid_grant');
  });

  it('a reused code → invalid_grant, and the grant the first use created is revoked', async () => {
    const client = await registerClient(fx.rt);
    const { code, verifier } = await codeFor(client);
    const first = (await (await exchange(client, code, verifier)).json()) as Tokens;
    const again = await exchange(client, code, verifier);
    expect(again.status).toBe(400);
    expect(await oauthError(again)).toBe('invalid_grant');
    const grant = await findGrant(fx.rt.store.db, decodeJwt(first.access_token).gid as string);
    expect(grant?.revokedReason).toBe('authorization code reused');
    expect(await oauthError(await refresh(client, first.refresh_token))).toBe('invalid_grant');
  });

  it('another client cannot redeem the code; a different redirect_uri or resource is refused', async () => {
    const client = await registerClient(fx.rt);
    const other = await registerClient(fx.rt);
    const a = await codeFor(client);
    expect(await oauthError(await exchange(other, a.code, a.verifier))).toBe('invalid_grant');
    const b = await codeFor(client);
    expect(await oauthError(await exchange(client, b.code, b.verifier, { redirect_uri: 'http://127.0.0.1:1/other' }))).toBe('invalid_grant');
    const c = await codeFor(client);
    const target = await exchange(client, c.code, c.verifier, { resource: 'https://other.example/api/mcp' });
    expect(target.status).toBe(400);
    expect(await oauthError(target)).toBe('invalid_target');
  });

  it('an expired code → invalid_grant', async () => {
    let now = new Date();
    const timed = await createOAuthFixture({ clock: () => now });
    try {
      const c = await registerClient(timed.rt);
      const { verifier, challenge } = pkce();
      const location = await consent(timed.rt, await signIn(timed.rt, timed.email), authorizeQuery(c, challenge));
      now = new Date(now.getTime() + 301_000);
      const res = await tokenRequest(timed.rt, { grant_type: 'authorization_code', code: location.searchParams.get('code')!, code_verifier: verifier, client_id: c.client_id });
      expect(await oauthError(res)).toBe('invalid_grant');
    } finally {
      await timed.rt.dispose();
    }
  });

  it('unknown or deleted clients get 401 invalid_client (Claude re-registers on it)', async () => {
    const client = await registerClient(fx.rt);
    const { code, verifier } = await codeFor(client);
    await deleteOAuthClient(fx.rt.store.db, client.client_id);
    const res = await exchange(client, code, verifier);
    expect(res.status).toBe(401);
    expect(await oauthError(res)).toBe('invalid_client');
    const unknown = await tokenRequest(fx.rt, { grant_type: 'refresh_token', refresh_token: 'x', client_id: 'slc_nobody' });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('other grant types, missing grant_type and non-form bodies are refused', async () => {
    const client = await registerClient(fx.rt);
    expect(await oauthError(await tokenRequest(fx.rt, { grant_type: 'client_credentials', client_id: client.client_id }))).toBe('unsupported_grant_type');
    expect(await oauthError(await tokenRequest(fx.rt, { client_id: client.client_id }))).toBe('invalid_request');
    const json = await fx.rt.request('/oauth/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(await oauthError(json)).toBe('invalid_request');
    expect((await fx.rt.request('/oauth/token')).status).toBe(405);
  });
});

describe('confidential clients', () => {
  it('authenticate with client_secret_basic or client_secret_post; a wrong or missing secret → 401', async () => {
    const client = await registerClient(fx.rt, { token_endpoint_auth_method: 'client_secret_basic' });
    expect(client.client_secret).toBeTruthy();
    const basic = `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`;
    const a = await codeFor(client);
    const noSecret = await exchange(client, a.code, a.verifier);
    expect(noSecret.status).toBe(401);
    const b = await codeFor(client);
    const badBasic = `Basic ${Buffer.from(`${client.client_id}:nope`).toString('base64')}`;
    const wrong = await tokenRequest(fx.rt, { grant_type: 'authorization_code', code: b.code, code_verifier: b.verifier }, { authorization: badBasic });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic/);
    const c = await codeFor(client);
    expect((await tokenRequest(fx.rt, { grant_type: 'authorization_code', code: c.code, code_verifier: c.verifier }, { authorization: basic })).status).toBe(200);
    const d = await codeFor(client);
    expect((await exchange(client, d.code, d.verifier, { client_secret: client.client_secret })).status).toBe(200);
  });
});

describe('refresh_token grant', () => {
  it('rotates: a new refresh token, same audience and scopes; the old one, after the reuse window, is rejected and kills the family', async () => {
    const { client, tokens } = await authorizeAndExchange(fx, { scope: 'read mcp:write', cookie });
    const res = await refresh(client, tokens.refresh_token);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const next = (await res.json()) as Tokens;
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    expect(next.scope).toBe('read mcp:write');
    expect(decodeJwt(next.access_token)).toMatchObject({ aud: RESOURCE, scope: 'read mcp:write', gid: decodeJwt(tokens.access_token).gid });

    skewMs += (fx.deps().oauth.config.refreshReuseWindowSec + 1) * 1000;
    const reused = await refresh(client, tokens.refresh_token);
    expect(reused.status).toBe(400);
    expect(await oauthError(reused)).toBe('invalid_grant');
    // Reuse detection: the newest refresh token of the family is dead too.
    expect(await oauthError(await refresh(client, next.refresh_token))).toBe('invalid_grant');
  });

  it('can narrow scopes but not widen them; another client cannot use the token (and does not burn it)', async () => {
    const { client, tokens } = await authorizeAndExchange(fx, { scope: 'read', cookie });
    const other = await registerClient(fx.rt);
    expect(await oauthError(await refresh(other, tokens.refresh_token))).toBe('invalid_grant');
    expect(await oauthError(await refresh(client, tokens.refresh_token, { scope: 'read mcp:write' }))).toBe('invalid_scope');
    const narrowed = await refresh(client, tokens.refresh_token, { scope: 'read' });
    expect(narrowed.status).toBe(200);
  });

  it('refuses a resource other than the MCP resource', async () => {
    const { client, tokens } = await authorizeAndExchange(fx, { cookie });
    expect(await oauthError(await refresh(client, tokens.refresh_token, { resource: `${PUBLIC_URL}/api/v1` }))).toBe('invalid_target');
  });
});

describe('POST /oauth/revoke (RFC 7009)', () => {
  const revoke = (client: RegisteredClient, token: string) => {
    const body = form({ token, client_id: client.client_id });
    return fx.rt.request('/oauth/revoke', { method: 'POST', headers: body.headers, body: body.body });
  };

  it('revoking the refresh token ends the grant: refresh fails', async () => {
    const { client, tokens } = await authorizeAndExchange(fx, { cookie });
    expect((await revoke(client, tokens.refresh_token)).status).toBe(200);
    expect(await oauthError(await refresh(client, tokens.refresh_token))).toBe('invalid_grant');
  });

  it('revoking the access token ends the grant too; unknown tokens are answered 200; unknown clients 401', async () => {
    const { client, tokens } = await authorizeAndExchange(fx, { cookie });
    expect((await revoke(client, tokens.access_token)).status).toBe(200);
    const grant = await findGrant(fx.rt.store.db, decodeJwt(tokens.access_token).gid as string);
    expect(grant?.revokedAt).not.toBeNull();
    expect((await revoke(client, 'not-a-token')).status).toBe(200);
    expect((await revoke({ ...client, client_id: 'slc_nobody' }, tokens.refresh_token)).status).toBe(401);
  });

  it("a client cannot revoke another client's grant", async () => {
    const { tokens } = await authorizeAndExchange(fx, { cookie });
    const other = await registerClient(fx.rt);
    await revoke(other, tokens.refresh_token);
    const grant = await findGrant(fx.rt.store.db, decodeJwt(tokens.access_token).gid as string);
    expect(grant?.revokedAt).toBeNull();
  });
});
