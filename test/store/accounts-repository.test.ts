import { expect, it } from 'vitest';
import {
  createAccount,
  findAccountByEmail,
  listAccounts,
  requireAccountByEmail,
  setAccountPassword,
  verifyAccountPassword,
} from '../../src/store/accounts-repository.ts';
import { hashPassword, passwordCost } from '../../src/auth/password.ts';
import { findLiveSession, insertSession } from '../../src/store/account-sessions-repository.ts';
import { describeEachDatabase } from './databases.ts';

describeEachDatabase('accounts repository', (fresh) => {
  it('creates an account and finds it by email, case-insensitively', async () => {
    const { store } = await fresh();
    const created = await createAccount(store.db, { email: 'Ada@Example.com', name: 'Ada', password: 'correct horse' });
    expect(created).toMatchObject({ email: 'Ada@Example.com', name: 'Ada', hasPassword: true });
    expect(created.id).toMatch(/^acct_/);
    expect(await findAccountByEmail(store.db, 'ada@example.COM')).toEqual(created);
    expect(await findAccountByEmail(store.db, 'other@example.com')).toBeUndefined();
  });

  it('rejects a second account whose email differs only in case', async () => {
    const { store } = await fresh();
    await createAccount(store.db, { email: 'ada@example.com', name: 'Ada' });
    await expect(createAccount(store.db, { email: 'ADA@example.com', name: 'Ada 2' })).rejects.toMatchObject({ code: 'invalid_parameter', param: 'email' });
    expect(await listAccounts(store.db)).toHaveLength(1);
  });

  it('rejects malformed emails, empty names and short passwords', async () => {
    const { store } = await fresh();
    await expect(createAccount(store.db, { email: 'not-an-email', name: 'X' })).rejects.toMatchObject({ param: 'email' });
    await expect(createAccount(store.db, { email: 'x@example.com', name: '  ' })).rejects.toMatchObject({ param: 'name' });
    await expect(createAccount(store.db, { email: 'x@example.com', name: 'X', password: 'short' })).rejects.toMatchObject({ param: 'password' });
  });

  it('lists accounts sorted by email', async () => {
    const { store } = await fresh();
    await createAccount(store.db, { email: 'b@example.com', name: 'B' });
    await createAccount(store.db, { email: 'a@example.com', name: 'A' });
    expect((await listAccounts(store.db)).map((a) => a.email)).toEqual(['a@example.com', 'b@example.com']);
  });

  it('sets and verifies passwords; an unknown email or no password never verifies', async () => {
    const { store } = await fresh();
    const account = await createAccount(store.db, { email: 'ada@example.com', name: 'Ada' });
    expect(account.hasPassword).toBe(false);
    expect(await verifyAccountPassword(store.db, 'ada@example.com', 'anything at all')).toBeUndefined();
    await setAccountPassword(store.db, account.id, 'a long passphrase');
    expect((await verifyAccountPassword(store.db, 'ADA@example.com', 'a long passphrase'))?.id).toBe(account.id);
    expect(await verifyAccountPassword(store.db, 'ada@example.com', 'a long passphrasE')).toBeUndefined();
    expect(await verifyAccountPassword(store.db, 'nobody@example.com', 'a long passphrase')).toBeUndefined();
    expect((await requireAccountByEmail(store.db, 'ada@example.com')).hasPassword).toBe(true);
  });

  it('answers not_found for unknown accounts', async () => {
    const { store } = await fresh();
    await expect(requireAccountByEmail(store.db, 'ghost@example.com')).rejects.toMatchObject({ code: 'not_found' });
    await expect(setAccountPassword(store.db, 'acct_missing', 'long enough pw')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('upgrades a hash made at the old scrypt cost on the next successful sign-in', async () => {
    const { store } = await fresh();
    const account = await createAccount(store.db, { email: 'old@example.com', name: 'Old' });
    const cost = passwordCost();
    const oldHash = await hashPassword('correct horse', { ...cost, N: cost.N / 2 });
    await store.db.updateTable('accounts').set({ password_hash: oldHash }).where('id', '=', account.id).execute();
    expect(await verifyAccountPassword(store.db, 'old@example.com', 'wrong horse')).toBeUndefined();
    expect((await store.db.selectFrom('accounts').select('password_hash').where('id', '=', account.id).executeTakeFirstOrThrow()).password_hash).toBe(oldHash);
    expect(await verifyAccountPassword(store.db, 'old@example.com', 'correct horse')).toMatchObject({ id: account.id });
    const stored = (await store.db.selectFrom('accounts').select('password_hash').where('id', '=', account.id).executeTakeFirstOrThrow()).password_hash;
    expect(stored?.startsWith(`scrypt$${cost.N}$${cost.r}$${cost.p}$`)).toBe(true);
    expect(await verifyAccountPassword(store.db, 'old@example.com', 'correct horse')).toMatchObject({ id: account.id });
  });

  it('setting a password ends the account’s browser sessions, and only its own', async () => {
    const { store } = await fresh();
    const ada = await createAccount(store.db, { email: 'ada@example.com', name: 'Ada', password: 'correct horse' });
    const bob = await createAccount(store.db, { email: 'bob@example.com', name: 'Bob' });
    const now = new Date();
    const later = new Date(now.getTime() + 3_600_000).toISOString();
    await insertSession(store.db, { digest: 'a'.repeat(64), accountId: ada.id, createdAt: now.toISOString(), expiresAt: later });
    await insertSession(store.db, { digest: 'b'.repeat(64), accountId: bob.id, createdAt: now.toISOString(), expiresAt: later });
    await setAccountPassword(store.db, ada.id, 'a new passphrase');
    expect(await findLiveSession(store.db, 'a'.repeat(64), now)).toBeUndefined();
    expect(await findLiveSession(store.db, 'b'.repeat(64), now)).toMatchObject({ accountId: bob.id });
  });
});
