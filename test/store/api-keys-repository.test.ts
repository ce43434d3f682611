import { expect, it } from 'vitest';
import { createAccount } from '../../src/store/accounts-repository.ts';
import {
  findApiKeyByDigest,
  insertApiKey,
  listApiKeysForAccount,
  markApiKeyRotated,
  revokeApiKey,
  touchApiKeyLastUsed,
} from '../../src/store/api-keys-repository.ts';
import { appendAudit, listAudit } from '../../src/store/audit-repository.ts';
import { describeEachDatabase } from './databases.ts';

function row(accountId: string, id: string, digest: string) {
  return {
    id,
    accountId,
    name: 'ci',
    digest,
    prefix: 'sl_live_AbCd',
    last4: 'wxyz',
    scopes: ['read', 'raw'],
    projectKeys: ['shop'],
    rateLimitPerMinute: 120,
    expiresAt: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    rotatedFrom: null,
  };
}

describeEachDatabase('api keys repository', (fresh) => {
  it('stores and finds keys by digest, with scopes and restriction', async () => {
    const { store } = await fresh();
    const account = await createAccount(store.db, { email: 'ada@example.com', name: 'Ada' });
    const inserted = await insertApiKey(store.db, row(account.id, 'key_1', 'a'.repeat(64)));
    expect(await findApiKeyByDigest(store.db, 'a'.repeat(64))).toEqual(inserted);
    expect(inserted).toMatchObject({ scopes: ['read', 'raw'], projectKeys: ['shop'], rateLimitPerMinute: 120, lastUsedAt: null, revokedAt: null });
    expect(await findApiKeyByDigest(store.db, 'b'.repeat(64))).toBeUndefined();
    await expect(insertApiKey(store.db, row(account.id, 'key_2', 'a'.repeat(64)))).rejects.toThrow();
    expect(await listApiKeysForAccount(store.db, account.id)).toHaveLength(1);
  });

  it('revokes once, touches at most once per interval, and only shortens expiry on rotation', async () => {
    const { store } = await fresh();
    const account = await createAccount(store.db, { email: 'ada@example.com', name: 'Ada' });
    await insertApiKey(store.db, { ...row(account.id, 'key_1', 'c'.repeat(64)), expiresAt: '2026-06-01T00:00:00.000Z' });
    const t0 = new Date('2026-02-01T00:00:00.000Z');
    expect(await touchApiKeyLastUsed(store.db, 'key_1', t0)).toBe(true);
    expect(await touchApiKeyLastUsed(store.db, 'key_1', new Date(t0.getTime() + 59_000))).toBe(false);
    expect(await touchApiKeyLastUsed(store.db, 'key_1', new Date(t0.getTime() + 60_000))).toBe(true);
    await markApiKeyRotated(store.db, 'key_1', '2026-09-01T00:00:00.000Z');
    expect((await findApiKeyByDigest(store.db, 'c'.repeat(64)))?.expiresAt).toBe('2026-06-01T00:00:00.000Z');
    await markApiKeyRotated(store.db, 'key_1', '2026-03-01T00:00:00.000Z');
    expect((await findApiKeyByDigest(store.db, 'c'.repeat(64)))?.expiresAt).toBe('2026-03-01T00:00:00.000Z');
    expect(await revokeApiKey(store.db, 'key_1', t0)).toBe(true);
    expect(await revokeApiKey(store.db, 'key_1', t0)).toBe(false);
    expect((await findApiKeyByDigest(store.db, 'c'.repeat(64)))?.revokedAt).toBe(t0.toISOString());
  });

  it('appends audit entries, newest first', async () => {
    const { store } = await fresh();
    await appendAudit(store.db, { action: 'test.first', subject: 's1', detail: { n: 1 } });
    await appendAudit(store.db, { action: 'test.second', subject: 's2' });
    const entries = await listAudit(store.db);
    expect(entries.map((e) => e.action)).toEqual(['test.second', 'test.first']);
    expect(entries[1]?.detail).toEqual({ n: 1 });
    expect(await listAudit(store.db, { action: 'test.first' })).toHaveLength(1);
  });
});
