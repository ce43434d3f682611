// Every write operation of the write service leaves its audit entry, in the same transaction as the change: the
// scenarios are keyed by WRITE_OPERATIONS (a new operation without a scenario does not typecheck), and the list is
// compared with what the writes modules export (a new write function outside the list fails here). That every
// surface writes only through this service is test/architecture/one-write-path.test.ts.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, setAccountPassword, type AccountRecord } from '../../src/store/accounts-repository.ts';
import { listAudit } from '../../src/store/audit-repository.ts';
import { getFunnelByKey } from '../../src/store/funnels-repository.ts';
import { findOpenInvite } from '../../src/store/invites-repository.ts';
import { insertGrant } from '../../src/store/oauth-grants-repository.ts';
import { putProjectRole } from '../../src/store/project-roles-repository.ts';
import type { ProjectRecord } from '../../src/store/projects-repository.ts';
import { accountActor, OPERATOR, type Actor } from '../../src/writes/actor.ts';
import { WRITE_OPERATIONS, type WriteOperation } from '../../src/writes/write-operations.ts';
import { createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';

let rt: TestRuntime;
let owner: AccountRecord;
let ownerActor: Actor;
let seq = 0;
const deps = () => ({ db: rt.store.db, clock: () => new Date() });
const keyDeps = () => ({ ...deps(), apiKeys: rt.apiKeys });
const STEPS = [
  { name: 'a', type: 'page' as const, match: 'exact' as const, value: '/' },
  { name: 'b', type: 'page' as const, match: 'exact' as const, value: '/cart' },
];

beforeAll(async () => {
  rt = await createTestRuntime();
  owner = await WRITE_OPERATIONS.setUpOwner(deps(), { email: 'owner@example.com', name: 'Owner', password: 'owner password', code: rt.setupCode! });
  ownerActor = accountActor(owner.id, 'dashboard');
});
afterAll(() => rt.dispose());

async function account(): Promise<AccountRecord> {
  const created = await createAccount(rt.store.db, { email: `a${++seq}@example.com`, name: `A${seq}` });
  await setAccountPassword(rt.store.db, created.id, 'a long password');
  return created;
}

/** A project the owner administers. */
async function project(): Promise<ProjectRecord> {
  return WRITE_OPERATIONS.createProject(deps(), ownerActor, { key: `p-${++seq}`, name: 'P', domain: 'p.example' });
}

async function member(p: ProjectRecord, role: 'viewer' | 'editor' | 'admin' = 'editor'): Promise<AccountRecord> {
  const created = await account();
  await putProjectRole(rt.store.db, created.id, p.id, role, new Date());
  return created;
}

const REPORT = { kind: 'report', name: 'Weekly', cadence: 'weekly', hour: '8' };

type Scenario = () => Promise<{ action: string; projectId?: string }>;

const SCENARIOS: Record<WriteOperation, Scenario> = {
  async createProject() {
    const p = await project();
    return { action: 'project.create', projectId: p.id };
  },
  async updateProject() {
    const p = await project();
    await WRITE_OPERATIONS.updateProject(deps(), ownerActor, p, { name: 'Renamed', domain: p.domain, timezone: 'UTC', currency: 'EUR' });
    return { action: 'project.edit', projectId: p.id };
  },
  async setBrandTerms() {
    const p = await project();
    await WRITE_OPERATIONS.setBrandTerms(deps(), ownerActor, p, ['brand']);
    return { action: 'project.brand_terms', projectId: p.id };
  },
  async deleteProject() {
    const p = await project();
    await WRITE_OPERATIONS.deleteProject(deps(), ownerActor, p);
    return { action: 'project.delete', projectId: p.id };
  },
  async recoverProject() {
    const p = await WRITE_OPERATIONS.createProject(deps(), accountActor((await account()).id, 'dashboard'), { key: `r-${++seq}`, name: 'R', domain: 'r.example' });
    await WRITE_OPERATIONS.recoverProject(deps(), ownerActor, p, owner.id);
    return { action: 'project.recover', projectId: p.id };
  },
  async inviteToProject() {
    const p = await project();
    await WRITE_OPERATIONS.inviteToProject(deps(), ownerActor, p, { email: 'new@example.com', role: 'viewer' });
    return { action: 'access.invite', projectId: p.id };
  },
  async withdrawInvitation() {
    const p = await project();
    const shared = await WRITE_OPERATIONS.inviteToProject(deps(), ownerActor, p, { email: 'gone@example.com', role: 'viewer' });
    if (shared.kind !== 'invited') throw new Error('expected an invitation');
    await WRITE_OPERATIONS.withdrawInvitation(deps(), ownerActor, p, shared.invite.digest);
    return { action: 'access.withdraw', projectId: p.id };
  },
  async setMemberRole() {
    const p = await project();
    const m = await member(p);
    await WRITE_OPERATIONS.setMemberRole(deps(), ownerActor, p, m.id, 'viewer');
    return { action: 'access.set_role', projectId: p.id };
  },
  async removeAccess() {
    const p = await project();
    const m = await member(p);
    await WRITE_OPERATIONS.removeAccess(deps(), ownerActor, p, m.id);
    return { action: 'access.remove', projectId: p.id };
  },
  async grantAccess() {
    const p = await project();
    await WRITE_OPERATIONS.grantAccess(deps(), OPERATOR, p, (await account()).id, 'editor');
    return { action: 'access.grant', projectId: p.id };
  },
  async acceptInvitation() {
    const p = await project();
    const invitee = await account();
    const shared = await WRITE_OPERATIONS.inviteToProject(deps(), ownerActor, p, { email: invitee.email, role: 'editor' });
    if (shared.kind !== 'invited') throw new Error('expected an invitation');
    await WRITE_OPERATIONS.acceptInvitation(deps(), accountActor(invitee.id, 'dashboard'), shared.invite.digest);
    return { action: 'access.accept', projectId: p.id };
  },
  async declineInvitation() {
    const p = await project();
    const invitee = await account();
    const shared = await WRITE_OPERATIONS.inviteToProject(deps(), ownerActor, p, { email: invitee.email, role: 'editor' });
    if (shared.kind !== 'invited') throw new Error('expected an invitation');
    await WRITE_OPERATIONS.declineInvitation(deps(), accountActor(invitee.id, 'dashboard'), shared.invite.digest);
    return { action: 'access.decline', projectId: p.id };
  },
  async connectSources() {
    const p = await project();
    await WRITE_OPERATIONS.connectSources({ ...deps(), box: rt.box }, ownerActor, p, [{ source: 'engine2', siteUrl: 'https://p.example/', credential: { kind: 'api_key', secret: 'k' } }]);
    return { action: 'source.connect', projectId: p.id };
  },
  async disconnectSources() {
    const p = await project();
    await WRITE_OPERATIONS.connectSources({ ...deps(), box: rt.box }, ownerActor, p, [{ source: 'engine2', siteUrl: 'https://p.example/', credential: { kind: 'api_key', secret: 'k' } }]);
    await WRITE_OPERATIONS.disconnectSources(deps(), ownerActor, p, ['engine2']);
    return { action: 'source.disconnect', projectId: p.id };
  },
  async createFunnel() {
    const p = await project();
    await WRITE_OPERATIONS.createFunnel(deps(), ownerActor, p, { name: 'F', steps: STEPS, createdVia: 'dashboard' });
    return { action: 'funnel.create', projectId: p.id };
  },
  async editFunnel() {
    const p = await project();
    const { funnel } = await WRITE_OPERATIONS.createFunnel(deps(), ownerActor, p, { name: 'F', steps: STEPS, createdVia: 'dashboard' });
    await WRITE_OPERATIONS.editFunnel(deps(), ownerActor, p, funnel, { name: 'F2', steps: [...STEPS].reverse() });
    return { action: 'funnel.edit', projectId: p.id };
  },
  async renameFunnel() {
    const p = await project();
    const { funnel } = await WRITE_OPERATIONS.createFunnel(deps(), ownerActor, p, { name: 'F', steps: STEPS, createdVia: 'dashboard' });
    await WRITE_OPERATIONS.renameFunnel(deps(), ownerActor, p, funnel, 'Renamed');
    return { action: 'funnel.rename', projectId: p.id };
  },
  async deleteFunnel() {
    const p = await project();
    const { funnel } = await WRITE_OPERATIONS.createFunnel(deps(), ownerActor, p, { name: 'F', steps: STEPS, createdVia: 'dashboard' });
    await WRITE_OPERATIONS.deleteFunnel(deps(), ownerActor, p, await getFunnelByKey(rt.store.db, funnel.key), funnel.key);
    return { action: 'funnel.delete', projectId: p.id };
  },
  async createSubscription() {
    const p = await project();
    await WRITE_OPERATIONS.createSubscription(deps(), ownerActor, p, REPORT);
    return { action: 'subscription.create', projectId: p.id };
  },
  async deleteSubscription() {
    const p = await project();
    const sub = await WRITE_OPERATIONS.createSubscription(deps(), ownerActor, p, REPORT);
    await WRITE_OPERATIONS.deleteSubscription(deps(), ownerActor, p, sub.id);
    return { action: 'subscription.delete', projectId: p.id };
  },
  async addRecipient() {
    const p = await project();
    const sub = await WRITE_OPERATIONS.createSubscription(deps(), ownerActor, p, REPORT);
    await WRITE_OPERATIONS.addRecipient(deps(), ownerActor, p, sub.id, 'reader@example.com');
    return { action: 'subscription.add_recipient', projectId: p.id };
  },
  async addWebhook() {
    const p = await project();
    const sub = await WRITE_OPERATIONS.createSubscription(deps(), ownerActor, p, REPORT);
    await WRITE_OPERATIONS.addWebhook({ ...deps(), box: rt.box }, ownerActor, p, sub.id, { url: 'https://hooks.example/in', format: 'json' });
    return { action: 'subscription.add_webhook', projectId: p.id };
  },
  async createKey() {
    await WRITE_OPERATIONS.createKey(keyDeps(), ownerActor, owner.id, { name: 'k' });
    return { action: 'api_key.create' };
  },
  async revokeKey() {
    const { record } = await WRITE_OPERATIONS.createKey(keyDeps(), ownerActor, owner.id, { name: 'k' });
    await WRITE_OPERATIONS.revokeKey(keyDeps(), ownerActor, owner.id, record.id);
    return { action: 'api_key.revoke' };
  },
  async rotateKey() {
    const { record } = await WRITE_OPERATIONS.createKey(keyDeps(), ownerActor, owner.id, { name: 'k' });
    await WRITE_OPERATIONS.rotateKey(keyDeps(), ownerActor, owner.id, record.id);
    return { action: 'api_key.rotate' };
  },
  async revokeApp() {
    const now = new Date();
    await rt.store.db.insertInto('oauth_clients').values({ id: `c${++seq}`, secret_digest: null, name: 'App', redirect_uris: '[]', grant_types: 'authorization_code', token_endpoint_auth_method: 'none', scope: null, metadata: '{}', created_at: now.toISOString(), last_used_at: null }).execute();
    const grant = await insertGrant(rt.store.db, { id: `g${seq}`, accountId: owner.id, clientId: `c${seq}`, scope: 'read', resource: 'http://siteline.test/api/mcp', projectKeys: null, createdAt: now.toISOString(), expiresAt: new Date(now.getTime() + 3_600_000).toISOString() });
    await WRITE_OPERATIONS.revokeApp(deps(), ownerActor, owner.id, grant.id);
    return { action: 'oauth_grant.revoke' };
  },
  async setUpOwner() {
    // Ran in beforeAll (there is one owner): its entry is there.
    return { action: 'account.create' };
  },
  async signUp() {
    await WRITE_OPERATIONS.signUp(deps(), { email: `s${++seq}@example.com`, name: 'S', password: 'a long password' });
    return { action: 'account.create' };
  },
  async joinByInvite() {
    const p = await project();
    const shared = await WRITE_OPERATIONS.inviteToProject(deps(), ownerActor, p, { email: `j${++seq}@example.com`, role: 'viewer' });
    if (shared.kind !== 'invited') throw new Error('expected an invitation');
    expect(await findOpenInvite(rt.store.db, shared.token, new Date())).toBeDefined();
    await WRITE_OPERATIONS.joinByInvite(deps(), shared.token, { name: 'J', password: 'a long password' });
    return { action: 'access.accept', projectId: p.id };
  },
  async inviteTeammate() {
    await WRITE_OPERATIONS.inviteTeammate(deps(), ownerActor, `t${++seq}@example.com`);
    return { action: 'team.invite' };
  },
  async withdrawTeamInvite() {
    const outcome = await WRITE_OPERATIONS.inviteTeammate(deps(), ownerActor, `w${++seq}@example.com`);
    if (outcome.kind !== 'invited') throw new Error('expected an invitation');
    await WRITE_OPERATIONS.withdrawTeamInvite(deps(), ownerActor, outcome.invite.digest);
    return { action: 'team.withdraw' };
  },
  async createAccountAsOperator() {
    await WRITE_OPERATIONS.createAccountAsOperator(deps(), OPERATOR, { email: `o${++seq}@example.com`, name: 'O' });
    return { action: 'account.create' };
  },
  async setPassword() {
    await WRITE_OPERATIONS.setPassword(deps(), OPERATOR, (await account()).id, 'another long password');
    return { action: 'account.set_password' };
  },
};

describe('every write is audited', () => {
  it('lists every write function the writes modules export', async () => {
    const dir = join(import.meta.dirname, '../../src/writes');
    const exported = new Set<string>();
    for (const file of readdirSync(dir).filter((f) => f.endsWith('-writes.ts'))) {
      const module = (await import(join(dir, file))) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module)) if (typeof value === 'function' && !/^[A-Z]/.test(name)) exported.add(name);
    }
    expect([...exported].sort()).toEqual(Object.keys(WRITE_OPERATIONS).sort());
  });

  for (const name of Object.keys(SCENARIOS) as WriteOperation[]) {
    it(`${name} appends its audit entry`, async () => {
      const before = new Set((await listAudit(rt.store.db, { limit: 10_000 })).map((e) => e.id));
      const expected = await SCENARIOS[name]();
      const entries = await listAudit(rt.store.db, { limit: 10_000 });
      const fresh = name === 'setUpOwner' ? entries.filter((e) => e.subject === owner.id) : entries.filter((e) => !before.has(e.id));
      const entry = fresh.find((e) => e.action === expected.action);
      expect(entry, `${name}: ${expected.action} in ${JSON.stringify(fresh.map((e) => e.action))}`).toBeDefined();
      expect(entry!.detail?.via, 'the surface is recorded').toEqual(expect.any(String));
      if (expected.projectId) expect(entry!.projectId).toBe(expected.projectId);
    });
  }

  it('a refused write leaves neither the change nor an entry', async () => {
    const p = await project();
    const viewer = await member(p, 'viewer');
    const before = (await listAudit(rt.store.db, { projectId: p.id })).length;
    await expect(WRITE_OPERATIONS.deleteProject(deps(), accountActor(viewer.id, 'dashboard'), p)).rejects.toMatchObject({ code: 'insufficient_role' });
    await expect(WRITE_OPERATIONS.updateProject(deps(), accountActor(viewer.id, 'dashboard'), p, { name: 'X', domain: p.domain, timezone: 'UTC', currency: 'USD' })).rejects.toMatchObject({ code: 'insufficient_role' });
    expect((await listAudit(rt.store.db, { projectId: p.id })).length).toBe(before);
  });

  it('an audit entry that cannot be written takes the change back with it', async () => {
    const p = await project();
    const { audited } = await import('../../src/writes/audited.ts');
    const insert = audited(deps(), ownerActor, async (trx) => {
      await trx.insertInto('funnels').values({ id: 'fnl_rollback', key: 'rollback', project_id: p.id, name: 'R', steps: '[]', created_at: new Date().toISOString(), created_via: 'dashboard', created_by_account: null, confirmation_id: null }).execute();
      // audit_log.subject is NOT NULL: the entry fails after the change was made.
      return { result: undefined, audit: { action: 'funnel.create', subject: null as unknown as string, projectId: p.id } };
    });
    await expect(insert).rejects.toThrow();
    expect(await getFunnelByKey(rt.store.db, 'rollback')).toBeUndefined();
  });
});
