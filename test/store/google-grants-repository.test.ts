// Stored Google grants on SQLite and PostgreSQL: one per (client, account subject), sealed; the projects on a
// grant all get its newest token; releasing keeps a grant other projects or live flows use and names them.
import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { createAccount } from '../../src/store/accounts-repository.ts';
import { connectSource, readSourceCredential } from '../../src/store/data-sources-repository.ts';
import { saveFlowTokens, startFlow } from '../../src/store/google-connect-flows-repository.ts';
import { grantHolders, releaseGoogleSubjects, rewriteGrantCredentials, saveGoogleGrant } from '../../src/store/google-grants-repository.ts';
import { createProject } from '../../src/store/projects-repository.ts';
import { createSecretBox } from '../../src/store/secret-box.ts';
import { describeEachDatabase } from './databases.ts';

const NOW = new Date('2026-03-01T12:00:00Z');
const box = createSecretBox(randomBytes(32));
const credentialOf = (token: string) => ({ kind: 'oauth_refresh_token' as const, secret: JSON.stringify({ client_id: 'c', client_secret: 's', refresh_token: token }) });
const grant = (token: string, subject = '111') => ({ clientId: 'c', subject, email: 'ann@example.com', scopes: 'openid', refreshToken: token, now: NOW });

describeEachDatabase('google grants repository', (fresh) => {
  it('one grant per client and subject, sealed; every project on it gets the newest token', async () => {
    const { store } = await fresh();
    const first = await saveGoogleGrant(store.db, box, grant('1//old'));
    expect(await saveGoogleGrant(store.db, box, grant('1//new'))).toBe(first);
    expect(await saveGoogleGrant(store.db, box, grant('1//other', '222'))).not.toBe(first);
    expect(JSON.stringify(await store.db.selectFrom('google_grants').selectAll().execute())).not.toContain('1//new');
    const a = await createProject(store.db, { key: 'aa', name: 'A', domain: 'a.example' });
    const b = await createProject(store.db, { key: 'bb', name: 'B', domain: 'b.example' });
    await connectSource(store.db, box, a.id, 'analytics', { propertyId: '1', credential: credentialOf('1//old'), googleGrantId: first });
    await connectSource(store.db, box, b.id, 'engine1', { siteUrl: 'sc-domain:b.example', credential: credentialOf('1//old'), googleGrantId: first });
    expect(await rewriteGrantCredentials(store.db, box, first, credentialOf('1//new'))).toBe(2);
    expect(JSON.parse((await readSourceCredential(store.db, box, a.id, 'analytics'))!.secret).refresh_token).toBe('1//new');
    expect(JSON.parse((await readSourceCredential(store.db, box, b.id, 'engine1'))!.secret).refresh_token).toBe('1//new');
    const { projects, holders } = await grantHolders(store.db, 'c', '111', NOW);
    expect(projects.map((p) => p.key)).toEqual(['aa', 'bb']);
    expect(holders).toEqual({ dataSources: 2, otherFlows: 0 });
  });

  it('release: kept (naming the others) while used, revoked and deleted when not; live flows count, expired do not', async () => {
    const { store } = await fresh();
    const id = await saveGoogleGrant(store.db, box, grant('1//tok'));
    const a = await createProject(store.db, { key: 'aa', name: 'A', domain: 'a.example' });
    const b = await createProject(store.db, { key: 'bb', name: 'B', domain: 'b.example' });
    await connectSource(store.db, box, a.id, 'analytics', { propertyId: '1', credential: credentialOf('1//tok'), googleGrantId: id });
    await connectSource(store.db, box, b.id, 'analytics', { propertyId: '2', credential: credentialOf('1//tok'), googleGrantId: id });
    const preview = await releaseGoogleSubjects(store.db, box, [id], NOW, { preview: { leavingProjectId: a.id } });
    expect(preview).toMatchObject([{ grantId: id, email: 'ann@example.com', keptFor: [{ key: 'bb' }] }]);
    expect(preview[0]!.revokeToken).toBeUndefined();

    await store.db.deleteFrom('data_sources').execute();
    const account = await createAccount(store.db, { email: 'u@example.com', name: 'U' });
    const flow = await startFlow(store.db, box, { state: 's', accountId: account.id, projectId: a.id, sessionDigest: 'd', verifier: 'v', now: NOW });
    await saveFlowTokens(store.db, box, flow, '{}', '111');
    expect((await releaseGoogleSubjects(store.db, box, [id], NOW))[0]!.revokeToken).toBeUndefined();
    const later = new Date(NOW.getTime() + 2 * 3600_000);
    expect(await releaseGoogleSubjects(store.db, box, [id], later)).toEqual([{ grantId: id, email: 'ann@example.com', revokeToken: '1//tok', keptFor: [] }]);
    expect(await store.db.selectFrom('google_grants').select('id').execute()).toEqual([]);
  });
});
