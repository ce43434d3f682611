// Removing someone's access, or lowering their role, reaches their API keys and OAuth tokens at once on every
// instance: two instances share PostgreSQL and Redis; an admin changes access on one (through the dashboard), and
// as soon as the other hears the write on the bus, the same key and token there read nothing of the project and
// write nothing to it — including a create_funnel confirmation obtained before the change and answers the other
// instance had cached. Every read and write checks the account's current role, and the write empties every
// instance's answer cache, so hearing the bus message is the whole delay (well under a second).
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeRedis } from '../../src/cache/redis-connection.ts';
import { createAccount, setAccountPassword } from '../../src/store/accounts-repository.ts';
import { putProjectRole } from '../../src/store/project-roles-repository.ts';
import { createProject, type ProjectRecord } from '../../src/store/projects-repository.ts';
import { connectTestRedis, deleteByPrefix, TEST_REDIS_URL, uniquePrefix } from '../cache/redis-helpers.ts';
import { listenForCatalogueWrite } from '../helpers/catalogue-writes.ts';
import { webClient, type WebClient } from '../dashboard/web-client.ts';
import { createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';
import { connect, RELAXED_LIMITS, type TestClient } from '../mcp/mcp-clients.ts';
import { authorizeAndExchange, PASSWORD } from '../oauth/oauth-helpers.ts';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

describe.skipIf(TEST_REDIS_URL === undefined || TEST_DATABASE_URL === undefined)('access changes across instances (PostgreSQL + Redis)', () => {
  const keyPrefix = uniquePrefix();
  let a: TestRuntime;
  let b: TestRuntime;
  let shop: ProjectRecord;
  let admin: WebClient;
  const people: Record<'removed' | 'demoted', { accountId: string; key: string; token: string; mcp: TestClient; oauth: TestClient }> = {} as never;
  const steps = [
    { type: 'page', match: 'exact', value: '/' },
    { type: 'page', match: 'begins_with', value: '/cart' },
  ];

  const listen = (rt: TestRuntime, table: string) => listenForCatalogueWrite(rt, a, table);

  async function status(rt: TestRuntime, path: string, key: string): Promise<number> {
    return (await rt.request(path, { key })).status;
  }

  async function person(email: string) {
    const account = await createAccount(a.store.db, { email, name: email });
    await setAccountPassword(a.store.db, account.id, PASSWORD);
    await putProjectRole(a.store.db, account.id, shop.id, 'editor', new Date());
    const { key } = await a.apiKeys.create(account.id, { scopes: ['read', 'mcp:write'] });
    const { tokens } = await authorizeAndExchange({ rt: a, accountId: account.id, email, apiKey: key, deps: () => a.deps.web! }, { scope: 'read mcp:write' });
    return { accountId: account.id, key, token: tokens.access_token, mcp: await connect(b, 'v2-legacy', key), oauth: await connect(b, 'v2-legacy', tokens.access_token) };
  }

  beforeAll(async () => {
    const secret = randomBytes(32).toString('base64');
    const shared = { ...RELAXED_LIMITS, keyPrefix };
    a = await createTestRuntime({ env: { REDIS_URL: TEST_REDIS_URL!, SITELINE_SECRET_KEY: secret }, shared });
    // The same database for both: a's PostgreSQL schema in the services pass, a's SQLite file in the embedded one.
    b = await createTestRuntime({ env: { REDIS_URL: TEST_REDIS_URL!, SITELINE_SECRET_KEY: secret, DATABASE_URL: a.cliEnv.DATABASE_URL ?? join(a.dataDir, 'siteline.sqlite') }, shared });
    shop = await createProject(a.store.db, { key: 'shop', name: 'Shop', domain: 'shop.example' });
    const owner = await createAccount(a.store.db, { email: 'admin@example.com', name: 'Admin' });
    await setAccountPassword(a.store.db, owner.id, PASSWORD);
    await putProjectRole(a.store.db, owner.id, shop.id, 'admin', new Date());
    admin = webClient(a);
    await admin.get('/account/sign-in');
    await admin.post('/account/sign-in', { email: 'admin@example.com', password: PASSWORD, return_to: '/dashboard' });
    people.removed = await person('removed@example.com');
    people.demoted = await person('demoted@example.com');
  }, 60_000);

  afterAll(async () => {
    for (const p of Object.values(people)) await Promise.all([p.mcp.close(), p.oauth.close()]);
    await Promise.all([a?.dispose(), b?.dispose()]);
    const redis = await connectTestRedis();
    await deleteByPrefix(redis, keyPrefix);
    await closeRedis(redis);
  });

  it('removing access on one instance: the key and the OAuth token reach nothing on the other', async () => {
    const { key, mcp, oauth } = people.removed;
    // Instance b answers (and caches) the project for the key, and hands out a confirmation for a funnel.
    expect(await status(b, '/api/v1/projects/shop', key)).toBe(200);
    expect(((await (await b.request('/api/v1/projects/list', { key })).json()) as { projects: unknown[] }).projects).toHaveLength(1);
    const preview = await oauth.callTool({ name: 'create_funnel', arguments: { project: 'shop', name: 'Late', steps } });
    expect(preview.isError).toBeFalsy();
    const token = (preview.structuredContent as { confirmation_token: string }).confirmation_token;

    const { heard } = await listen(b, 'account_projects');
    await admin.get('/dashboard/p/shop/settings');
    expect((await admin.post('/dashboard/p/shop/access/revoke', { account_id: people.removed.accountId, confirm: 'yes' })).location).toBe('/dashboard/p/shop/settings?done=removed');
    await heard;

    expect(await status(b, '/api/v1/projects/shop', key)).toBe(404);
    expect(((await (await b.request('/api/v1/projects/list', { key })).json()) as { projects: unknown[] }).projects).toEqual([]);
    expect((await mcp.callTool({ name: 'get_project', arguments: { project: 'shop' } })).isError).toBe(true);
    const confirmed = await oauth.callTool({ name: 'create_funnel', arguments: { project: 'shop', name: 'Late', steps, confirmation_token: token } });
    expect(confirmed.isError).toBe(true);
    expect((await a.store.db.selectFrom('funnels').select('id').where('project_id', '=', shop.id).execute()).length).toBe(0);
  });

  it('lowering a role on one instance: the other refuses the writes the new role does not allow', async () => {
    const { key, mcp, oauth } = people.demoted;
    const preview = await mcp.callTool({ name: 'create_funnel', arguments: { project: 'shop', name: 'Kept out', steps } });
    const token = (preview.structuredContent as { confirmation_token: string }).confirmation_token;
    expect(await status(b, '/api/v1/projects/shop', key)).toBe(200);

    const { heard } = await listen(b, 'account_projects');
    await admin.get('/dashboard/p/shop/settings');
    expect((await admin.post('/dashboard/p/shop/access/role', { account_id: people.demoted.accountId, role: 'viewer' })).status).toBe(303);
    await heard;

    // Still reads, with either credential...
    expect(await status(b, '/api/v1/projects/shop', key)).toBe(200);
    expect((await oauth.callTool({ name: 'get_project', arguments: { project: 'shop' } })).isError).toBeFalsy();
    // ...but the confirmation given to the editor creates nothing now, and new previews and refreshes are refused.
    const confirmed = await mcp.callTool({ name: 'create_funnel', arguments: { project: 'shop', name: 'Kept out', steps, confirmation_token: token } });
    expect(confirmed.isError).toBe(true);
    expect(confirmed.content?.map((c) => c.text).join('')).toContain('is viewer');
    expect((await oauth.callTool({ name: 'create_funnel', arguments: { project: 'shop', name: 'Again', steps } })).isError).toBe(true);
    expect(await status(b, '/api/v1/projects/shop/funnels/list', key)).toBe(200);
    expect(((await (await b.request('/api/v1/metrics/shop/summary?force=1', { key })).json()) as { code: string }).code).toBe('insufficient_role');
    expect((await a.store.db.selectFrom('funnels').select('id').where('project_id', '=', shop.id).execute()).length).toBe(0);
  });
});
