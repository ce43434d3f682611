// OAuth access tokens at the resource server (mcp-notes §6 "Resource-server token handling"): /api/mcp accepts
// them; wrong audience, expired, forged, revoked → 401 with the RFC 9728 challenge; the REST API and GraphQL do
// not accept them (tokens are bound to the MCP resource); a read-only token gets the 403 step-up on create_funnel.
import { randomBytes } from 'node:crypto';
import { SignJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveSigningKey } from '../../src/auth/oauth/signing-key.ts';
import { loadSecretKey } from '../../src/store/secret-box.ts';
import { authorizeAndExchange, createOAuthFixture, form, PUBLIC_URL, RESOURCE, signIn, type OAuthFixture } from './oauth-helpers.ts';

const PRM_URL = `${PUBLIC_URL}/.well-known/oauth-protected-resource/api/mcp`;
let fx: OAuthFixture;
let cookie: string;
let now = new Date();

beforeAll(async () => {
  fx = await createOAuthFixture({ clock: () => now });
  cookie = await signIn(fx.rt, fx.email);
});
afterAll(() => fx.rt.dispose());

async function mcpCall(token: string, body: unknown = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }): Promise<Response> {
  return fx.rt.app.fetch(
    new Request(RESOURCE, {
      method: 'POST',
      headers: { host: 'siteline.test', authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify(body),
    }),
  );
}

async function rpcResult(res: Response): Promise<Record<string, any>> {
  const text = await res.text();
  const data = text.startsWith('{') ? text : text.split('\n').find((l) => l.startsWith('data: '))!.slice(6);
  return JSON.parse(data);
}

function expectInvalidTokenChallenge(res: Response): void {
  expect(res.status).toBe(401);
  const challenge = res.headers.get('www-authenticate') ?? '';
  expect(challenge).toMatch(/^Bearer /);
  expect(challenge).toContain('error="invalid_token"');
  expect(challenge).toContain(`resource_metadata="${PRM_URL}"`);
}

/** A token signed with the server's own key but with chosen claims (what a confused deputy might replay). */
async function forge(claims: Record<string, unknown>, audience: string, expiresInSec = 600): Promise<string> {
  const key = await deriveSigningKey(loadSecretKey(fx.rt.settings));
  const nowSec = Math.floor(now.getTime() / 1000);
  return new SignJWT({ client_id: 'slc_x', scope: 'read', ...claims })
    .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: key.kid })
    .setIssuer(PUBLIC_URL)
    .setSubject(fx.accountId)
    .setAudience(audience)
    .setIssuedAt(nowSec)
    .setExpirationTime(nowSec + expiresInSec)
    .sign(key.privateKey);
}

