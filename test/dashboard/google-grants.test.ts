// One Google grant per Google account, as Google keeps it: several projects connected through one account share
// it, so Cancel on another project, a partial grant, and Disconnect of one project leave the others working; 101
// connects through one account (Google keeps 100 refresh tokens per account) leave every project working; the
// Disconnect page says beforehand what happens to the other projects. Driven in-process against the sandbox's
// Google, whose grants revoke as one and cap tokens as Google's do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepAbandonedFlows } from '../../src/dashboard/google-flow-tokens.ts';
import type { GoogleWebFlow } from '../../src/providers/google-web/google-web-flow.ts';
import type { Sandbox } from '../../src/sandbox/sandbox.ts';
import { createAccount, setAccountPassword } from '../../src/store/accounts-repository.ts';
import { listSources, readSourceCredential } from '../../src/store/data-sources-repository.ts';
import { putProjectRole } from '../../src/store/project-roles-repository.ts';
import { createProject, type ProjectRecord } from '../../src/store/projects-repository.ts';
import { createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';
import { testSandbox } from '../sandbox/helpers.ts';
import { webClient, type WebClient } from './web-client.ts';

const ANALYTICS = 'https://www.googleapis.com/auth/analytics.readonly';
const SEARCH = 'https://www.googleapis.com/auth/webmasters.readonly';
let sandbox: Sandbox;
let rt: TestRuntime;
let user: WebClient;
let userId: string;
let seq = 0;
const revoked: string[] = [];

beforeAll(async () => {
  sandbox = await testSandbox({ now: () => new Date() });
  const c = sandbox.credentials.oauthClient;
  rt = await createTestRuntime({ upstream: (r) => sandbox.fetch(r), env: { GOOGLE_OAUTH_CLIENT_ID: c.client_id, GOOGLE_OAUTH_CLIENT_SECRET: c.client_secret } });
  const google = rt.deps.dashboard!.google!;
  const flow: GoogleWebFlow = google.flow;
  google.flow = { ...flow, revoke: async (token) => void (revoked.push(token), await flow.revoke(token)) };
  const account = await createAccount(rt.store.db, { email: 'agency@example.com', name: 'Agency' });
  await setAccountPassword(rt.store.db, account.id, 'a long password');
  userId = account.id;
  user = webClient(rt);
  await user.get('/account/sign-in');
  await user.post('/account/sign-in', { email: 'agency@example.com', password: 'a long password', return_to: '/dashboard' });
});
afterAll(() => rt?.dispose());

async function newProject(): Promise<ProjectRecord> {
  const project = await createProject(rt.store.db, { key: `client-${++seq}`, name: `Client ${seq}`, domain: 'www.acme-shop.example' });
  await putProjectRole(rt.store.db, userId, project.id, 'admin', new Date());
  return project;
}

/** Connect Google up to the picker, allowing `scopes` on the sandbox's consent page; returns the picker's path. */
async function toPicker(project: ProjectRecord, scopes = [ANALYTICS, SEARCH]): Promise<string> {
  await user.get(`/dashboard/p/${project.key}/sources`);
  const started = await user.post(`/dashboard/p/${project.key}/connect/google`, {});
  const page = await sandbox.fetch(new Request(started.location!));
  const fields = new URLSearchParams([...(await page.text()).matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))]));
  fields.set('scope', [...scopes, 'openid', 'email'].join(' '));
  fields.set('account', 'agency@example.com');
  fields.set('decision', 'allow');
  const answer = await sandbox.fetch(new Request('http://sandbox.invalid/o/oauth2/v2/auth', { method: 'POST', body: fields, headers: { 'content-type': 'application/x-www-form-urlencoded' } }));
  const back = new URL(answer.headers.get('location')!);
  const callback = await user.get(`${back.pathname}${back.search}`);
  expect(callback.status).toBe(302);
  return callback.location!;
}

async function connect(project: ProjectRecord, scopes = [ANALYTICS, SEARCH]): Promise<void> {
  const picker = await toPicker(project, scopes);
  const fields: Record<string, string> = { decision: 'save' };
  if (scopes.includes(ANALYTICS)) fields.property_id = '314159265';
  if (scopes.includes(SEARCH)) fields.site_url = 'https://www.acme-shop.example/';
  const saved = await user.post(picker, fields);
  expect(saved.status).toBe(303);
}

