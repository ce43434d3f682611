// Two instances sharing a database and Redis: a catalogue write on one empties the answer cache of the other
// through the Redis bus, so neither answers from memory what the write changed.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFunnel } from '../../src/store/funnels-repository.ts';
import { createProject, getProjectByKey, grantProjectAccess } from '../../src/store/projects-repository.ts';
import { connectTestRedis, deleteByPrefix, TEST_REDIS_URL, uniquePrefix } from '../cache/redis-helpers.ts';
import { listenForCatalogueWrite } from '../helpers/catalogue-writes.ts';
import { closeRedis } from '../../src/cache/redis-connection.ts';
import { createAccountWithKey, createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';

describe.skipIf(TEST_REDIS_URL === undefined)('answer cache invalidation across instances (real Redis)', () => {
  const keyPrefix = uniquePrefix();
  let a: TestRuntime;
  let b: TestRuntime;
  let alice: { key: string; accountId: string };

  const listen = (rt: TestRuntime, table: string) => listenForCatalogueWrite(rt, a, table);

  async function projectKeys(rt: TestRuntime): Promise<string[]> {
    const body = (await (await rt.request('/api/v1/projects/list', { key: alice.key })).json()) as { projects: { key: string }[] };
    return body.projects.map((p) => p.key);
  }

  beforeAll(async () => {
    const secret = randomBytes(32).toString('base64');
    const shared = { keyPrefix };
    a = await createTestRuntime({ env: { REDIS_URL: TEST_REDIS_URL!, SITELINE_SECRET_KEY: secret }, shared });
    b = await createTestRuntime({ env: { REDIS_URL: TEST_REDIS_URL!, SITELINE_SECRET_KEY: secret, DATABASE_URL: a.cliEnv.DATABASE_URL ?? join(a.dataDir, 'siteline.sqlite') }, shared });
    await createProject(a.store.db, { key: 'shop', name: 'Shop', domain: 'shop.example' });
    await createProject(a.store.db, { key: 'blog', name: 'Blog', domain: 'blog.example' });
    alice = await createAccountWithKey(a, { email: 'alice@example.com', projects: ['shop'] });
  });
  afterAll(async () => {
    await Promise.all([a.dispose(), b.dispose()]);
    const admin = await connectTestRedis();
    await deleteByPrefix(admin, keyPrefix);
    await closeRedis(admin);
  });

  it('a grant on one instance reaches the cached projects list of the other', async () => {
    const { heard } = await listen(b, 'account_projects');
    expect(await projectKeys(b)).toEqual(['shop']);
    const blog = (await getProjectByKey(a.store.db, 'blog'))!;
    await grantProjectAccess(a.store.db, alice.accountId, blog.id);
    await heard;
    expect(await projectKeys(b)).toEqual(['blog', 'shop']);
  });

  it('a funnel created on one instance is listed by the other', async () => {
    const list = async () => ((await (await b.request('/api/v1/projects/shop/funnels/list', { key: alice.key })).json()) as { funnels: unknown[] }).funnels.length;
    const { heard } = await listen(b, 'funnels');
    expect(await list()).toBe(0);
    const shop = (await getProjectByKey(a.store.db, 'shop'))!;
    const steps = [
      { name: 'Step', type: 'page' as const, value: '/', match: 'exact' as const },
      { name: 'Step', type: 'page' as const, value: '/done', match: 'exact' as const },
    ];
    await createFunnel(a.store.db, { projectId: shop.id, name: 'Done', steps, createdVia: 'cli' });
    await heard;
    expect(await list()).toBe(1);
  });
});
