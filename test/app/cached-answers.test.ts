// Reads answered from memory until a write changes what they show: the projects, project and funnels routes are
// cached per credential, and every catalogue write (grant, project edit, funnel, data-source status, key revocation)
// empties the cache. A second, unwatched connection to the same database proves the answers really come from memory.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Store } from '../../src/store/database.ts';
import { connectSource, setSourceStatus } from '../../src/store/data-sources-repository.ts';
import { createFunnel, deleteFunnel } from '../../src/store/funnels-repository.ts';
import { createProject, getProjectByKey, grantProjectAccess, revokeProjectAccess } from '../../src/store/projects-repository.ts';
import { createAccountWithKey, createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';

let rt: TestRuntime;
let behind: Store;
let alice: { key: string; accountId: string; keyId: string };

const STEPS = [
  { name: 'Step', type: 'page' as const, value: '/', match: 'exact' as const },
  { name: 'Step', type: 'page' as const, value: '/checkout', match: 'begins_with' as const },
];

async function projectKeys(key: string): Promise<string[]> {
  const body = (await (await rt.request('/api/v1/projects/list', { key })).json()) as { projects: { key: string }[] };
  return body.projects.map((p) => p.key);
}

async function funnelKeys(key: string): Promise<string[]> {
  const body = (await (await rt.request('/api/v1/projects/shop/funnels/list', { key })).json()) as { funnels: { key: string }[] };
  return body.funnels.map((f) => f.key);
}

beforeAll(async () => {
  rt = await createTestRuntime();
  await createProject(rt.store.db, { key: 'shop', name: 'Shop', domain: 'shop.example' });
  await createProject(rt.store.db, { key: 'blog', name: 'Blog', domain: 'blog.example' });
  alice = await createAccountWithKey(rt, { email: 'alice@example.com', projects: ['shop'] });
  // Another process's view of the same file: its writes are announced to nobody.
  // A second connection to the runtime's own database (SQLite file or PostgreSQL schema) that no watcher sees.
  behind = await openDatabase({ url: rt.cliEnv.DATABASE_URL, dataDir: rt.dataDir, migrate: false });
});
afterAll(async () => {
  await behind.close();
  await rt.dispose();
});

describe('answers from memory', () => {
  it('answers a repeated projects list from memory', async () => {
    expect(await projectKeys(alice.key)).toEqual(['shop']);
    const blog = (await getProjectByKey(behind.db, 'blog'))!;
    await grantProjectAccess(behind.db, alice.accountId, blog.id);
    expect(await projectKeys(alice.key)).toEqual(['shop']);
    await revokeProjectAccess(behind.db, alice.accountId, blog.id);
  });

  it('answers a repeat at once, without a promise, when this process counts the rate limits (no Redis)', async () => {
    await projectKeys(alice.key);
    const repeat = rt.app.request('http://siteline.test/api/v1/projects/list', { headers: { authorization: `Bearer ${alice.key}` } });
    // With Redis the limits are counted there: the same answer comes through a promise.
    expect(repeat instanceof Promise).toBe(rt.settings.REDIS_URL !== undefined);
    const answer = await repeat;
    expect(answer.status).toBe(200);
    expect(answer.headers.get('ratelimit')).toMatch(/^"default";r=\d+;t=\d+, "burst";r=\d+;t=\d+$/);
    expect(((await answer.json()) as { projects: { key: string }[] }).projects.map((p) => p.key)).toEqual(['shop']);
  });

  it('keeps what it answered for one credential away from another', async () => {
    const bob = await createAccountWithKey(rt, { email: 'bob@example.com', projects: ['blog'] });
    expect(await projectKeys(bob.key)).toEqual(['blog']);
    expect(await projectKeys(alice.key)).toEqual(['shop']);
  });
});

describe('every write that changes an answer empties the cache', () => {
  it('a grant and its removal', async () => {
    expect(await projectKeys(alice.key)).toEqual(['shop']);
    const blog = (await getProjectByKey(rt.store.db, 'blog'))!;
    await grantProjectAccess(rt.store.db, alice.accountId, blog.id);
    expect(await projectKeys(alice.key)).toEqual(['blog', 'shop']);
    expect((await rt.request('/api/v1/projects/blog', { key: alice.key })).status).toBe(200);
    await revokeProjectAccess(rt.store.db, alice.accountId, blog.id);
    expect(await projectKeys(alice.key)).toEqual(['shop']);
    expect((await rt.request('/api/v1/projects/blog', { key: alice.key })).status).toBe(404);
  });

  it('a project edit', async () => {
    const before = (await (await rt.request('/api/v1/projects/shop', { key: alice.key })).json()) as { project: { name: string } };
    expect(before.project.name).toBe('Shop');
    await rt.store.db.updateTable('projects').set({ name: 'Shop renamed' }).where('key', '=', 'shop').execute();
    const after = (await (await rt.request('/api/v1/projects/shop', { key: alice.key })).json()) as { project: { name: string } };
    expect(after.project.name).toBe('Shop renamed');
  });

  it('funnel create and delete', async () => {
    const shop = (await getProjectByKey(rt.store.db, 'shop'))!;
    expect(await funnelKeys(alice.key)).toEqual([]);
    await createFunnel(rt.store.db, { projectId: shop.id, name: 'Checkout', key: 'checkout', steps: STEPS, createdVia: 'cli' });
    expect(await funnelKeys(alice.key)).toEqual(['checkout']);
    await rt.store.db.updateTable('funnels').set({ key: 'checkout-2' }).where('key', '=', 'checkout').execute();
    expect(await funnelKeys(alice.key)).toEqual(['checkout-2']);
    await deleteFunnel(rt.store.db, 'checkout-2');
    expect(await funnelKeys(alice.key)).toEqual([]);
  });

  it('a data source status change', async () => {
    const shop = (await getProjectByKey(rt.store.db, 'shop'))!;
    await connectSource(rt.store.db, rt.box, shop.id, 'engine2', { siteUrl: 'https://shop.example/', credential: { kind: 'api_key', secret: 'bingkey' } });
    const statusOf = async () => {
      const body = (await (await rt.request('/api/v1/projects/shop', { key: alice.key })).json()) as { project: { dataSources: Record<string, { status: string }> } };
      return body.project.dataSources.engine2?.status;
    };
    // Stored without a probe: pending until a call with the credential succeeds.
    expect(await statusOf()).toBe('pending');
    await setSourceStatus(rt.store.db, shop.id, 'engine2', 'error', 'key rejected');
    expect(await statusOf()).toBe('error');
  });

  it('a key revocation and rotation', async () => {
    const carol = await createAccountWithKey(rt, { email: 'carol@example.com', projects: ['shop'] });
    expect(await projectKeys(carol.key)).toEqual(['shop']);
    const before = rt.deps.responseCache.version();
    await rt.apiKeys.rotate(carol.accountId, carol.keyId, { graceMs: 0 });
    expect(rt.deps.responseCache.version()).toBeGreaterThan(before);
    expect((await rt.request('/api/v1/projects/list', { key: carol.key })).status).toBe(401);
  });

  it('a write that changes no row keeps the cache', async () => {
    await projectKeys(alice.key);
    const before = rt.deps.responseCache.version();
    const shop = (await getProjectByKey(rt.store.db, 'shop'))!;
    await revokeProjectAccess(rt.store.db, 'acct_nobody', shop.id);
    expect(rt.deps.responseCache.version()).toBe(before);
  });
});

describe('a write drops only the answers it can change', () => {
  // Each case changes something through the unwatched connection first: an answer that still shows the old value
  // afterwards came from memory, so the announced write did not drop it.
  it("a data source's status drops the project views, not the funnels", async () => {
    const shop = (await getProjectByKey(rt.store.db, 'shop'))!;
    expect(await funnelKeys(alice.key)).toEqual([]);
    await createFunnel(behind.db, { projectId: shop.id, name: 'Unseen', key: 'unseen', steps: STEPS, createdVia: 'cli' });
    await setSourceStatus(rt.store.db, shop.id, 'engine2', 'ok', null);
    const project = (await (await rt.request('/api/v1/projects/shop', { key: alice.key })).json()) as { project: { dataSources: Record<string, { status: string }> } };
    expect(project.project.dataSources.engine2?.status).toBe('ok');
    expect(await funnelKeys(alice.key)).toEqual([]);
    await deleteFunnel(rt.store.db, 'unseen');
  });

  it('a funnel write drops the funnel answers, not the projects list', async () => {
    const shop = (await getProjectByKey(rt.store.db, 'shop'))!;
    const blog = (await getProjectByKey(rt.store.db, 'blog'))!;
    expect(await projectKeys(alice.key)).toEqual(['shop']);
    await grantProjectAccess(behind.db, alice.accountId, blog.id);
    await createFunnel(rt.store.db, { projectId: shop.id, name: 'Seen', key: 'seen', steps: STEPS, createdVia: 'cli' });
    expect(await funnelKeys(alice.key)).toEqual(['seen']);
    expect(await projectKeys(alice.key)).toEqual(['shop']);
    await deleteFunnel(rt.store.db, 'seen');
    await revokeProjectAccess(rt.store.db, alice.accountId, blog.id);
    expect(await projectKeys(alice.key)).toEqual(['shop']);
  });

  it("a key's revocation drops that key's answers, not another's", async () => {
    const dave = await createAccountWithKey(rt, { email: 'dave@example.com', projects: ['shop'] });
    const blog = (await getProjectByKey(rt.store.db, 'blog'))!;
    expect(await projectKeys(alice.key)).toEqual(['shop']);
    await grantProjectAccess(behind.db, alice.accountId, blog.id);
    await rt.apiKeys.rotate(dave.accountId, dave.keyId, { graceMs: 0 });
    expect((await rt.request('/api/v1/projects/list', { key: dave.key })).status).toBe(401);
    expect(await projectKeys(alice.key)).toEqual(['shop']);
    await revokeProjectAccess(rt.store.db, alice.accountId, blog.id);
  });
});
