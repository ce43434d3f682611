// Every failure path answers RFC 9457 problem JSON with the contract's codes, statuses and headers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithKey, createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';
import { expectAppError } from '../domain/expect-app-error.ts';

let rt: TestRuntime;
let key: string;
let keyId: string;
let accountId: string;

beforeAll(async () => {
  rt = await createTestRuntime();
  ({ key, keyId, accountId } = await createAccountWithKey(rt, { email: 'carol@example.com', projects: ['shop'] }));
});
afterAll(() => rt.dispose());

async function problem(res: Response) {
  expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  const body = (await res.json()) as Record<string, unknown>;
  expect(body.request_id).toBe(res.headers.get('x-request-id'));
  expect(JSON.stringify(body)).not.toMatch(/at .*\.ts|node_modules|sl_live_[A-Za-z0-9]{20}/);
  return body;
}

describe('authentication failures', () => {
  it('401 missing_credentials without a header, with a Bearer challenge', async () => {
    const res = await rt.request('/api/v1/projects/list');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="siteline"/);
    expect(await problem(res)).toMatchObject({ code: 'missing_credentials', status: 401, type: '/api/v1/errors#missing_credentials' });
  });

  it('401 for a malformed header, a bad checksum, an unknown key', async () => {
    const badChecksum = `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`;
    const unknown = 'sl_live_' + 'x'.repeat(38);
    for (const header of ['Bearer', 'Bearer a b', `Bearer ${badChecksum}`, `Bearer ${unknown}`]) {
      const res = await rt.request('/api/v1/projects/list', { headers: { authorization: header } });
      expect(res.status, header).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
      expect(['invalid_api_key', 'invalid_token']).toContain((await problem(res)).code);
    }
  });

  it('ignores keys in the query string', async () => {
    const res = await rt.request(`/api/v1/projects/list?api_key=${key}`);
    expect(res.status).toBe(401);
  });

  it('401 after revocation and after expiry', async () => {
    const other = await createAccountWithKey(rt, { email: 'dave@example.com', projects: ['shop'] });
    expect((await rt.request('/api/v1/projects/list', { key: other.key })).status).toBe(200);
    await rt.apiKeys.revoke(other.accountId, other.keyId);
    const revoked = await rt.request('/api/v1/projects/list', { key: other.key });
    expect(revoked.status).toBe(401);
    expect((await problem(revoked)).code).toBe('invalid_api_key');

    const expiring = await createAccountWithKey(rt, { email: 'erin@example.com', projects: ['shop'], expiresAt: new Date(Date.now() + 60_000) });
    expect((await rt.request('/api/v1/projects/list', { key: expiring.key })).status).toBe(200);
    // Expiry passes: the stored expiry is moved into the past (the key service re-reads it once its cache entry goes).
    await rt.store.db.updateTable('api_keys').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', expiring.keyId).execute();
    rt.apiKeys.invalidate(expiring.keyId);
    expect((await rt.request('/api/v1/projects/list', { key: expiring.key })).status).toBe(401);
  });
});

describe('routing failures', () => {
  it('404 problem JSON for unknown paths', async () => {
    const res = await rt.request('/api/v1/nope', { key });
    expect(res.status).toBe(404);
    expect(await problem(res)).toMatchObject({ code: 'not_found' });
    expect((await rt.request('/totally/else')).status).toBe(404);
  });

  it('400 (not 500) for a path with broken percent-encoding, with the request id echoed', async () => {
    for (const path of ['/api/v1/projects/%ff', '/api/v1/%E0%A4%A']) {
      const res = await rt.request(path, { key, headers: { 'x-request-id': 'client-id-12345' } });
      expect(res.status, path).toBe(400);
      expect(res.headers.get('x-request-id')).toBe('client-id-12345');
      expect(await problem(res)).toMatchObject({ code: 'invalid_parameter', status: 400 });
    }
  });

  it('405 with Allow for a wrong method on a known path', async () => {
    const res = await rt.request('/api/v1/projects/list', { key, method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(await problem(res)).toMatchObject({ code: 'method_not_allowed' });
  });

  it('400 naming an unknown query parameter', async () => {
    const res = await rt.request('/api/v1/projects/list?perod=7days', { key });
    expect(res.status).toBe(400);
    expect(await problem(res)).toMatchObject({ code: 'invalid_parameter', param: 'perod' });
  });

  it('400 naming every unknown query parameter, each in errors[]', async () => {
    const res = await rt.request('/api/v1/projects/list?perod=7days&limt=3&perod=28days', { key });
    expect(res.status).toBe(400);
    const body = await problem(res);
    expect(body).toMatchObject({ code: 'invalid_parameter', param: 'perod' });
    expect(body.detail).toBe("Unknown query parameters 'perod', 'limt'. This endpoint takes no query parameters.");
    expect(body.errors).toEqual([
      { param: 'perod', code: 'unknown_parameter', message: "Unknown query parameter 'perod'." },
      { param: 'limt', code: 'unknown_parameter', message: "Unknown query parameter 'limt'." },
    ]);
  });
});

describe('scopes', () => {
  it('403 insufficient_scope names the scope in WWW-Authenticate', async () => {
    const { requireScope } = await import('../../src/auth/principal.ts');
    const principal = await rt.apiKeys.verify(key);
    const error = expectAppError(() => requireScope(principal, 'raw'), { code: 'insufficient_scope', status: 403, includes: ["'raw'"] });
    expect(error.headers['WWW-Authenticate']).toContain('scope="raw"');
    expect(accountId).toBeTruthy();
    expect(keyId).toBeTruthy();
  });
});

describe('health', () => {
  it('/healthz and /readyz answer without credentials', async () => {
    expect(await (await rt.request('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await rt.request('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ok', checks: { database: { status: 'ok' }, cache: { status: 'ok' } } });
  });
});
