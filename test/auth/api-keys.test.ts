import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely, KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checksumOf, generateApiKey } from '../../src/auth/api-key-format.ts';
import { createApiKeyService } from '../../src/auth/api-keys.ts';
import type { ApiKeyServiceOptions } from '../../src/auth/api-keys.ts';
import { createAccount } from '../../src/store/accounts-repository.ts';
import { findApiKeyById, insertApiKey } from '../../src/store/api-keys-repository.ts';
import { listAudit } from '../../src/store/audit-repository.ts';
import { openDatabase } from '../../src/store/database.ts';
import type { Store } from '../../src/store/database.ts';
import { createProject } from '../../src/store/projects-repository.ts';
import type { Database } from '../../src/store/schema.ts';
import { expectAppErrorRejection, rejectionOf } from '../domain/expect-app-error.ts';
import { AppError } from '../../src/errors/app-error.ts';

const dir = mkdtempSync(join(tmpdir(), 'siteline-keys-'));
let store: Store;
let accountId: string;
let otherAccountId: string;

beforeAll(async () => {
  store = await openDatabase({ url: join(dir, 'db.sqlite'), dataDir: dir });
  accountId = (await createAccount(store.db, { email: 'ada@example.com', name: 'Ada' })).id;
  otherAccountId = (await createAccount(store.db, { email: 'bob@example.com', name: 'Bob' })).id;
  await createProject(store.db, { key: 'shop', name: 'Shop', domain: 'shop.example' });
  await createProject(store.db, { key: 'blog', name: 'Blog', domain: 'blog.example' });
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The same database, counting every query issued through it (and optionally failing updates). */
function instrumented(options: { failUpdates?: boolean } = {}) {
  const counter = { queries: 0, updates: 0 };
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      counter.queries += 1;
      if (args.node.kind === 'UpdateQueryNode') {
        counter.updates += 1;
        if (options.failUpdates) throw new Error('database unavailable');
      }
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { db: store.db.withPlugin(plugin) as Kysely<Database>, counter };
}

function fakeClock(start = Date.parse('2026-03-01T12:00:00Z')) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

function service(overrides: Partial<ApiKeyServiceOptions> = {}) {
  const clock = fakeClock();
  const { db, counter } = instrumented();
  return { clock, counter, keys: createApiKeyService({ db, clock: clock.now, logger: { warn: () => {} }, ...overrides }) };
}

describe('API key service', () => {
  it('issues a key once and verifies it into a principal with scopes, restriction and limits', async () => {
    const { keys, clock } = service();
    const expiresAt = new Date(clock.now() + 86_400_000);
    const { key, record } = await keys.create(accountId, { name: 'ci', scopes: ['read', 'raw'], projectKeys: ['shop'], rateLimitPerMinute: 120, expiresAt });
    expect(key).toMatch(/^sl_live_[0-9A-Za-z]{38}$/);
    expect(record).toMatchObject({ name: 'ci', prefix: key.slice(0, 12), last4: key.slice(-4), status: 'active', rotatedFrom: null });
    expect(record).not.toHaveProperty('digest');
    const stored = await findApiKeyById(store.db, record.id);
    expect(JSON.stringify(stored)).not.toContain(key);

    const principal = await keys.verify(key);
    expect(principal).toMatchObject({ kind: 'api_key', accountId, credentialId: record.id, rateLimitPerMinute: 120, expiresAt: expiresAt.getTime() });
    expect([...principal.scopes]).toEqual(['read', 'raw']);
    expect([...(principal.projectKeys ?? [])]).toEqual(['shop']);
    expect((await listAudit(store.db, { action: 'api_key.create' })).some((e) => e.subject === record.id)).toBe(true);
  });

  it('defaults to the read scope and no project restriction', async () => {
    const { keys } = service();
    const { key } = await keys.create(accountId);
    const principal = await keys.verify(key);
    expect([...principal.scopes]).toEqual(['read']);
    expect(principal.projectKeys).toBeNull();
    expect(principal.rateLimitPerMinute).toBeUndefined();
  });

  it('rejects unknown projects, past expiries and bad rate limits at creation', async () => {
    const { keys, clock } = service();
    await expect(keys.create(accountId, { projectKeys: ['shop', 'ghost'] })).rejects.toMatchObject({ code: 'invalid_parameter', message: expect.stringContaining("'ghost'") });
    await expect(keys.create(accountId, { expiresAt: new Date(clock.now() - 1) })).rejects.toMatchObject({ param: 'expires' });
    await expect(keys.create(accountId, { rateLimitPerMinute: 0 })).rejects.toMatchObject({ param: 'rateLimitPerMinute' });
  });

  it('rejects a bad-checksum key without touching the database', async () => {
    const { keys, counter } = service();
    const valid = generateApiKey();
    const tampered = valid.slice(0, 10) + (valid[10] === 'a' ? 'b' : 'a') + valid.slice(11);
    for (const token of [tampered, 'sl_live_short', `sl_live_${'x'.repeat(38)}`]) {
      await expect(keys.verify(token)).rejects.toMatchObject({ code: 'invalid_api_key', status: 401 });
    }
    expect(counter.queries).toBe(0);
  });

  it('rejects an unknown key (valid checksum) after one lookup, with the same message', async () => {
    const { keys, counter } = service();
    const body = `sl_live_${'Z'.repeat(32)}`;
    const error = await keys.verify(body + checksumOf(body)).catch((e: unknown) => e);
    const malformed = await keys.verify('sl_live_nope').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_api_key' });
    expect((error as Error).message).toBe((malformed as Error).message);
    expect(counter.queries).toBe(1);
  });

  it('serves repeated verifications from the cache until the TTL passes', async () => {
    const { keys, counter, clock } = service({ cacheTtlMs: 30_000, lastUsedIntervalMs: 3_600_000 });
    const { key } = await keys.create(accountId);
    await keys.verify(key);
    await keys.settle();
    const afterFirst = counter.queries;
    await keys.verify(key);
    await keys.verify(key);
    expect(counter.queries).toBe(afterFirst);
    clock.advance(30_001);
    await keys.verify(key);
    expect(counter.queries).toBe(afterFirst + 1);
  });

  it('a cached key is recognised only by its exact string; a near miss still goes through checksum and lookup', async () => {
    const { keys, counter } = service({ cacheTtlMs: 3_600_000, lastUsedIntervalMs: 3_600_000 });
    const { key, record } = await keys.create(accountId);
    const first = await keys.verify(key);
    await keys.settle();
    const afterFirst = counter.queries;
    expect(await keys.verify(key)).toBe(first); // the same principal, no query
    expect(counter.queries).toBe(afterFirst);
    const body = key.slice(0, -7) + (key.at(-7) === 'A' ? 'B' : 'A');
    await expect(keys.verify(body + checksumOf(body))).rejects.toMatchObject({ code: 'invalid_api_key' });
    expect(counter.queries).toBe(afterFirst + 1);
    await expect(keys.verify(key.toLowerCase())).rejects.toMatchObject({ code: 'invalid_api_key' });
    expect(first).toMatchObject({ credentialId: record.id });
  });

  it('recognises at once only an active key it verified within the TTL', async () => {
    const { keys, clock } = service({ cacheTtlMs: 30_000, lastUsedIntervalMs: 3_600_000 });
    const { key, record } = await keys.create(accountId);
    const { key: expiring } = await keys.create(accountId, { expiresAt: new Date(clock.now() + 10_000) });
    expect(keys.recognise(key)).toBeUndefined(); // never verified here
    const principal = await keys.verify(key);
    await keys.verify(expiring);
    expect(keys.recognise(key)).toBe(principal);
    expect(keys.recognise(key.toLowerCase())).toBeUndefined();
    clock.advance(10_000);
    expect(keys.recognise(expiring)).toBeUndefined(); // expired while cached
    clock.advance(20_001);
    expect(keys.recognise(key)).toBeUndefined(); // past the TTL: verify asks the database again
    await keys.verify(key);
    await keys.revoke(accountId, record.id);
    expect(keys.recognise(key)).toBeUndefined();
  });

  it('revocation takes effect immediately in this process, even for a cached key', async () => {
    const { keys } = service({ cacheTtlMs: 3_600_000 });
    const { key, record } = await keys.create(accountId);
    await keys.verify(key);
    const revoked = await keys.revoke(accountId, record.id);
    expect(revoked.status).toBe('revoked');
    await expect(keys.verify(key)).rejects.toMatchObject({ code: 'invalid_api_key' });
    expect((await keys.list(accountId)).find((k) => k.id === record.id)?.status).toBe('revoked');
  });

  it('announces revocations so other instances can drop the key (the pub/sub hook)', async () => {
    const a = service({ cacheTtlMs: 3_600_000 });
    const b = service({ cacheTtlMs: 3_600_000 });
    const { key, record } = await a.keys.create(accountId);
    await b.keys.verify(key); // cached in instance b
    const announced: string[] = [];
    const unsubscribe = a.keys.onInvalidate((id) => {
      announced.push(id);
      b.keys.invalidate(id);
    });
    await a.keys.revoke(accountId, record.prefix);
    unsubscribe();
    expect(announced).toEqual([record.id]);
    await expect(b.keys.verify(key)).rejects.toMatchObject({ code: 'invalid_api_key' });
  });

  it('without the announcement another instance trusts its cache only for the TTL', async () => {
    const a = service();
    const b = service({ cacheTtlMs: 1_000 });
    const { key, record } = await a.keys.create(accountId);
    await b.keys.verify(key);
    await a.keys.revoke(accountId, record.id);
    await expect(b.keys.verify(key)).resolves.toMatchObject({ credentialId: record.id });
    b.clock.advance(1_001);
    await expect(b.keys.verify(key)).rejects.toMatchObject({ code: 'invalid_api_key' });
  });

  it('rejects an expired key, even from the cache', async () => {
    const { keys, clock } = service({ cacheTtlMs: 3_600_000 });
    const { key } = await keys.create(accountId, { expiresAt: new Date(clock.now() + 60_000) });
    await keys.verify(key);
    clock.advance(60_000);
    await expect(keys.verify(key)).rejects.toMatchObject({ code: 'invalid_api_key' });
    expect((await keys.list(accountId)).find((k) => k.expiresAt === new Date(clock.now()).toISOString())?.status).toBe('expired');
  });

  it('rotates: same settings, the old key works until the grace period ends', async () => {
    const { keys, clock } = service({ cacheTtlMs: 3_600_000 });
    const { key: oldKey, record: old } = await keys.create(accountId, { name: 'deploy', scopes: ['read', 'mcp:write'], projectKeys: ['blog'], rateLimitPerMinute: 60 });
    await keys.verify(oldKey);
    const start = clock.now();
    const rotated = await keys.rotate(accountId, old.id, { graceMs: 3_600_000 });
    expect(rotated.key).not.toBe(oldKey);
    expect(rotated.record).toMatchObject({ name: 'deploy', scopes: ['read', 'mcp:write'], projectKeys: ['blog'], rateLimitPerMinute: 60, rotatedFrom: old.id, status: 'active' });
    expect(rotated.previous.expiresAt).toBe(new Date(start + 3_600_000).toISOString());
    clock.advance(3_599_000);
    await expect(keys.verify(oldKey)).resolves.toMatchObject({ credentialId: old.id });
    await expect(keys.verify(rotated.key)).resolves.toMatchObject({ credentialId: rotated.record.id });
    clock.advance(1_000);
    await expect(keys.verify(oldKey)).rejects.toMatchObject({ code: 'invalid_api_key' });
    await expect(keys.verify(rotated.key)).resolves.toMatchObject({ credentialId: rotated.record.id });
    await expect(keys.rotate(accountId, old.id)).rejects.toMatchObject({ code: 'invalid_parameter' });
  });

  it('rotation never extends an expiry that ends before the grace period', async () => {
    const { keys, clock } = service();
    const expiresAt = new Date(clock.now() + 60_000);
    const { record } = await keys.create(accountId, { expiresAt });
    const rotated = await keys.rotate(accountId, record.id);
    expect(rotated.previous.expiresAt).toBe(expiresAt.toISOString());
    expect(rotated.record.expiresAt).toBe(expiresAt.toISOString());
  });

  it('records last use at most once a minute per key', async () => {
    const { keys, clock, counter } = service({ cacheTtlMs: 3_600_000 });
    const { key, record } = await keys.create(accountId);
    const t0 = clock.now();
    const lastUsed = async () => (await findApiKeyById(store.db, record.id))?.lastUsedAt;
    await keys.verify(key);
    await keys.settle();
    expect(await lastUsed()).toBe(new Date(t0).toISOString());
    const updates = counter.updates;
    clock.advance(30_000);
    await keys.verify(key);
    await keys.verify(key);
    await keys.settle();
    expect(counter.updates).toBe(updates);
    expect(await lastUsed()).toBe(new Date(t0).toISOString());
    clock.advance(30_000);
    await keys.verify(key);
    await keys.settle();
    expect(await lastUsed()).toBe(new Date(t0 + 60_000).toISOString());
  });

  it('does not record a use again that another instance recorded less than a minute ago', async () => {
    const first = service();
    const { key, record } = await first.keys.create(accountId);
    await first.keys.verify(key);
    await first.keys.settle();
    const recorded = (await findApiKeyById(store.db, record.id))?.lastUsedAt;
    expect(recorded).toBe(new Date(first.clock.now()).toISOString());
    // Another instance (its own cache and throttle) sees the key 30 s later: the stored time throttles it.
    const second = service();
    second.clock.advance(30_000);
    await second.keys.verify(key);
    await second.keys.settle();
    expect(second.counter.updates).toBe(0);
    second.clock.advance(30_000);
    await second.keys.verify(key);
    await second.keys.settle();
    expect(second.counter.updates).toBe(1);
    expect((await findApiKeyById(store.db, record.id))?.lastUsedAt).toBe(new Date(second.clock.now()).toISOString());
  });

  it('settle() waits for a last-use write still under way (shutdown must not cut it off)', async () => {
    const { key } = await service().keys.create(accountId);
    const release = Promise.withResolvers<void>();
    const updating = Promise.withResolvers<void>();
    const held: KyselyPlugin = {
      transformQuery: (args) => args.node,
      async transformResult(args) {
        // Only the last-use UPDATE returns no rows and changes some: hold it until the test releases it.
        if (args.result.numAffectedRows !== undefined && args.result.rows.length === 0) {
          updating.resolve();
          await release.promise;
        }
        return args.result;
      },
    };
    const keys = createApiKeyService({ db: store.db.withPlugin(held) as Kysely<Database>, logger: { warn: () => {} } });
    await keys.verify(key);
    await updating.promise;
    let settled = false;
    const settling = keys.settle().then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    release.resolve();
    await settling;
    expect(settled).toBe(true);
  });

  it('logs, never throws, when recording last use fails', async () => {
    const warn = vi.fn();
    const { key } = await service().keys.create(accountId);
    const { db } = instrumented({ failUpdates: true });
    const keys = createApiKeyService({ db, logger: { warn } });
    await expect(keys.verify(key)).resolves.toMatchObject({ accountId });
    await keys.settle();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(warn.mock.calls[0])).not.toContain(key);
  });

  it('revokes by id or display prefix, only among the caller’s own keys', async () => {
    const { keys } = service();
    const { key, record } = await keys.create(accountId);
    await expect(keys.revoke(otherAccountId, record.id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(keys.revoke(accountId, 'sl_live_????')).rejects.toMatchObject({ code: 'not_found' });
    await expect(keys.verify(key)).resolves.toBeDefined();
    const revoked = await keys.revoke(accountId, key.slice(8, 12));
    expect(revoked.id).toBe(record.id);
    expect((await listAudit(store.db, { action: 'api_key.revoke' })).some((e) => e.subject === record.id)).toBe(true);
  });

  it('lists an account’s keys newest first without digests', async () => {
    const { keys, clock } = service();
    const first = await keys.create(otherAccountId, { name: 'one' });
    clock.advance(1_000);
    const second = await keys.create(otherAccountId, { name: 'two' });
    const listed = await keys.list(otherAccountId);
    expect(listed.map((k) => k.id)).toEqual([second.record.id, first.record.id]);
    for (const view of listed) expect(view).not.toHaveProperty('digest');
  });
});

describe('input validation at its edges', () => {
  let n = 0;
  const freshAccount = async () => (await createAccount(store.db, { email: `edge${++n}@example.com`, name: 'Edge' })).id;

  it('accepts a name of 1 to 100 characters (trimmed) and refuses an empty or longer one', async () => {
    const { keys } = service();
    const account = await freshAccount();
    expect((await keys.create(account, { name: `  ${'n'.repeat(100)}  ` })).record.name).toBe('n'.repeat(100));
    expect((await keys.create(account, {})).record.name).toBe('API key');
    await expectAppErrorRejection(keys.create(account, { name: 'n'.repeat(101) }), { code: 'invalid_parameter', param: 'name' });
    await expectAppErrorRejection(keys.create(account, { name: '   ' }), { code: 'invalid_parameter', param: 'name' });
  });

  it('accepts a rate limit of 1 to 1,000,000 per minute, whole numbers only', async () => {
    const { keys } = service();
    const account = await freshAccount();
    expect((await keys.create(account, { rateLimitPerMinute: 1 })).record.rateLimitPerMinute).toBe(1);
    expect((await keys.create(account, { rateLimitPerMinute: 1_000_000 })).record.rateLimitPerMinute).toBe(1_000_000);
    expect((await keys.create(account, { rateLimitPerMinute: null })).record.rateLimitPerMinute).toBeNull();
    for (const bad of [0, 1_000_001, 2.5]) {
      await expectAppErrorRejection(keys.create(account, { rateLimitPerMinute: bad }), { code: 'invalid_parameter', param: 'rateLimitPerMinute', includes: [`'${bad}'`] });
    }
  });

  it('needs an expiry strictly in the future', async () => {
    const { keys, clock } = service();
    const account = await freshAccount();
    await expectAppErrorRejection(keys.create(account, { expiresAt: new Date(clock.now()) }), { code: 'invalid_parameter', param: 'expires' });
    await expectAppErrorRejection(keys.create(account, { expiresAt: new Date(Number.NaN) }), { code: 'invalid_parameter', param: 'expires' });
    expect((await keys.create(account, { expiresAt: new Date(clock.now() + 1) })).record.expiresAt).toBe(new Date(clock.now() + 1).toISOString());
  });

  it('restricts to the given projects, deduplicated and sorted; an empty restriction is refused', async () => {
    const { keys } = service();
    const account = await freshAccount();
    expect((await keys.create(account, { projectKeys: ['shop', 'blog', 'shop'] })).record.projectKeys).toEqual(['blog', 'shop']);
    expect((await keys.create(account, { projectKeys: null })).record.projectKeys).toBeNull();
    await expectAppErrorRejection(keys.create(account, { projectKeys: [] }), { code: 'invalid_parameter', param: 'projects' });
    await expectAppErrorRejection(keys.create(account, { projectKeys: ['ghost', 'shop', 'nowhere'] }), {
      code: 'invalid_parameter',
      param: 'projects',
      includes: ["'ghost', 'nowhere'"],
    });
  });

  it('finds a key by id or by its displayed prefix (with or without sl_live_, spaces trimmed), preferring the active one', async () => {
    const { keys } = service();
    const account = await freshAccount();
    const issued = await keys.create(account, {});
    const prefix = issued.record.prefix;
    expect((await keys.revoke(account, `  ${issued.record.id}  `)).id).toBe(issued.record.id);
    const second = await keys.create(account, {});
    expect((await keys.rotate(account, ` ${second.record.prefix} `, { graceMs: 0 })).previous.id).toBe(second.record.id);
    const third = await keys.create(account, {});
    expect((await keys.revoke(account, third.record.prefix.replace(/^sl_live_/, ''))).id).toBe(third.record.id);
    await expectAppErrorRejection(keys.revoke(account, 'sl_live_zzzz'), { code: 'not_found', status: 404, includes: ["'sl_live_zzzz'"] });
    expect(prefix).toMatch(/^sl_live_/);
  });

  it('refuses a negative or non-finite grace period, and an inactive key, when rotating', async () => {
    const { keys } = service();
    const account = await freshAccount();
    const issued = await keys.create(account, {});
    for (const graceMs of [-1, Number.POSITIVE_INFINITY, Number.NaN]) {
      await expectAppErrorRejection(keys.rotate(account, issued.record.id, { graceMs }), { code: 'invalid_parameter', param: 'grace' });
    }
    const rotated = await keys.rotate(account, issued.record.id, { graceMs: 0 });
    expect(rotated.previous.id).toBe(issued.record.id);
    await keys.revoke(account, rotated.record.id);
    await expectAppErrorRejection(keys.rotate(account, rotated.record.id), { code: 'invalid_parameter', param: 'key', includes: [rotated.record.id, 'revoked'] });
  });
});

describe('keys as their owner and other instances see them', () => {
  let n = 0;
  const freshAccount = async () => (await createAccount(store.db, { email: `owner${++n}@example.com`, name: 'Owner' })).id;
  /** Another key of the account under the same display prefix (two keys can share their first characters). */
  const twin = async (account: string, prefix: string, id: string, revokedAt: string | null = null) => {
    await insertApiKey(store.db, { id, accountId: account, name: 'twin', digest: id.padEnd(64, '0').slice(0, 64), prefix, last4: 'abcd', scopes: ['read'], projectKeys: null, rateLimitPerMinute: null, expiresAt: null, createdAt: new Date(0).toISOString(), rotatedFrom: null });
    if (revokedAt !== null) await store.db.updateTable('api_keys').set({ revoked_at: revokedAt }).where('id', '=', id).execute();
  };

  it('a display prefix shared by two keys picks the active one, and is refused when both are active', async () => {
    const { keys } = service();
    const account = await freshAccount();
    const issued = await keys.create(account, {});
    await twin(account, issued.record.prefix, 'key_twin_revoked', new Date(0).toISOString());
    expect((await keys.revoke(account, issued.record.prefix)).id).toBe(issued.record.id);
    // Both revoked now: the prefix still names them both.
    await expectAppErrorRejection(keys.revoke(account, issued.record.prefix), { code: 'invalid_parameter', param: 'key', includes: ['matches several keys', issued.record.id, 'key_twin_revoked'] });

    const other = await keys.create(account, {});
    await twin(account, other.record.prefix, 'key_twin_active');
    await expectAppErrorRejection(keys.rotate(account, other.record.prefix), { code: 'invalid_parameter', param: 'key', includes: [other.record.id, 'key_twin_active'] });
    expect((await keys.rotate(account, other.record.id, { graceMs: 0 })).previous.id).toBe(other.record.id);
  });

  it('refuses a bad key with the Bearer challenge, and a principal carries the expiry only of a key that has one', async () => {
    const { keys, clock } = service();
    const account = await freshAccount();
    const error = await rejectionOf(keys.verify(generateApiKey()));
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).headers).toEqual({ 'WWW-Authenticate': 'Bearer realm="siteline", error="invalid_token"' });
    const forever = await keys.create(account, {});
    expect(await keys.verify(forever.key)).not.toHaveProperty('expiresAt');
    const expiresAt = new Date(clock.now() + 3_600_000);
    const expiring = await keys.create(account, { expiresAt });
    expect((await keys.verify(expiring.key)).expiresAt).toBe(expiresAt.getTime());
  });

  it('rotation cuts a later expiry down to the grace period', async () => {
    const { keys, clock } = service();
    const account = await freshAccount();
    const issued = await keys.create(account, { expiresAt: new Date(clock.now() + 30 * 86_400_000) });
    const rotated = await keys.rotate(account, issued.record.id, { graceMs: 3_600_000 });
    expect(rotated.previous.expiresAt).toBe(new Date(clock.now() + 3_600_000).toISOString());
    expect((await findApiKeyById(store.db, issued.record.id))?.expiresAt).toBe(new Date(clock.now() + 3_600_000).toISOString());
    // The new key keeps the old key's own expiry.
    expect(rotated.record.expiresAt).toBe(new Date(clock.now() + 30 * 86_400_000).toISOString());
  });

  it('revoking twice keeps the first revocation time and audits once', async () => {
    const { keys, clock } = service();
    const account = await freshAccount();
    const issued = await keys.create(account, {});
    const first = await keys.revoke(account, issued.record.id);
    clock.advance(60_000);
    const second = await keys.revoke(account, issued.record.id);
    expect(second.revokedAt).toBe(first.revokedAt);
    expect((await listAudit(store.db, { action: 'api_key.revoke' })).filter((e) => e.subject === issued.record.id)).toHaveLength(1);
  });

  it('announces a rotation to listeners, and stops telling a listener that unsubscribed', async () => {
    const { keys } = service();
    const account = await freshAccount();
    const heard: string[] = [];
    const stop = keys.onInvalidate((keyId) => heard.push(keyId));
    const issued = await keys.create(account, {});
    await keys.rotate(account, issued.record.id, { graceMs: 0 });
    expect(heard).toEqual([issued.record.id]);
    stop();
    const other = await keys.create(account, {});
    await keys.revoke(account, other.record.id);
    expect(heard).toEqual([issued.record.id]);
  });
});