/** Whether the project's stored Google credential still gets an access token from Google. */
async function works(project: ProjectRecord, source: 'analytics' | 'engine1' = 'analytics'): Promise<boolean> {
  const credential = await readSourceCredential(rt.store.db, rt.box, project.id, source);
  const { client_id, client_secret, refresh_token } = JSON.parse(credential!.secret) as Record<string, string>;
  const res = await sandbox.fetch(new Request('https://oauth2.googleapis.com/token', { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token', client_id: client_id!, client_secret: client_secret!, refresh_token: refresh_token! }) }));
  return res.status === 200;
}

describe('one Google grant per Google account', () => {
  it('two projects on one account: Cancel on a third, a partial grant and Disconnect of one leave the others working', async () => {
    const [a, b, c, d] = [await newProject(), await newProject(), await newProject(), await newProject()];
    await connect(a);
    await connect(b);
    expect(await works(a)).toBe(true);
    expect(await works(b)).toBe(true);
    expect(await rt.store.db.selectFrom('google_grants').select('id').execute()).toHaveLength(1);

    // Cancel on the picker of a third project: nothing revoked, not now and not when the sweep finds it.
    const picker = await toPicker(c);
    await user.post(picker, { decision: 'cancel' });
    await sweepAbandonedFlows(rt.store.db, rt.box, rt.deps.dashboard!.google!, new Date(Date.now() + 1000));
    expect(revoked).toEqual([]);
    expect(await works(a)).toBe(true);

    // A Search-Console-only grant connects Search Console alone; the picker offers no property and says how to add it.
    const partial = await toPicker(d, [SEARCH]);
    const page = await user.get(partial);
    expect(page.html).not.toContain('name="property_id"');
    expect(page.html).toContain('You did not allow Google Analytics');
    await user.post(partial, { decision: 'save', site_url: 'https://www.acme-shop.example/' });
    expect((await listSources(rt.store.db, d.id)).map((s) => s.source)).toEqual(['engine1']);
    expect(await works(d, 'engine1')).toBe(true);

    // Disconnect a: the confirmation names the projects that keep the access; nothing is revoked.
    await user.get(`/dashboard/p/${a.key}/sources`);
    const confirm = await user.post(`/dashboard/p/${a.key}/disconnect/google`, {});
    expect(confirm.html).toContain('agency@example.com stays connected for Client');
    expect(confirm.html).toContain(b.name);
    const done = await user.post(`/dashboard/p/${a.key}/disconnect/google`, { confirm: 'yes' });
    expect(done.location).toContain('done=google-shared');
    expect(revoked).toEqual([]);
    expect(await listSources(rt.store.db, a.id)).toEqual([]);
    expect(await works(b)).toBe(true);
    expect(await works(d, 'engine1')).toBe(true);
  });

  it('an analytics-only grant connects analytics', async () => {
    const project = await newProject();
    await connect(project, [ANALYTICS]);
    expect((await listSources(rt.store.db, project.id)).map((s) => s.source)).toEqual(['analytics']);
    expect(await works(project)).toBe(true);
  });

  it('101 refresh tokens through one account keep every project working (all use the newest)', async () => {
    const first = await newProject();
    await connect(first);
    // 99 more consents through the same account (each mints a refresh token), cancelled on the picker.
    const spare = await newProject();
    for (let i = 0; i < 99; i += 1) await user.post(await toPicker(spare), { decision: 'cancel' });
    const last = await newProject();
    await connect(last);
    expect(await works(last)).toBe(true);
    expect(await works(first)).toBe(true);
  }, 120_000);

  it('Disconnect of the last project on an account revokes at Google, and says so first', async () => {
    await rt.store.db.deleteFrom('data_sources').execute();
    revoked.length = 0;
    const only = await newProject();
    await connect(only);
    await user.get(`/dashboard/p/${only.key}/sources`);
    const confirm = await user.post(`/dashboard/p/${only.key}/disconnect/google`, {});
    expect(confirm.html).toContain('No other project uses agency@example.com, so Siteline revokes its access at Google.');
    const done = await user.post(`/dashboard/p/${only.key}/disconnect/google`, { confirm: 'yes' });
    expect(done.location).toContain('done=google-disconnected');
    expect(revoked).toHaveLength(1);
    expect(await rt.store.db.selectFrom('google_grants').select('id').execute()).toEqual([]);
  });
});
