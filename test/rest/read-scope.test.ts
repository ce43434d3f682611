// Every REST route that declares no scope of its own needs `read`: a key issued with only `raw` or `mcp:write` is
// refused with 403 insufficient_scope naming `read`, before any project is looked up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../src/store/projects-repository.ts';
import { createAccountWithKey, createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';

let rt: TestRuntime;

beforeAll(async () => {
  rt = await createTestRuntime();
  await createProject(rt.store.db, { key: 'shop', name: 'Shop', domain: 'shop.example' });
});
afterAll(() => rt.dispose());

describe('REST read scope', () => {
  it.each([[['raw'] as const], [['mcp:write'] as const]])('a key with only %j is refused with insufficient_scope naming read', async (scopes) => {
    const { key } = await createAccountWithKey(rt, { email: `no-read-${scopes[0].replace(':', '-')}@example.com`, projects: ['shop'], scopes: [...scopes] });
    for (const path of ['/api/v1/projects/list', '/api/v1/projects/shop/funnels/list']) {
      const res = await rt.request(path, { key });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { code: string }).code).toBe('insufficient_scope');
      expect(res.headers.get('www-authenticate')).toContain('scope="read"');
    }
  });

  it('the same account with a read key is answered', async () => {
    const { key } = await createAccountWithKey(rt, { email: 'reader@example.com', projects: ['shop'], scopes: ['read'] });
    const res = await rt.request('/api/v1/projects/list', { key });
    expect(res.status).toBe(200);
  });
});
