// The OAuth tables on both databases: single-use codes and refresh tokens (a second use is reported as reuse,
// even when two uses race), grant revocation, live-grant listing, stale-client cleanup, sessions.
import { expect, it } from 'vitest';
import { deleteExpiredSessions, deleteSession, findLiveSession, insertSession } from '../../src/store/account-sessions-repository.ts';
import { createAccount } from '../../src/store/accounts-repository.ts';
import type { Store } from '../../src/store/database.ts';
import { deleteStaleOAuthClients, findOAuthClient, insertOAuthClient, touchOAuthClient } from '../../src/store/oauth-clients-repository.ts';
import {
  insertAuthorizationCode,
  insertGrant,
  insertRefreshToken,
  listLiveGrantsForAccount,
  revokeGrant,
  spendAuthorizationCode,
  findAuthorizationCode,
  useRefreshToken,
} from '../../src/store/oauth-grants-repository.ts';
import { describeEachDatabase } from '../store/databases.ts';

const T0 = new Date('2026-11-20T10:00:00Z');
const later = (ms: number) => new Date(T0.getTime() + ms);

async function seed(store: Store) {
  const account = await createAccount(store.db, { email: `a${Math.random()}@example.com`, name: 'A' });
  const client = await insertOAuthClient(store.db, {
    id: `slc_${Math.random().toString(36).slice(2)}`,
    secretDigest: null,
    name: 'Client',
    redirectUris: ['http://127.0.0.1/cb'],
    grantTypes: ['authorization_code', 'refresh_token'],
    tokenEndpointAuthMethod: 'none',
    scope: null,
    metadata: { client_uri: 'https://c.example' },
    createdAt: T0.toISOString(),
  });
  const grant = await insertGrant(store.db, {
    id: `grt_${Math.random().toString(36).slice(2)}`,
    accountId: account.id,
    clientId: client.id,
    scope: 'read',
    resource: 'http://siteline.test/api/mcp',
    projectKeys: ['shop'],
    createdAt: T0.toISOString(),
    expiresAt: later(86_400_000).toISOString(),
  });
  return { account, client, grant };
}

describeEachDatabase('OAuth repositories', (fresh) => {
  it('round-trips a client with its metadata', async () => {
    const { store } = await fresh();
    const { client } = await seed(store);
    expect(await findOAuthClient(store.db, client.id)).toEqual({ ...client, lastUsedAt: null });
  });

  it('an authorization code is used once; the second use reports reuse with the linked grant', async () => {
    const { store } = await fresh();
    const { account, client } = await seed(store);
    await insertAuthorizationCode(store.db, {
      digest: 'c'.repeat(64),
      clientId: client.id,
      accountId: account.id,
      redirectUri: 'http://127.0.0.1/cb',
      codeChallenge: 'x'.repeat(43),
      scope: 'read',
      resource: 'http://siteline.test/api/mcp',
      projectKeys: null,
      createdAt: T0.toISOString(),
      expiresAt: later(300_000).toISOString(),
    });
    const [a, b] = await Promise.all([spendAuthorizationCode(store.db, 'c'.repeat(64), T0), spendAuthorizationCode(store.db, 'c'.repeat(64), T0)]);
    expect([a, b].sort()).toEqual([false, true]);
    expect((await findAuthorizationCode(store.db, 'c'.repeat(64)))?.usedAt).toBe(T0.toISOString());
    expect(await spendAuthorizationCode(store.db, 'd'.repeat(64), T0)).toBe(false);
    expect(await findAuthorizationCode(store.db, 'd'.repeat(64))).toBeUndefined();
  });

  it('a refresh token is used once, also under a race', async () => {
    const { store } = await fresh();
    const { grant } = await seed(store);
    await insertRefreshToken(store.db, { digest: 'r'.repeat(64), grantId: grant.id, createdAt: T0.toISOString(), expiresAt: later(1000).toISOString() });
    const results = await Promise.all([1, 2, 3].map(() => useRefreshToken(store.db, 'r'.repeat(64), T0)));
    expect(results.filter((r) => r?.status === 'fresh')).toHaveLength(1);
  });

  it('revokes a grant once and lists only live grants with the client name', async () => {
    const { store } = await fresh();
    const { account, grant } = await seed(store);
    expect(await listLiveGrantsForAccount(store.db, account.id, T0)).toEqual([expect.objectContaining({ id: grant.id, clientName: 'Client', projectKeys: ['shop'] })]);
    expect(await revokeGrant(store.db, grant.id, T0, 'test')).toBe(true);
    expect(await revokeGrant(store.db, grant.id, T0, 'test')).toBe(false);
    expect(await listLiveGrantsForAccount(store.db, account.id, T0)).toEqual([]);
  });

  it('deletes never-used clients after the cutoff and idle clients without live grants', async () => {
    const { store } = await fresh();
    const { client: withGrant } = await seed(store);
    await touchOAuthClient(store.db, withGrant.id, T0);
    const unused = await insertOAuthClient(store.db, { ...withGrant, id: 'slc_unused', createdAt: T0.toISOString() });
    const idle = await insertOAuthClient(store.db, { ...withGrant, id: 'slc_idle', createdAt: T0.toISOString() });
    await touchOAuthClient(store.db, idle.id, T0);
    const deleted = await deleteStaleOAuthClients(store.db, { unusedBefore: later(1), idleBefore: later(1), now: later(2) });
    expect(deleted).toBe(2);
    expect(await findOAuthClient(store.db, unused.id)).toBeUndefined();
    expect(await findOAuthClient(store.db, idle.id)).toBeUndefined();
    expect(await findOAuthClient(store.db, withGrant.id)).toBeDefined(); // its grant is still live
  });

  it('sessions: live until expiry, deleted on sign-out', async () => {
    const { store } = await fresh();
    const { account } = await seed(store);
    await insertSession(store.db, { digest: 's'.repeat(64), accountId: account.id, createdAt: T0.toISOString(), expiresAt: later(1000).toISOString() });
    expect(await findLiveSession(store.db, 's'.repeat(64), T0)).toMatchObject({ accountId: account.id });
    expect(await findLiveSession(store.db, 's'.repeat(64), later(1000))).toBeUndefined();
    await deleteExpiredSessions(store.db, later(2000));
    await insertSession(store.db, { digest: 't'.repeat(64), accountId: account.id, createdAt: T0.toISOString(), expiresAt: later(1000).toISOString() });
    await deleteSession(store.db, 't'.repeat(64));
    expect(await findLiveSession(store.db, 't'.repeat(64), T0)).toBeUndefined();
  });
});
