// How an unfinished "Connect Google" ends: a flow whose starter is no longer an admin of the project dies (at the
// callback or at the picker) and the grant Google gave is revoked; a callback answered twice revokes the grant of
// the first answer; an abandoned flow (past its hour on the picker) and a flow of a deleted project have their
// grants revoked too — each only because no project uses that Google account. Cancel on the picker never revokes
// (the sweep does, later). Driven in-process against the sandbox's Google (consent, code exchange, /revoke).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sweepAbandonedFlows } from '../../src/dashboard/google-flow-tokens.ts';
import type { GoogleWebFlow } from '../../src/providers/google-web/google-web-flow.ts';
import type { Sandbox } from '../../src/sandbox/sandbox.ts';
import { createAccount, setAccountPassword } from '../../src/store/accounts-repository.ts';
import { listSources } from '../../src/store/data-sources-repository.ts';
import { changeProjectRole, putProjectRole } from '../../src/store/project-roles-repository.ts';
import { createProject, type ProjectRecord } from '../../src/store/projects-repository.ts';
import { createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';
import { testSandbox } from '../sandbox/helpers.ts';
import { webClient, type WebClient } from './web-client.ts';

let sandbox: Sandbox;
let rt: TestRuntime;
let now = Date.now();
let starter: WebClient;
let starterId: string;
let project: ProjectRecord;
let seq = 0;
const revoked: string[] = [];

beforeAll(async () => {
  sandbox = await testSandbox({ now: () => new Date() });
  const c = sandbox.credentials.oauthClient;
  rt = await createTestRuntime({ upstream: (r) => sandbox.fetch(r), clock: () => new Date(now), env: { GOOGLE_OAUTH_CLIENT_ID: c.client_id, GOOGLE_OAUTH_CLIENT_SECRET: c.client_secret } });
  // Every revocation the dashboard sends to Google is recorded (and still sent).
  const google = rt.deps.dashboard!.google!;
  const flow: GoogleWebFlow = google.flow;
  google.flow = { ...flow, revoke: async (token) => void (revoked.push(token), await flow.revoke(token)) };
  const account = await createAccount(rt.store.db, { email: 'starter@example.com', name: 'Starter' });
  await setAccountPassword(rt.store.db, account.id, 'a long password');
  starterId = account.id;
  starter = webClient(rt);
  await starter.get('/account/sign-in');
  await starter.post('/account/sign-in', { email: 'starter@example.com', password: 'a long password', return_to: '/dashboard' });
});
afterAll(() => rt?.dispose());

beforeEach(async () => {
  now = Date.now();
  revoked.length = 0;
  project = await createProject(rt.store.db, { key: `site-${++seq}`, name: 'Acme', domain: 'www.acme-shop.example' });
  await putProjectRole(rt.store.db, starterId, project.id, 'admin', new Date());
});

/** Starts Connect Google as the starter and plays Google's consent page; returns the callback path with its query. */
async function consented(): Promise<string> {
  await starter.get(`/dashboard/p/${project.key}/sources`);
  const started = await starter.post(`/dashboard/p/${project.key}/connect/google`, {});
  expect(started.status).toBe(303);
  const page = await sandbox.fetch(new Request(started.location!));
  const fields = new URLSearchParams([...(await page.text()).matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))]));
  fields.set('decision', 'allow');
  const answer = await sandbox.fetch(new Request('http://sandbox.invalid/o/oauth2/v2/auth', { method: 'POST', body: fields, headers: { 'content-type': 'application/x-www-form-urlencoded' } }));
  const back = new URL(answer.headers.get('location')!);
  return `${back.pathname}${back.search}`;
}

async function flows(): Promise<number> {
  return (await rt.store.db.selectFrom('google_connect_flows').select('id').where('project_id', '=', project.id).execute()).length;
}

describe('a Connect Google flow that does not finish', () => {
  it('reaches the picker when all is well; Cancel there never revokes, the later sweep does', async () => {
    const callback = await starter.get(await consented());
    expect(callback.status).toBe(302);
    const picker = await starter.get(callback.location!);
    expect(picker.html).toContain('Pick what belongs to');
    await starter.post(callback.location!, { decision: 'cancel' });
    expect(revoked).toHaveLength(0);
    expect((await starter.get(callback.location!)).status).toBe(410);
    expect(await sweepAbandonedFlows(rt.store.db, rt.box, rt.deps.dashboard!.google!, new Date(now + 1000))).toBe(1);
    expect(revoked).toHaveLength(1);
    expect(await flows()).toBe(0);
  });

  it('dies at the callback when its starter lost the admin role meanwhile', async () => {
    const callback = await consented();
    await changeProjectRole(rt.store.db, starterId, project.id, 'editor');
    const answer = await starter.get(callback);
    expect(answer.status).toBe(403);
    expect(answer.html).toContain('may no longer connect data sources');
    expect(await flows()).toBe(0);
    expect(await listSources(rt.store.db, project.id)).toEqual([]);
  });

  it('dies at the picker when its starter was removed after consent, and the grant is revoked at Google', async () => {
    const callback = await starter.get(await consented());
    await rt.store.db.deleteFrom('account_projects').where('account_id', '=', starterId).where('project_id', '=', project.id).execute();
    const picker = await starter.get(callback.location!);
    expect(picker.status).toBe(403);
    expect(revoked).toHaveLength(1);
    // The picker's Connect after that finds nothing to finish.
    expect((await starter.post(callback.location!, { decision: 'save', property_id: '314159265', site_url: '' })).status).toBe(410);
    expect(await listSources(rt.store.db, project.id)).toEqual([]);
  });

  it('a callback answered twice revokes the grant the first answer brought', async () => {
    const path = await consented();
    expect((await starter.get(path)).status).toBe(302);
    const replay = await starter.get(path);
    expect(replay.status).toBe(409);
    expect(replay.html).toContain('arrived twice');
    expect(revoked).toHaveLength(1);
    expect(await flows()).toBe(0);
  });

  it('an abandoned flow (past its hour on the picker) is swept and its grant revoked', async () => {
    expect((await starter.get(await consented())).status).toBe(302);
    const google = rt.deps.dashboard!.google!;
    expect(await sweepAbandonedFlows(rt.store.db, rt.box, google, new Date(now))).toBe(0);
    expect(await flows()).toBe(1);
    expect(await sweepAbandonedFlows(rt.store.db, rt.box, google, new Date(now + 3_601_000))).toBe(1);
    expect(revoked).toHaveLength(1);
    expect(await flows()).toBe(0);
  });

  it('deleting the project revokes the grant of a flow waiting on the picker', async () => {
    expect((await starter.get(await consented())).status).toBe(302);
    await starter.get(`/dashboard/p/${project.key}/settings`);
    expect((await starter.post(`/dashboard/p/${project.key}/delete`, { confirm: project.key })).location).toBe('/dashboard?done=deleted');
    expect(revoked).toHaveLength(1);
  });
});
