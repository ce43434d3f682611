// The dashboard's repositories on SQLite and PostgreSQL: invitations (digest only, single use, expiry), Google
// connect flows (sealed, bound to a session, expiring), funnel versions, roles, and project deletion taking
// credentials, funnels, flows and access rows with it.
import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { countAccounts, roleOf, setRole } from '../../src/store/account-roles-repository.ts';
import { createAccount } from '../../src/store/accounts-repository.ts';
import { connectSource, listSources } from '../../src/store/data-sources-repository.ts';
import { editFunnel, funnelVersion, funnelVersionsOf, renameFunnel } from '../../src/store/funnel-edits-repository.ts';
import { createFunnel, getFunnelByKey } from '../../src/store/funnels-repository.ts';
import { deleteFlow, findFlow, findFlowByState, saveFlowTokens, startFlow } from '../../src/store/google-connect-flows-repository.ts';
import { claimInvite, createInvite, deleteInvite, findOpenInvite, listOpenInvites } from '../../src/store/invites-repository.ts';
import { deleteProject, updateProject } from '../../src/store/project-admin-repository.ts';
import { listProjectMembers } from '../../src/store/project-roles-repository.ts';
import { createProject, getProjectByKey, grantProjectAccess } from '../../src/store/projects-repository.ts';
import { createSecretBox } from '../../src/store/secret-box.ts';
import { describeEachDatabase } from './databases.ts';

const NOW = new Date('2026-03-01T12:00:00Z');
const box = createSecretBox(randomBytes(32));
const STEPS = [
  { name: 'Home', type: 'page' as const, match: 'exact' as const, value: '/' },
  { name: 'Cart', type: 'page' as const, match: 'exact' as const, value: '/cart' },
];

