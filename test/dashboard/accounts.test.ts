// Joining in the browser: first-run setup exists only while no account does and makes the owner; invitations are
// single-use, expire, are stored only as digests, and only the owner makes them; SIGNUP switches open sign-up
// and invitations on and off; every form needs its CSRF token.
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/auth/oauth/secrets.ts';
import { roleOf } from '../../src/store/account-roles-repository.ts';
import { findAccountByEmail } from '../../src/store/accounts-repository.ts';
import { OPERATOR } from '../../src/writes/actor.ts';
import { createAccountAsOperator } from '../../src/writes/account-writes.ts';
import { createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';
import { webClient } from './web-client.ts';

let rt: TestRuntime | undefined;
afterEach(async () => {
  await rt?.dispose();
  rt = undefined;
});

const OWNER = { name: 'Owner', email: 'owner@example.com', password: 'a long password' };

async function setUp(env: Record<string, string> = {}) {
  rt = await createTestRuntime({ env });
  const owner = webClient(rt);
  expect((await owner.get('/dashboard')).location).toBe('/setup');
  await owner.get('/setup');
  const created = await owner.post('/setup', { ...OWNER, code: rt.setupCode! });
  expect(created).toMatchObject({ status: 303, location: '/dashboard' });
  return { rt, owner };
}

describe('first-run setup', () => {
  it('creates the owner once, signs them in, and is gone afterwards', async () => {
    const { rt, owner } = await setUp();
    const account = (await findAccountByEmail(rt.store.db, OWNER.email))!;
    expect(await roleOf(rt.store.db, account.id)).toBe('owner');
    expect((await owner.get('/dashboard')).status).toBe(200);

    const stranger = webClient(rt);
    expect((await stranger.get('/setup')).location).toBe('/dashboard');
    expect((await stranger.post('/setup', { ...OWNER, email: 'second@example.com', csrf: 'x' })).status).toBe(403);
    expect(await findAccountByEmail(rt.store.db, 'second@example.com')).toBeUndefined();
  });

  it('two setup forms sent at the same moment make one owner and no second account', async () => {
    rt = await createTestRuntime();
    const [first, second] = [webClient(rt), webClient(rt)];
    await Promise.all([first.get('/setup'), second.get('/setup')]);
    const code = rt.setupCode!;
    const answers = await Promise.all([first.post('/setup', { ...OWNER, code }), second.post('/setup', { ...OWNER, email: 'second@example.com', code })]);
    expect(answers.map((a) => a.status).sort()).toEqual([303, 409]);
    const accounts = await rt.store.db.selectFrom('accounts').select('id').execute();
    expect(accounts).toHaveLength(1);
    expect(await roleOf(rt.store.db, accounts[0]!.id)).toBe('owner');
    expect(answers.find((a) => a.status === 409)!.html).toContain('Already set up');
  });

  it('re-renders with the reason when the password is too short, creating nothing', async () => {
    rt = await createTestRuntime();
    const client = webClient(rt);
    await client.get('/setup');
    const refused = await client.post('/setup', { ...OWNER, password: 'short', code: rt.setupCode! });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('at least 8 characters');
    expect(await findAccountByEmail(rt.store.db, OWNER.email)).toBeUndefined();
  });
});

describe('invitations', () => {
  it('a link works once, is stored as a digest, and makes a member', async () => {
    const { rt, owner } = await setUp();
    await owner.get('/dashboard/team');
    const invited = await owner.post('/dashboard/team/invites', { email: 'mate@example.com' });
    expect(invited.status).toBe(201);
    const link = /<code id="invite-link">([^<]+)<\/code>/.exec(invited.html)![1]!;
    const token = new URL(link.replace(/&amp;/g, '&')).searchParams.get('token')!;
    const rows = await rt.store.db.selectFrom('invites').selectAll().execute();
    expect(rows.map((r) => r.digest)).toEqual([sha256Hex(token)]);
    expect(JSON.stringify(rows)).not.toContain(token);

    const mate = webClient(rt);
    expect((await mate.get(`/join?token=${token}`)).html).toContain('mate@example.com');
    // The email comes from the invitation, whatever the form says.
    const joined = await mate.post('/join', { token, name: 'Mate', email: 'someone-else@example.com', password: 'another long one' });
    expect(joined).toMatchObject({ status: 303, location: '/dashboard' });
    const account = (await findAccountByEmail(rt.store.db, 'mate@example.com'))!;
    expect(await roleOf(rt.store.db, account.id)).toBe('member');
    expect(await findAccountByEmail(rt.store.db, 'someone-else@example.com')).toBeUndefined();

    const again = webClient(rt);
    expect((await again.get(`/join?token=${token}`)).status).toBe(410);
    expect((await again.post('/join', { token, name: 'Again', password: 'another long one', csrf: 'x' })).status).toBe(410);

    // A member cannot invite.
    await mate.get('/dashboard/team');
    expect((await mate.post('/dashboard/team/invites', { email: 'x@example.com' })).status).toBe(403);
  });

  it('an expired invitation is refused', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    rt = await createTestRuntime({ clock: () => now });
    const owner = webClient(rt);
    await owner.get('/setup');
    await owner.post('/setup', { ...OWNER, code: rt.setupCode! });
    await owner.get('/dashboard/team');
    const invited = await owner.post('/dashboard/team/invites', { email: 'late@example.com' });
    const token = /token=([A-Za-z0-9_-]+)/.exec(invited.html)![1]!;
    now = new Date('2026-01-08T00:00:01Z');
    expect((await webClient(rt).get(`/join?token=${token}`)).status).toBe(410);
  });
});

describe('SIGNUP', () => {
  it('closed: no joining from the browser, not even by invitation', async () => {
    rt = await createTestRuntime({ env: { SIGNUP: 'closed' } });
    await createAccountAsOperator({ db: rt.store.db, clock: () => new Date() }, OPERATOR, { ...OWNER, owner: true });
    const owner = webClient(rt);
    await owner.get('/account/sign-in');
    expect((await owner.post('/account/sign-in', { email: OWNER.email, password: OWNER.password, return_to: '/dashboard' })).location).toBe('/dashboard');
    expect((await webClient(rt).get('/signup')).status).toBe(403);
    expect((await webClient(rt).get('/join?token=whatever')).status).toBe(403);
    await owner.get('/dashboard/team');
    expect((await owner.post('/dashboard/team/invites', { email: 'x@example.com' })).status).toBe(403);
  });

  it('invite (the default) refuses open sign-up; open allows it', async () => {
    const invite = await setUp();
    expect((await webClient(invite.rt).get('/signup')).status).toBe(403);
    await invite.rt.dispose();
    const open = await setUp({ SIGNUP: 'open' });
    const visitor = webClient(open.rt);
    expect((await visitor.get('/signup')).status).toBe(200);
    expect(await visitor.post('/signup', { name: 'Visitor', email: 'visitor@example.com', password: 'visiting for long' })).toMatchObject({ status: 303 });
    expect(await roleOf(open.rt.store.db, (await findAccountByEmail(open.rt.store.db, 'visitor@example.com'))!.id)).toBe('member');
  });
});
