// Subscriptions through the write service: editors manage them, viewers are refused with the role named, bad
// fields come back as a problem naming the parameter, and nothing of another project is reachable.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAccount } from '../../src/store/accounts-repository.ts';
import { putProjectRole } from '../../src/store/project-roles-repository.ts';
import { listSubscriptions } from '../../src/store/subscriptions-repository.ts';
import { accountActor, type Actor } from '../../src/writes/actor.ts';
import { WRITE_OPERATIONS } from '../../src/writes/write-operations.ts';
import { createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';

let rt: TestRuntime;
let owner: Actor;
const deps = () => ({ db: rt.store.db, clock: () => new Date() });
const REPORT = { kind: 'report', name: 'Weekly', cadence: 'weekly', hour: '8' };

beforeAll(async () => {
  rt = await createTestRuntime();
  const account = await WRITE_OPERATIONS.setUpOwner(deps(), { email: 'owner@example.com', name: 'Owner', password: 'owner password', code: rt.setupCode! });
  owner = accountActor(account.id, 'dashboard');
});
afterAll(() => rt.dispose());

async function withRole(projectId: string, role: 'viewer' | 'editor', email: string): Promise<Actor> {
  const created = await createAccount(rt.store.db, { email, name: role });
  await putProjectRole(rt.store.db, created.id, projectId, role, new Date());
  return accountActor(created.id, 'dashboard');
}

it('an editor creates and deletes; a viewer is refused and nothing is written', async () => {
  const p = await WRITE_OPERATIONS.createProject(deps(), owner, { key: 'subs-roles', name: 'P', domain: 'p.example' });
  const editor = await withRole(p.id, 'editor', 'editor@example.com');
  const viewer = await withRole(p.id, 'viewer', 'viewer@example.com');
  const sub = await WRITE_OPERATIONS.createSubscription(deps(), editor, p, REPORT);
  await expect(WRITE_OPERATIONS.createSubscription(deps(), viewer, p, REPORT)).rejects.toMatchObject({ code: 'insufficient_role' });
  await expect(WRITE_OPERATIONS.addRecipient(deps(), viewer, p, sub.id, 'x@example.com')).rejects.toMatchObject({ code: 'insufficient_role' });
  expect((await listSubscriptions(rt.store.db, p.id)).map((s) => s.id)).toEqual([sub.id]);
  await WRITE_OPERATIONS.deleteSubscription(deps(), editor, p, sub.id);
  expect(await listSubscriptions(rt.store.db, p.id)).toEqual([]);
});

it('bad fields name the parameter; another project\'s subscription is not found', async () => {
  const p = await WRITE_OPERATIONS.createProject(deps(), owner, { key: 'subs-bad', name: 'P', domain: 'p.example' });
  const other = await WRITE_OPERATIONS.createProject(deps(), owner, { key: 'subs-other', name: 'O', domain: 'o.example' });
  await expect(WRITE_OPERATIONS.createSubscription(deps(), owner, p, { ...REPORT, hour: '25' })).rejects.toMatchObject({ code: 'invalid_parameter', param: 'hour' });
  const sub = await WRITE_OPERATIONS.createSubscription(deps(), owner, p, REPORT);
  await expect(WRITE_OPERATIONS.addWebhook({ ...deps(), box: rt.box }, owner, p, sub.id, { url: 'https://h.example/', format: 'xml' })).rejects.toMatchObject({ param: 'format' });
  await expect(WRITE_OPERATIONS.deleteSubscription(deps(), owner, other, sub.id)).rejects.toMatchObject({ code: 'not_found' });
});
