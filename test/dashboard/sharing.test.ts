// Sharing by invitation, not by push: an admin invites an email with a role and gets the same answer whether or not
// the email has an account; the invitee accepts (or declines) it, from the Projects page or the link; the link makes
// the account when there is none. Roles change and access goes with a confirmation step; a project keeps an admin.
// Private teams: an account sees the people it shares a project with; the owner sees everyone and recovers projects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, findAccountByEmail, setAccountPassword } from '../../src/store/accounts-repository.ts';
import { listAudit } from '../../src/store/audit-repository.ts';
import { roleOnProject } from '../../src/store/project-roles-repository.ts';
import { getProjectByKey, type ProjectRecord } from '../../src/store/projects-repository.ts';
import { accountActor } from '../../src/writes/actor.ts';
import { removeAccess, setMemberRole } from '../../src/writes/access-writes.ts';
import { createProject } from '../../src/writes/project-writes.ts';
import { createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';
import { webClient, type WebClient } from './web-client.ts';

const PASSWORD = 'a long password';
let rt: TestRuntime;
let owner: WebClient;
let ownerId: string;
let admin: WebClient;
let adminId: string;
let project: ProjectRecord;

async function person(email: string): Promise<{ id: string; client: WebClient }> {
  const account = await createAccount(rt.store.db, { email, name: email.split('@')[0]! });
  await setAccountPassword(rt.store.db, account.id, PASSWORD);
  return { id: account.id, client: await signedIn(email) };
}

async function signedIn(email: string): Promise<WebClient> {
  const client = webClient(rt);
  await client.get('/account/sign-in');
  expect((await client.post('/account/sign-in', { email, password: PASSWORD, return_to: '/dashboard' })).location).toBe('/dashboard');
  return client;
}

const linkOf = (html: string) => /<code id="share-link">([^<]+)<\/code>/.exec(html)![1]!.replaceAll('&amp;', '&');
const tokenOf = (html: string) => new URL(linkOf(html)).searchParams.get('token')!;

beforeAll(async () => {
  rt = await createTestRuntime();
  ({ id: ownerId, client: owner } = await person('owner@example.com'));
  ({ id: adminId, client: admin } = await person('admin@example.com'));
  project = await createProject({ db: rt.store.db, clock: () => new Date() }, accountActor(adminId, 'dashboard'), { key: 'shop', name: 'Shop', domain: 'shop.example' });
});
afterAll(() => rt.dispose());

async function invite(email: string, role = 'editor') {
  await admin.get('/dashboard/p/shop/settings');
  return admin.post('/dashboard/p/shop/access/invite', { email, role });
}

describe('sharing a project', () => {
  it('answers the same whether or not the email has an account', async () => {
    await person('known@example.com');
    const known = await invite('known@example.com');
    const unknown = await invite('unknown@example.com');
    expect([known.status, unknown.status]).toEqual([201, 201]);
    const shape = (html: string, email: string) => html.replace(/nonce="[^"]+"/g, '').replace(/'nonce-[^']+'/g, '').replaceAll(email, 'EMAIL').replace(/token=[A-Za-z0-9_-]+/g, 'token=T').replace(/value="[0-9a-f]{64}"/g, 'value="D"').replace(/<tr><td>[^<]*@example\.com<\/td><td>editor<\/td>.*?<\/tr>/g, '');
    expect(shape(known.html, 'known@example.com')).toBe(shape(unknown.html, 'unknown@example.com'));
  });

  it('puts nothing in the invitee’s list until they accept; then they hold the invited role', async () => {
    const mate = await person('mate@example.com');
    await invite('mate@example.com', 'editor');
    expect((await mate.client.get('/dashboard/p/shop')).status).toBe(404);
    expect((await mate.client.get('/dashboard')).html).toContain('An invitation to a project is');
    const page = await mate.client.get('/dashboard/invitations');
    expect(page.html).toContain('Shop');
    const digest = /name="digest" value="([0-9a-f]{64})"/.exec(page.html)![1]!;

    // Someone else cannot accept it, even with its digest.
    const other = await person('other@example.com');
    await other.client.get('/dashboard/invitations');
    expect((await other.client.post('/dashboard/invitations/accept', { digest })).status).toBe(404);
    expect(await roleOnProject(rt.store.db, other.id, project.id)).toBeUndefined();

    expect((await mate.client.post('/dashboard/invitations/accept', { digest })).location).toBe('/dashboard?done=accepted');
    expect(await roleOnProject(rt.store.db, mate.id, project.id)).toBe('editor');
    expect((await mate.client.get('/dashboard/p/shop')).status).toBe(200);
    expect((await listAudit(rt.store.db, { projectId: project.id, action: 'access.accept' })).some((e) => e.accountId === mate.id)).toBe(true);
  });

  it('a declined invitation is gone and gives nothing', async () => {
    const shy = await person('shy@example.com');
    await invite('shy@example.com');
    const digest = /name="digest" value="([0-9a-f]{64})"/.exec((await shy.client.get('/dashboard/invitations')).html)![1]!;
    expect((await shy.client.post('/dashboard/invitations/decline', { digest })).location).toBe('/dashboard/invitations?done=declined');
    expect((await shy.client.get('/dashboard/invitations')).html).toContain('No invitation is waiting');
    expect(await roleOnProject(rt.store.db, shy.id, project.id)).toBeUndefined();
  });

  it('the link makes the account for a new email, with the invited role', async () => {
    const token = tokenOf((await invite('newcomer@example.com', 'viewer')).html);
    const visitor = webClient(rt);
    const page = await visitor.get(`/join?token=${token}`);
    expect(page.html).toContain('invited <strong>newcomer@example.com</strong> to the project <strong>Shop</strong>');
    expect(page.html).toContain('Sign in as newcomer@example.com');
    expect(page.html).toContain('New to Siteline?');
    expect((await visitor.post('/join', { token, name: 'Newcomer', password: PASSWORD })).location).toBe('/dashboard');
    const account = (await findAccountByEmail(rt.store.db, 'newcomer@example.com'))!;
    expect(await roleOnProject(rt.store.db, account.id, project.id)).toBe('viewer');
    expect((await webClient(rt).get(`/join?token=${token}`)).status).toBe(410);
  });

  it('the link, opened signed in: accept as the invited account; another account is told to sign out', async () => {
    const linked = await person('linked@example.com');
    const token = tokenOf((await invite('linked@example.com')).html);
    const asOther = await (await signedIn('owner@example.com')).get(`/join?token=${token}`);
    expect(asOther.html).toContain('You are signed in as owner@example.com');
    const asInvitee = await linked.client.get(`/join?token=${token}`);
    expect(asInvitee.html).toContain('<button class="primary" type="submit">Accept</button>');
    const digest = /name="digest" value="([0-9a-f]{64})"/.exec(asInvitee.html)![1]!;
    expect((await linked.client.post('/dashboard/invitations/accept', { digest })).location).toBe('/dashboard?done=accepted');
    expect(await roleOnProject(rt.store.db, linked.id, project.id)).toBe('editor');
  });

  it('an invitation withdrawn by an admin no longer works', async () => {
    const html = (await invite('withdrawn@example.com')).html;
    const token = tokenOf(html);
    const row = new RegExp(`withdrawn@example.com</td><td>editor</td><td>[^<]*</td><td><form[^>]*><input type="hidden" name="csrf" value="[^"]+"><input type="hidden" name="digest" value="([0-9a-f]{64})"`).exec(html)!;
    expect((await admin.post('/dashboard/p/shop/access/withdraw', { digest: row[1]! })).location).toBe('/dashboard/p/shop/settings?done=withdrawn');
    expect((await webClient(rt).get(`/join?token=${token}`)).status).toBe(410);
  });

  it('inviting a current member says so and sends nothing', async () => {
    const answer = await invite('admin@example.com');
    expect(answer.status).toBe(409);
    expect(answer.html).toContain('already has access (as admin)');
  });
});

describe('roles and access', () => {
  it('a role change and a removal, the removal after a confirmation step', async () => {
    const member = await person('member@example.com');
    await setMemberRole({ db: rt.store.db, clock: () => new Date() }, { kind: 'operator', via: 'cli' }, project, adminId, 'admin');
    await rt.store.db.insertInto('account_projects').values({ account_id: member.id, project_id: project.id, created_at: new Date().toISOString(), role: 'viewer' }).execute();
    await admin.get('/dashboard/p/shop/settings');
    expect((await admin.post('/dashboard/p/shop/access/role', { account_id: member.id, role: 'editor' })).location).toBe('/dashboard/p/shop/settings?done=role');
    expect(await roleOnProject(rt.store.db, member.id, project.id)).toBe('editor');

    const asked = await admin.post('/dashboard/p/shop/access/revoke', { account_id: member.id });
    expect(asked.status).toBe(200);
    expect(asked.html).toContain('Remove access?');
    expect(await roleOnProject(rt.store.db, member.id, project.id)).toBe('editor');
    expect((await admin.post('/dashboard/p/shop/access/revoke', { account_id: member.id, confirm: 'yes' })).location).toBe('/dashboard/p/shop/settings?done=removed');
    expect(await roleOnProject(rt.store.db, member.id, project.id)).toBeUndefined();
  });

  it('keeps an admin: the last one cannot step down, nobody removes themselves', async () => {
    const deps = { db: rt.store.db, clock: () => new Date() };
    const solo = await createProject(deps, accountActor(adminId, 'dashboard'), { key: 'solo', name: 'Solo', domain: 'solo.example' });
    await expect(setMemberRole(deps, accountActor(adminId, 'dashboard'), solo, adminId, 'viewer')).rejects.toMatchObject({ param: 'role' });
    await expect(removeAccess(deps, accountActor(adminId, 'dashboard'), solo, adminId)).rejects.toMatchObject({ param: 'account_id' });
    expect(await roleOnProject(rt.store.db, adminId, solo.id)).toBe('admin');
  });
});

describe('private teams', () => {
  it('a member sees the people it shares a project with; the owner sees every account', async () => {
    const loner = await person('loner@example.com');
    const team = (await loner.client.get('/dashboard/team')).html;
    expect(team).toContain('loner@example.com');
    expect(team).not.toContain('owner@example.com');
    expect(team).not.toContain('admin@example.com');
    const adminTeam = (await admin.get('/dashboard/team')).html;
    expect(adminTeam).toContain('mate@example.com');
    expect(adminTeam).not.toContain('loner@example.com');
    const ownerTeam = (await owner.get('/dashboard/team')).html;
    for (const email of ['loner@example.com', 'admin@example.com', 'mate@example.com']) expect(ownerTeam).toContain(email);
  });

  it('the owner’s invitation to an email that has an account becomes “give access”', async () => {
    await owner.get('/dashboard/team');
    const answer = await owner.post('/dashboard/team/invites', { email: 'mate@example.com' });
    expect(answer.status).toBe(200);
    expect(answer.html).toContain('already has an account');
    expect(answer.html).not.toContain('id="invite-link"');
  });

  it('the owner recovers a project it holds no role on, after a confirmation step, and it is in the project’s log', async () => {
    expect(await roleOnProject(rt.store.db, ownerId, project.id)).toBeUndefined();
    expect((await owner.get('/dashboard/p/shop')).status).toBe(404);
    const team = await owner.get('/dashboard/team');
    expect(team.html).toContain('Become admin of Shop');
    expect((await owner.post('/dashboard/team/recover', { project: 'shop' })).html).toContain('Become admin?');
    expect((await owner.post('/dashboard/team/recover', { project: 'shop', confirm: 'yes' })).location).toBe('/dashboard/team?done=recovered');
    expect(await roleOnProject(rt.store.db, ownerId, project.id)).toBe('admin');
    expect((await listAudit(rt.store.db, { projectId: project.id, action: 'project.recover' }))[0]).toMatchObject({ accountId: ownerId });
    // A member cannot: the form is refused.
    const loner = await signedIn('loner@example.com');
    await loner.get('/dashboard/team');
    expect((await loner.post('/dashboard/team/recover', { project: 'shop', confirm: 'yes' })).status).toBe(404);
    expect((await getProjectByKey(rt.store.db, 'shop'))!.key).toBe('shop');
  });
});
