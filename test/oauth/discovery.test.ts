// Discovery (mcp-notes §6 "Discovery and challenges"): the 401 challenge points at the protected-resource
// metadata, which names this server as the authorization server; its RFC 8414 and OpenID documents carry what
// MCP clients require; the SDK's own discovery functions accept them.
import { discoverAuthorizationServerMetadata, discoverOAuthProtectedResourceMetadata, discoverOAuthServerInfo } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';
import { inProcessFetch } from '../mcp/mcp-clients.ts';
import { PUBLIC_URL, RESOURCE } from './oauth-helpers.ts';

let rt: TestRuntime;
beforeAll(async () => {
  rt = await createTestRuntime();
});
afterAll(() => rt.dispose());

describe('authorization server metadata', () => {
  it.each(['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'])('%s: issuer, endpoints, S256 only, none auth, offline_access', async (path) => {
    const res = await rt.request(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const doc = (await res.json()) as Record<string, unknown>;
    expect(doc.issuer).toBe(PUBLIC_URL);
    expect(doc).toMatchObject({
      authorization_endpoint: `${PUBLIC_URL}/oauth/authorize`,
      token_endpoint: `${PUBLIC_URL}/oauth/token`,
      registration_endpoint: `${PUBLIC_URL}/oauth/register`,
      revocation_endpoint: `${PUBLIC_URL}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    });
    expect(doc.response_types_supported).toContain('code');
    expect(doc.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
    expect(doc.token_endpoint_auth_methods_supported).toContain('none');
    expect(doc.scopes_supported).toEqual(expect.arrayContaining(['read', 'mcp:write', 'offline_access']));
  });

  it('answers CORS preflights and refuses other methods with 405', async () => {
    const preflight = await rt.request('/.well-known/oauth-authorization-server', { method: 'OPTIONS', headers: { origin: 'https://claude.ai', 'access-control-request-method': 'GET' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const post = await rt.request('/.well-known/oauth-authorization-server', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toContain('GET');
  });

  it('publishes the public signing key that verifies access tokens', async () => {
    const res = await rt.request('/oauth/jwks');
    const { keys } = (await res.json()) as { keys: Record<string, string>[] };
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(keys[0]).not.toHaveProperty('d');
  });
});

describe('protected-resource metadata (served by the MCP endpoint) points here', () => {
  it.each(['/.well-known/oauth-protected-resource/api/mcp', '/.well-known/oauth-protected-resource'])('%s', async (path) => {
    const res = await rt.request(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const doc = (await res.json()) as { resource: string; authorization_servers: string[]; scopes_supported: string[] };
    expect(doc.resource).toBe(RESOURCE);
    expect(doc.authorization_servers).toEqual([PUBLIC_URL]);
    expect(doc.scopes_supported).not.toContain('offline_access');
  });

  it('the 401 from /api/mcp carries the resource_metadata URL and a scope', async () => {
    const res = await rt.app.fetch(
      new Request(RESOURCE, { method: 'POST', headers: { host: 'siteline.test', 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' }),
    );
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain(`resource_metadata="${PUBLIC_URL}/.well-known/oauth-protected-resource/api/mcp"`);
    expect(challenge).toMatch(/scope="read"/);
  });
});

describe('the MCP client SDK discovers everything', () => {
  const fetchFn = inProcessFetch({ get app() { return rt.app; } });

  it('discoverOAuthProtectedResourceMetadata and discoverAuthorizationServerMetadata succeed', async () => {
    const prm = await discoverOAuthProtectedResourceMetadata(RESOURCE, {}, fetchFn);
    expect(prm.authorization_servers).toEqual([PUBLIC_URL]);
    const as = await discoverAuthorizationServerMetadata(prm.authorization_servers![0]!, { fetchFn });
    expect(as?.issuer).toBe(PUBLIC_URL);
    expect(as?.code_challenge_methods_supported).toEqual(['S256']);
  });

  it('discoverOAuthServerInfo resolves the whole chain from the MCP URL', async () => {
    const info = await discoverOAuthServerInfo(RESOURCE, { fetchFn });
    expect(info.authorizationServerUrl).toBe(PUBLIC_URL);
    expect(info.authorizationServerMetadata?.registration_endpoint).toBe(`${PUBLIC_URL}/oauth/register`);
  });
});
