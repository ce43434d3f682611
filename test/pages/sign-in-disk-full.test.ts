// A full (or read-only) disk while running: signing in cannot save the session, and the browser gets the sign-in page again
// with a 503, Retry-After and a message saying to retry — never a 500.
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listApiKeysForAccount } from '../../src/store/api-keys-repository.ts';
import { findAccountByEmail } from '../../src/store/accounts-repository.ts';
import { cookiesFrom, createOAuthFixture, form, hiddenField, PASSWORD, signIn as signInAs, type OAuthFixture } from '../oauth/oauth-helpers.ts';

let fx: OAuthFixture;
// SQLite on purpose whatever the test backend: query_only stands in for a full disk, which only an embedded file has.
const sqliteFile = join(tmpdir(), `siteline-disk-full-${randomBytes(4).toString('hex')}.sqlite`);
beforeAll(async () => {
  fx = await createOAuthFixture({ env: { DATABASE_URL: sqliteFile } });
});
afterAll(async () => {
  await fx.rt.dispose();
  await Promise.all(['', '-wal', '-shm'].map((suffix) => rm(sqliteFile + suffix, { force: true })));
});

async function signIn(): Promise<Response> {
  const page = await fx.rt.request('/account/sign-in');
  const body = form({ csrf: hiddenField(await page.text(), 'csrf'), email: fx.email, password: PASSWORD, return_to: '/account' });
  return fx.rt.request('/account/sign-in', { method: 'POST', headers: { ...body.headers, cookie: cookiesFrom(page) }, body: body.body });
}

describe('sign-in with a full disk', () => {
  it('answers 503 with the sign-in page, then signs in once there is room again', async () => {
    // query_only makes SQLite refuse every write (SQLITE_READONLY), as a full or read-only disk does; reads work.
    await sql.raw('pragma query_only = 1').execute(fx.rt.store.db);
    const refused = await signIn();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.headers.get('content-type')).toContain('text/html');
    expect(await refused.text()).toContain('try again');
    expect(refused.headers.get('set-cookie') ?? '').not.toContain('siteline_session');

    await sql.raw('pragma query_only = 0').execute(fx.rt.store.db);
    const res = await signIn();
    expect(res.status).toBe(303);
  });

  it('refuses a dashboard write with a 503 page and writes nothing', async () => {
    const cookie = await signInAs(fx.rt, fx.email);
    const page = await fx.rt.request('/account', { headers: { cookie } });
    const csrf = hiddenField(await page.text(), 'csrf');
    const account = (await findAccountByEmail(fx.rt.store.db, fx.email))!;
    const before = (await listApiKeysForAccount(fx.rt.store.db, account.id)).length;
    await sql.raw('pragma query_only = 1').execute(fx.rt.store.db);
    try {
      const body = form({ csrf, name: 'during outage', scope: 'read' });
      const res = await fx.rt.request('/account/keys', { method: 'POST', headers: { ...body.headers, cookie, origin: 'http://siteline.test' }, body: body.body });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(await res.text()).toContain('nothing was changed');
    } finally {
      await sql.raw('pragma query_only = 0').execute(fx.rt.store.db);
    }
    expect((await listApiKeysForAccount(fx.rt.store.db, account.id)).length).toBe(before);
  });
});