describe('/api/mcp with OAuth access tokens', () => {
  it('accepts a valid token: tools/list', async () => {
    const { tokens } = await authorizeAndExchange(fx, { cookie });
    const res = await mcpCall(tokens.access_token);
    expect(res.status).toBe(200);
    const message = await rpcResult(res);
    expect(message.result.tools.map((t: { name: string }) => t.name)).toContain('list_projects');
  });

  it('refuses a token for another audience (signed by us, aud = REST API) with 401 invalid_token', async () => {
    const { tokens } = await authorizeAndExchange(fx, { cookie });
    const gid = decodeJwt(tokens.access_token).gid as string;
    expectInvalidTokenChallenge(await mcpCall(await forge({ gid }, `${PUBLIC_URL}/api/v1`)));
    // Same claims with the right audience pass, so it is the audience that was refused.
    expect((await mcpCall(await forge({ gid, client_id: decodeJwt(tokens.access_token).client_id }, RESOURCE))).status).toBe(200);
  });

  it('refuses a token signed with another key, and garbage', async () => {
    const other = await new SignJWT({ client_id: 'x', scope: 'read', gid: 'grt_x' })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
      .setIssuer(PUBLIC_URL)
      .setAudience(RESOURCE)
      .setSubject(fx.accountId)
      .setExpirationTime('1h')
      .sign(randomBytes(32));
    expectInvalidTokenChallenge(await mcpCall(other));
    expectInvalidTokenChallenge(await mcpCall('eyJhbGciOiJub25lIn0.e30.'));
  });

  it('refuses an expired token', async () => {
    const { tokens } = await authorizeAndExchange(fx, { cookie });
    const saved = now;
    now = new Date(now.getTime() + 3601_000);
    try {
      expectInvalidTokenChallenge(await mcpCall(tokens.access_token));
    } finally {
      now = saved;
    }
  });

  it('refuses a token whose grant was revoked (RFC 7009) or disconnected on the account page', async () => {
    const first = await authorizeAndExchange(fx, { cookie });
    expect((await mcpCall(first.tokens.access_token)).status).toBe(200);
    const body = form({ token: first.tokens.refresh_token, client_id: first.client.client_id });
    await fx.rt.request('/oauth/revoke', { method: 'POST', headers: body.headers, body: body.body });
    expectInvalidTokenChallenge(await mcpCall(first.tokens.access_token));

    const second = await authorizeAndExchange(fx, { cookie });
    expect((await mcpCall(second.tokens.access_token)).status).toBe(200);
    const revoked = await fx.deps().oauth.revokeGrantOf(fx.accountId, decodeJwt(second.tokens.access_token).gid as string);
    expect(revoked).toBe(true);
    expectInvalidTokenChallenge(await mcpCall(second.tokens.access_token));
  });

  it('a read-only token calling create_funnel gets HTTP 403 insufficient_scope naming read and mcp:write', async () => {
    const { tokens } = await authorizeAndExchange(fx, { cookie, scope: 'read' });
    const res = await mcpCall(tokens.access_token, {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'create_funnel', arguments: { project: 'shop', name: 'Checkout', steps: [] } },
    });
    expect(res.status).toBe(403);
    const challenge = res.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toMatch(/scope="read mcp:write"/);
    expect(challenge).toContain(`resource_metadata="${PRM_URL}"`);
  });

  it('the projects the user ticked limit what the token sees', async () => {
    const { tokens } = await authorizeAndExchange(fx, { cookie, projects: ['blog'] });
    const message = await rpcResult(await mcpCall(tokens.access_token, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'list_projects', arguments: {} } }));
    const keys = (message.result.structuredContent.projects as { key: string }[]).map((p) => p.key);
    expect(keys).toEqual(['blog']);
  });
});

describe('OAuth tokens are not accepted outside their resource', () => {
  it('REST /api/v1 and GraphQL answer 401 invalid_token; API keys still work there', async () => {
    const { tokens } = await authorizeAndExchange(fx, { cookie });
    const rest = await fx.rt.request('/api/v1/projects/list', { key: tokens.access_token });
    expect(rest.status).toBe(401);
    expect(((await rest.json()) as { code: string }).code).toBe('invalid_token');
    const graphql = await fx.rt.request('/api/graphql', { method: 'POST', key: tokens.access_token, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __typename }' }) });
    expect(graphql.status).toBe(401);
    expect((await fx.rt.request('/api/v1/projects/list', { key: fx.apiKey })).status).toBe(200);
  });

  it('session cookies are not credentials for /api/mcp or the REST API', async () => {
    const res = await fx.rt.app.fetch(
      new Request(RESOURCE, { method: 'POST', headers: { host: 'siteline.test', cookie, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' }),
    );
    expect(res.status).toBe(401);
    expect((await fx.rt.request('/api/v1/projects/list', { headers: { cookie } })).status).toBe(401);
  });

  it('a token in the query string is ignored', async () => {
    const { tokens } = await authorizeAndExchange(fx, { cookie });
    const res = await fx.rt.app.fetch(
      new Request(`${RESOURCE}?access_token=${tokens.access_token}&token=${tokens.access_token}`, {
        method: 'POST',
        headers: { host: 'siteline.test', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{}',
      }),
    );
    expect(res.status).toBe(401);
  });
});
