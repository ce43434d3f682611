// Dynamic client registration (RFC 7591) as real MCP clients send it, the redirect-URI rules, confidential
// clients, the per-IP limit, and the expiry of registered-but-unused clients.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOAuthClient } from '../../src/store/oauth-clients-repository.ts';
import { createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';

let rt: TestRuntime;
let now = new Date('2026-11-20T10:00:00Z');
beforeAll(async () => {
  rt = await createTestRuntime({ clock: () => now });
});
afterAll(() => rt.dispose());

function register(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return rt.request('/oauth/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

// Payloads as the clients send them (mcp-notes §3.10).
const REAL_CLIENTS: Record<string, Record<string, unknown>> = {
  'claude.ai': {
    client_name: 'Claude',
    redirect_uris: ['https://claude.ai/api/mcp/auth_callback'],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    scope: 'read mcp:write offline_access',
  },
  ChatGPT: {
    client_name: 'ChatGPT',
    redirect_uris: ['https://chatgpt.com/connector_platform_oauth_redirect', 'https://chatgpt.com/connector/oauth/cb_123abc'],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_post',
  },
  Cursor: {
    client_name: 'Cursor',
    redirect_uris: ['cursor://anysphere.cursor-mcp/oauth/callback', 'https://www.cursor.com/agents/mcp/oauth/callback', 'http://localhost:8787/callback'],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
  },
  'VS Code': {
    client_name: 'Visual Studio Code',
    redirect_uris: ['http://127.0.0.1:33418/', 'http://127.0.0.1/', 'https://vscode.dev/redirect', 'https://insiders.vscode.dev/redirect'],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
  },
  'MCP Inspector': {
    client_name: 'MCP Inspector',
    redirect_uris: ['http://localhost:6274/oauth/callback', 'http://127.0.0.1:6276/oauth/callback'],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    client_uri: 'https://github.com/modelcontextprotocol/inspector',
  },
  'Claude Code (IPv6 loopback)': {
    client_name: 'Claude Code',
    redirect_uris: ['http://[::1]:54321/callback'],
    token_endpoint_auth_method: 'none',
  },
};

describe('POST /oauth/register', () => {
  it.each(Object.entries(REAL_CLIENTS))('accepts %s → 201 with client_id and integer timestamps', async (_name, payload) => {
    const res = await register(payload);
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.client_id).toMatch(/^slc_/);
    expect(Number.isInteger(body.client_id_issued_at)).toBe(true);
    expect(body.redirect_uris).toEqual(payload.redirect_uris);
    expect(body.client_name).toBe(payload.client_name);
    if (payload.token_endpoint_auth_method === 'none') {
      expect(body).not.toHaveProperty('client_secret');
    } else {
      expect(body.client_secret).toEqual(expect.any(String));
      expect(body.client_secret_expires_at).toBe(0);
    }
  });

  it('stores only a digest of a confidential client secret', async () => {
    const body = (await (await register(REAL_CLIENTS.ChatGPT)).json()) as { client_id: string; client_secret: string };
    const stored = await findOAuthClient(rt.store.db, body.client_id);
    expect(stored?.secretDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(body.client_secret);
  });

  it.each([
    ['http on a public host', 'http://evil.example/callback', 'invalid_redirect_uri'],
    ['javascript:', 'javascript:alert(1)', 'invalid_redirect_uri'],
    ['data:', 'data:text/html,<script>alert(1)</script>', 'invalid_redirect_uri'],
    ['a fragment', 'https://app.example/cb#frag', 'invalid_redirect_uri'],
    ['a relative URI', '/callback', 'invalid_redirect_uri'],
  ])('rejects a redirect URI with %s → 400', async (_what, uri, error) => {
    const res = await register({ client_name: 'x', redirect_uris: ['https://ok.example/cb', uri], token_endpoint_auth_method: 'none' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string; error_description: string };
    expect(body.error).toBe(error);
    expect(body.error_description).toContain(uri.slice(0, 20));
  });

  it.each([
    ['no redirect_uris', { client_name: 'x' }, 'invalid_redirect_uri'],
    ['an unsupported auth method', { redirect_uris: ['https://a.example/cb'], token_endpoint_auth_method: 'private_key_jwt' }, 'invalid_client_metadata'],
    ['the implicit grant', { redirect_uris: ['https://a.example/cb'], grant_types: ['implicit'] }, 'invalid_client_metadata'],
    ['response_type token', { redirect_uris: ['https://a.example/cb'], response_types: ['token'] }, 'invalid_client_metadata'],
    ['a non-object body', [1, 2], 'invalid_client_metadata'],
    ['eleven contacts', { redirect_uris: ['https://a.example/cb'], contacts: Array.from({ length: 11 }, (_, i) => `c${i}@example.com`) }, 'invalid_client_metadata'],
    ['a 321-character contact', { redirect_uris: ['https://a.example/cb'], contacts: [`${'a'.repeat(309)}@example.com`] }, 'invalid_client_metadata'],
    ['a thousand grant_types', { redirect_uris: ['https://a.example/cb'], grant_types: Array.from({ length: 1000 }, () => 'authorization_code') }, 'invalid_client_metadata'],
    ['a thousand response_types', { redirect_uris: ['https://a.example/cb'], response_types: Array.from({ length: 1000 }, () => 'code') }, 'invalid_client_metadata'],
  ])('rejects %s', async (_what, payload, error) => {
    const res = await register(payload);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe(error);
  });

  it('rejects bad JSON and other media types with invalid_client_metadata', async () => {
    expect((await register('{not json')).status).toBe(400);
    const form = await rt.request('/oauth/register', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'redirect_uris=x' });
    expect(form.status).toBe(400);
    expect(((await form.json()) as { error: string }).error).toBe('invalid_client_metadata');
  });

  it('defaults to client_secret_basic (RFC 7591) when no method is given', async () => {
    const body = (await (await register({ redirect_uris: ['https://a.example/cb'] })).json()) as Record<string, unknown>;
    expect(body.token_endpoint_auth_method).toBe('client_secret_basic');
    expect(body.client_secret).toEqual(expect.any(String));
  });
});

describe('registration limits and expiry', () => {
  it('limits registrations per IP with 429 temporarily_unavailable and Retry-After', async () => {
    const limited = await createTestRuntime();
    try {
      const payload = JSON.stringify(REAL_CLIENTS['claude.ai']);
      const statuses: number[] = [];
      for (let i = 0; i < 125; i += 1) {
        const res = await limited.request('/oauth/register', { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload });
        statuses.push(res.status);
        if (res.status === 429) {
          expect(((await res.json()) as { error: string }).error).toBe('temporarily_unavailable');
          expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
          break;
        }
      }
      expect(statuses.filter((s) => s === 201)).toHaveLength(120);
      expect(statuses.at(-1)).toBe(429);
    } finally {
      await limited.dispose();
    }
  });

  it('deletes clients that were registered but never used after a day; a used one stays', async () => {
    const abandoned = (await (await register(REAL_CLIENTS.Cursor)).json()) as { client_id: string };
    const used = (await (await register(REAL_CLIENTS.Cursor)).json()) as { client_id: string };
    const { touchOAuthClient } = await import('../../src/store/oauth-clients-repository.ts');
    await touchOAuthClient(rt.store.db, used.client_id, now);
    now = new Date(now.getTime() + 25 * 3600_000);
    await register(REAL_CLIENTS.Cursor); // registration runs the (throttled) housekeeping
    await expect.poll(() => findOAuthClient(rt.store.db, abandoned.client_id)).toBeUndefined();
    expect(await findOAuthClient(rt.store.db, used.client_id)).toBeDefined();
  });
});
