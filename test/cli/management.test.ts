import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createApiKeyService } from '../../src/auth/api-keys.ts';
import { hasValidChecksum } from '../../src/auth/api-key-format.ts';
import { findLiveSession, insertSession } from '../../src/store/account-sessions-repository.ts';
import { openDatabase } from '../../src/store/database.ts';
import { describeEachDatabase } from '../store/databases.ts';
import type { FreshDatabase } from '../store/databases.ts';
import { runSiteline } from './run.ts';

const PRIVATE_KEY = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n';

function cliFor(database: FreshDatabase) {
  const env = { DATA_DIR: database.dataDir, DATABASE_URL: database.url };
  return (args: string[], stdin?: string) => runSiteline(args, env, stdin);
}

async function withStore<T>(database: FreshDatabase, use: (store: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>): Promise<T> {
  const store = await openDatabase({ url: database.url, dataDir: database.dataDir });
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

async function verifyKey(database: FreshDatabase, key: string) {
  const store = await openDatabase({ url: database.url, dataDir: database.dataDir });
  try {
    return await createApiKeyService({ db: store.db, logger: { warn: () => {} } }).verify(key).then(
      (principal) => ({ ok: true as const, principal }),
      (error: unknown) => ({ ok: false as const, error }),
    );
  } finally {
    await store.close();
  }
}

describeEachDatabase('siteline management CLI', (fresh) => {
  it('accounts: create, list, set-password, duplicate refused', async () => {
    const { database } = await fresh();
    const cli = cliFor(database);
    const created = await cli(['accounts', 'create', '--email', 'Ada@Example.com', '--name', 'Ada', '--password-stdin', '--json'], 'a long passphrase\n');
    expect(created.code).toBe(0);
    expect(created.json<{ account: { email: string; hasPassword: boolean } }>().account).toMatchObject({ email: 'Ada@Example.com', hasPassword: true });
    expect(created.stdout).not.toContain('a long passphrase');

    const duplicate = await cli(['accounts', 'create', '--email', 'ada@example.com', '--name', 'Again']);
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toMatch(/already exists/);

    await cli(['accounts', 'create', '--email', 'bob@example.com', '--name', 'Bob']);
    const listed = await cli(['accounts', 'list', '--json']);
    expect(listed.json<{ accounts: { email: string; hasPassword: boolean }[] }>().accounts.map((a) => [a.email, a.hasPassword])).toEqual([
      ['Ada@Example.com', true],
      ['bob@example.com', false],
    ]);
    const bob = (await cli(['accounts', 'list', '--json'])).json<{ accounts: { id: string; email: string }[] }>().accounts.find((a) => a.email === 'bob@example.com')!;
    await withStore(database, (store) =>
      insertSession(store.db, { digest: 'c'.repeat(64), accountId: bob.id, createdAt: new Date().toISOString(), expiresAt: new Date(Date.now() + 3_600_000).toISOString() }),
    );
    expect((await cli(['accounts', 'set-password', '--email', 'bob@example.com', '--password', 'another passphrase'])).code).toBe(0);
    // Whoever was signed in with the old password is signed out.
    expect(await withStore(database, (store) => findLiveSession(store.db, 'c'.repeat(64), new Date()))).toBeUndefined();
    const human = await cli(['accounts', 'list']);
    expect(human.stdout).toMatch(/^EMAIL\s+NAME\s+ID\s+PASSWORD/);
    expect(human.stdout).toMatch(/bob@example\.com\s+Bob\s+acct_\w+\s+yes/);
  });

  it('keys: create prints the key once, list, revoke by prefix, rotate with grace', async () => {
    const { database } = await fresh();
    const cli = cliFor(database);
    await cli(['accounts', 'create', '--email', 'ada@example.com', '--name', 'Ada']);
    await cli(['projects', 'add', '--key', 'shop', '--name', 'Shop', '--domain', 'shop.example', '--grant', 'ada@example.com']);

    const human = await cli(['keys', 'create', '--account', 'ada@example.com', '--name', 'laptop']);
    expect(human.code).toBe(0);
    const key = human.stdout.trim();
    expect(hasValidChecksum(key)).toBe(true);
    expect(human.stderr).toMatch(/not shown again/);
    expect((await verifyKey(database, key)).ok).toBe(true);

    const scripted = await cli(['keys', 'create', '--account', 'ada@example.com', '--name', 'ci', '--scopes', 'read,raw', '--projects', 'shop', '--expires', '30d', '--json']);
    const issued = scripted.json<{ key: string; apiKey: { id: string; scopes: string[]; projectKeys: string[]; expiresAt: string } }>();
    expect(issued.apiKey).toMatchObject({ scopes: ['read', 'raw'], projectKeys: ['shop'] });
    expect(Date.parse(issued.apiKey.expiresAt) - Date.now()).toBeGreaterThan(29 * 86_400_000);

    const list = await cli(['keys', 'list', '--account', 'ada@example.com', '--json']);
    const keys = list.json<{ apiKeys: { id: string; prefix: string; status: string }[] }>().apiKeys;
    expect(keys).toHaveLength(2);
    expect(list.stdout).not.toContain(key);
    expect(list.stdout).not.toMatch(/digest/);

    const revoked = await cli(['keys', 'revoke', key.slice(0, 12), '--account', 'ada@example.com']);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toMatch(/Revoked API key key_/);
    expect((await verifyKey(database, key)).ok).toBe(false);

    const rotated = await cli(['keys', 'rotate', issued.apiKey.id, '--account', 'ada@example.com', '--grace', '1h', '--json']);
    expect(rotated.code).toBe(0);
    const result = rotated.json<{ key: string; apiKey: { rotatedFrom: string; scopes: string[] }; previous: { expiresAt: string } }>();
    expect(result.apiKey).toMatchObject({ rotatedFrom: issued.apiKey.id, scopes: ['read', 'raw'] });
    expect(Math.abs(Date.parse(result.previous.expiresAt) - (Date.now() + 3_600_000))).toBeLessThan(60_000);
    expect((await verifyKey(database, result.key)).ok).toBe(true);
    expect((await verifyKey(database, issued.key)).ok).toBe(true);

    const table = await cli(['keys', 'list', '--account', 'ada@example.com']);
    expect(table.stdout).toMatch(/revoked/);
    expect((await cli(['keys', 'revoke', 'key_nope', '--account', 'ada@example.com'])).code).toBe(1);
    expect((await cli(['keys', 'create', '--account', 'ada@example.com', '--scopes', 'admin'])).stderr).toMatch(/'admin'/);
    expect((await cli(['keys', 'create', '--account', 'ada@example.com', '--expires', 'soon'])).code).toBe(2);
  });

  it('projects: add, grant, connect with encrypted credentials, list, disconnect', async () => {
    const { database } = await fresh();
    const cli = cliFor(database);
    await cli(['accounts', 'create', '--email', 'ada@example.com', '--name', 'Ada']);
    await cli(['accounts', 'create', '--email', 'bob@example.com', '--name', 'Bob']);
    const added = await cli(['projects', 'add', '--key', 'shop', '--name', 'Shop', '--domain', 'shop.example', '--timezone', 'Europe/Berlin', '--currency', 'EUR', '--grant', 'ada@example.com', '--json']);
    expect(added.code).toBe(0);
    expect(added.json<{ project: { timezone: string } }>().project.timezone).toBe('Europe/Berlin');
    expect((await cli(['projects', 'add', '--key', 'blog', '--name', 'Blog', '--domain', 'blog.example'])).stdout).toMatch(/projects grant blog/);
    expect((await cli(['projects', 'add', '--key', 'Bad Key', '--name', 'X', '--domain', 'x.example'])).code).toBe(1);

    const saFile = join(database.dataDir, 'sa.json');
    writeFileSync(saFile, JSON.stringify({ type: 'service_account', client_email: 'sa@p.iam.gserviceaccount.com', private_key: PRIVATE_KEY }));
    const connected = await cli(['projects', 'connect', 'shop', 'analytics', '--property-id', '123456789', '--service-account', saFile, '--no-check']);
    expect(connected.code).toBe(0);
    expect(connected.stdout).not.toContain('PRIVATE KEY');
    expect(existsSync(join(database.dataDir, 'secret-key'))).toBe(true);

    const bingFile = join(database.dataDir, 'bing.txt');
    writeFileSync(bingFile, 'bing-api-key-0123\n');
    expect((await cli(['projects', 'connect', 'shop', 'engine2', '--site-url', 'https://shop.example/', '--api-key-file', bingFile, '--no-check'])).code).toBe(0);

    const badFile = join(database.dataDir, 'bad.json');
    writeFileSync(badFile, JSON.stringify({ client_email: 'x@y', private_key_id: 'super-secret-id' }));
    const bad = await cli(['projects', 'connect', 'shop', 'engine1', '--site-url', 'sc-domain:shop.example', '--service-account', badFile]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/lacks 'private_key'/);
    expect(bad.stderr).not.toContain('super-secret-id');
    expect((await cli(['projects', 'connect', 'shop', 'engine1', '--site-url', 'https://shop.example/'])).code).toBe(2);
    expect((await cli(['projects', 'connect', 'shop', 'engine9', '--site-url', 'https://shop.example/', '--api-key-file', bingFile])).code).toBe(2);

    const listed = await cli(['projects', 'list', '--account', 'ada@example.com', '--json']);
    const projects = listed.json<{ projects: { key: string; dataSources: Record<string, { connected: boolean; status: string; propertyId?: string }> }[] }>().projects;
    expect(projects.map((p) => p.key)).toEqual(['shop']);
    expect(projects[0]?.dataSources).toMatchObject({
      // --no-check: stored unprobed, so not shown OK before a call with the credential succeeds.
      analytics: { connected: true, status: 'pending', propertyId: '123456789' },
      engine1: { connected: false, status: 'not_connected' },
      engine2: { connected: true, status: 'pending' },
    });
    expect(listed.stdout).not.toMatch(/PRIVATE KEY|bing-api-key/);
    expect((await cli(['projects', 'list', '--json'])).json<{ projects: { key: string }[] }>().projects.map((p) => p.key)).toEqual(['blog', 'shop']);
    expect((await cli(['projects', 'list', '--account', 'bob@example.com', '--json'])).json<{ projects: unknown[] }>().projects).toEqual([]);

    expect((await cli(['projects', 'grant', 'blog', '--account', 'bob@example.com'])).code).toBe(0);
    expect((await cli(['projects', 'list', '--account', 'bob@example.com', '--json'])).json<{ projects: { key: string }[] }>().projects.map((p) => p.key)).toEqual(['blog']);

    expect((await cli(['projects', 'disconnect', 'shop', 'engine2'])).code).toBe(0);
    expect((await cli(['projects', 'disconnect', 'shop', 'engine2'])).code).toBe(1);
    const after = (await cli(['projects', 'list', '--json'])).json<{ projects: { key: string; dataSources: Record<string, { status: string }> }[] }>();
    expect(after.projects.find((p) => p.key === 'shop')?.dataSources.engine2?.status).toBe('not_connected');
    const human = await cli(['projects', 'list']);
    expect(human.stdout).toMatch(/shop\s+Shop\s+shop\.example\s+Europe\/Berlin\s+EUR\s+pending\s+not_connected\s+not_connected/);
  });

  it('projects brand-terms: shows the default, sets, empties and restores it', async () => {
    const { database } = await fresh();
    const cli = cliFor(database);
    await cli(['projects', 'add', '--key', 'shop', '--name', 'Shop', '--domain', 'acme-shop.example']);
    const shown = await cli(['projects', 'brand-terms', 'shop', '--json']);
    expect(shown.json()).toMatchObject({ project: 'shop', brandTerms: null, isDefault: true, inEffect: ['acme shop', 'acmeshop', 'acme-shop'] });

    const set = await cli(['projects', 'brand-terms', 'shop', '--term', ' Acme  Shop ', '--term', 'acme shop', '--term', 'AcmeCo', '--json']);
    expect(set.code).toBe(0);
    expect(set.json()).toMatchObject({ brandTerms: ['acme shop', 'acmeco'], isDefault: false, inEffect: ['acme shop', 'acmeco'] });
    const listed = (await cli(['projects', 'list', '--json'])).json<{ projects: { key: string; brandTerms: string[] | null }[] }>();
    expect(listed.projects[0]?.brandTerms).toEqual(['acme shop', 'acmeco']);
    expect((await cli(['projects', 'brand-terms', 'shop'])).stdout).toBe("shop: brand terms are 'acme shop', 'acmeco'.\n");

    expect((await cli(['projects', 'brand-terms', 'shop', '--none', '--json'])).json()).toMatchObject({ brandTerms: [] });
    expect((await cli(['projects', 'brand-terms', 'shop', '--default'])).stdout).toBe("shop: brand terms are now derived from the domain: 'acme shop', 'acmeshop', 'acme-shop'.\n");
    expect((await cli(['projects', 'brand-terms', 'shop', '--json'])).json()).toMatchObject({ brandTerms: null, isDefault: true });

    const both = await cli(['projects', 'brand-terms', 'shop', '--term', 'x', '--default']);
    expect(both.code).toBe(2);
    expect((await cli(['projects', 'brand-terms', 'ghost', '--none'])).code).toBe(1);
    const tooLong = await cli(['projects', 'brand-terms', 'shop', '--term', 'x'.repeat(101)]);
    expect(tooLong.code).toBe(1);
    expect(tooLong.stderr).toMatch(/longer than 100/);
    await withStore(database, async (store) => {
      const audit = await store.db.selectFrom('audit_log').select(['action', 'subject']).where('action', '=', 'project.brand_terms').execute();
      expect(audit).toHaveLength(3);
    });
  });

  it('funnels: create, list, delete', async () => {
    const { database } = await fresh();
    const cli = cliFor(database);
    await cli(['projects', 'add', '--key', 'shop', '--name', 'Shop', '--domain', 'shop.example']);
    const created = await cli(['funnels', 'create', 'shop', '--name', 'Checkout', '--step', 'event:exact:page_view', '--step', 'Pricing=page:begins_with:/pricing', '--step', 'event:regex:^purchase$', '--json']);
    expect(created.code).toBe(0);
    const funnel = created.json<{ funnel: { key: string; createdVia: string; steps: { name: string; type: string; match: string; value: string }[] } }>().funnel;
    expect(funnel.key).toMatch(/^checkout-[a-z0-9]{5}$/);
    expect(funnel.createdVia).toBe('cli');
    expect(funnel.steps[1]).toEqual({ name: 'Pricing', type: 'page', match: 'begins_with', value: '/pricing' });

    expect((await cli(['funnels', 'create', 'shop', '--name', 'Bad', '--step', 'click:exact:x', '--step', 'event:exact:y'])).code).toBe(2);
    expect((await cli(['funnels', 'create', 'shop', '--name', 'Lonely', '--step', 'event:exact:x'])).stderr).toMatch(/2 to 10 steps/);
    expect((await cli(['funnels', 'create', 'ghost', '--name', 'X', '--step', 'event:exact:x', '--step', 'event:exact:y'])).code).toBe(1);

    const listed = await cli(['funnels', 'list', 'shop', '--json']);
    expect(listed.json<{ funnels: { key: string }[] }>().funnels.map((f) => f.key)).toEqual([funnel.key]);
    expect((await cli(['funnels', 'list', 'shop'])).stdout).toContain('event:exact:page_view → page:begins_with:/pricing');

    expect((await cli(['funnels', 'delete', funnel.key])).code).toBe(0);
    expect((await cli(['funnels', 'delete', funnel.key])).code).toBe(1);
    expect((await cli(['funnels', 'list', 'shop', '--json'])).json<{ funnels: unknown[] }>().funnels).toEqual([]);
  });
});