describeEachDatabase('dashboard repositories', (fresh) => {
  it('invitations: single use, expiring, withdrawable, and only the digest is stored', async () => {
    const { store } = await fresh();
    const owner = await createAccount(store.db, { email: 'o@example.com', name: 'O' });
    const { token, invite } = await createInvite(store.db, { email: 'mate@example.com', createdBy: owner.id, now: NOW });
    expect(JSON.stringify(await store.db.selectFrom('invites').selectAll().execute())).not.toContain(token);
    expect(await findOpenInvite(store.db, token, NOW)).toMatchObject({ email: 'mate@example.com' });
    expect(await findOpenInvite(store.db, token, new Date(invite.expiresAt))).toBeUndefined();
    expect(await claimInvite(store.db, token, NOW)).toBe(true);
    expect(await claimInvite(store.db, token, NOW)).toBe(false);
    expect(await listOpenInvites(store.db, NOW)).toEqual([]);
    const second = await createInvite(store.db, { email: 'x@example.com', createdBy: owner.id, now: NOW });
    expect(await deleteInvite(store.db, second.invite.digest)).toBe(true);
    expect(await findOpenInvite(store.db, second.token, NOW)).toBeUndefined();
    await expect(createInvite(store.db, { email: 'not an email', createdBy: owner.id, now: NOW })).rejects.toMatchObject({ code: 'invalid_parameter', param: 'email' });
  });

  it('roles: counted accounts, marked owner', async () => {
    const { store } = await fresh();
    expect(await countAccounts(store.db)).toBe(0);
    const a = await createAccount(store.db, { email: 'a@example.com', name: 'A' });
    expect(await countAccounts(store.db)).toBe(1);
    await setRole(store.db, a.id, 'owner');
    expect(await roleOf(store.db, a.id)).toBe('owner');
  });

  it('connect flows: found by state, sealed at rest, expiring', async () => {
    const { store } = await fresh();
    const account = await createAccount(store.db, { email: 'a@example.com', name: 'A' });
    const project = await createProject(store.db, { key: 'shop', name: 'Shop', domain: 'shop.example' });
    const id = await startFlow(store.db, box, { state: 'the-state', accountId: account.id, projectId: project.id, sessionDigest: 'sess', verifier: 'the-verifier', now: NOW });
    await saveFlowTokens(store.db, box, id, '{"refreshToken":"1//secret"}', '1234');
    const raw = JSON.stringify(await store.db.selectFrom('google_connect_flows').selectAll().execute());
    expect(raw).not.toContain('the-verifier');
    expect(raw).not.toContain('1//secret');
    expect(raw).not.toContain('the-state');
    expect(await findFlowByState(store.db, box, 'the-state', NOW)).toMatchObject({ id, sessionDigest: 'sess', verifier: 'the-verifier' });
    expect((await findFlow(store.db, box, id, NOW))?.tokens).toBe('{"refreshToken":"1//secret"}');
    expect(await findFlow(store.db, box, id, new Date(NOW.getTime() + 3600_000))).toBeUndefined();
    await deleteFlow(store.db, id);
    expect(await findFlowByState(store.db, box, 'the-state', NOW)).toBeUndefined();
  });

  it('funnels: an edit is a new version, a rename is not; bad steps change nothing', async () => {
    const { store } = await fresh();
    const project = await createProject(store.db, { key: 'shop', name: 'Shop', domain: 'shop.example' });
    const funnel = await createFunnel(store.db, { projectId: project.id, name: 'F', steps: STEPS, createdVia: 'dashboard' });
    expect(await funnelVersion(store.db, funnel.id)).toBe(1);
    expect(await editFunnel(store.db, funnel.id, { name: 'F2', steps: [...STEPS, { name: 'Buy', type: 'event', match: 'exact', value: 'purchase' }], now: NOW })).toBe(2);
    await expect(editFunnel(store.db, funnel.id, { name: 'F3', steps: [STEPS[0]!], now: NOW })).rejects.toMatchObject({ code: 'invalid_parameter', param: 'steps' });
    await renameFunnel(store.db, funnel.id, { name: 'Renamed', now: NOW });
    const stored = (await getFunnelByKey(store.db, funnel.key))!;
    expect(stored).toMatchObject({ name: 'Renamed', steps: [{ value: '/' }, { value: '/cart' }, { value: 'purchase' }] });
    expect(await funnelVersionsOf(store.db, project.id)).toEqual(new Map([[funnel.id, 2]]));
  });

  it('projects: edit validates every field first; delete takes credentials, funnels, flows and access', async () => {
    const { store } = await fresh();
    const account = await createAccount(store.db, { email: 'a@example.com', name: 'A' });
    const project = await createProject(store.db, { key: 'shop', name: 'Shop', domain: 'shop.example' });
    await grantProjectAccess(store.db, account.id, project.id);
    await expect(updateProject(store.db, project, { name: 'New', domain: 'shop.example', timezone: 'Nowhere/Land', currency: 'USD' })).rejects.toMatchObject({ param: 'timezone' });
    expect((await getProjectByKey(store.db, 'shop'))!.name).toBe('Shop');
    expect(await updateProject(store.db, project, { name: 'New', domain: 'new.example', timezone: 'Asia/Tokyo', currency: 'jpy' })).toMatchObject({ key: 'shop', domain: 'new.example', currency: 'JPY' });
    expect((await listProjectMembers(store.db, project.id)).map((m) => m.email)).toEqual(['a@example.com']);

    await connectSource(store.db, box, project.id, 'engine2', { siteUrl: 'https://new.example/', credential: { kind: 'api_key', secret: 'KEY' } });
    await createFunnel(store.db, { projectId: project.id, name: 'F', steps: STEPS, createdVia: 'dashboard' });
    await startFlow(store.db, box, { state: 's', accountId: account.id, projectId: project.id, sessionDigest: 'd', verifier: 'v', now: NOW });
    await deleteProject(store.db, project.id);
    expect(await getProjectByKey(store.db, 'shop')).toBeUndefined();
    expect(await listSources(store.db, project.id)).toEqual([]);
    for (const table of ['funnels', 'google_connect_flows', 'account_projects'] as const) {
      expect(await store.db.selectFrom(table).selectAll().execute()).toEqual([]);
    }
  });
});
