// The first run cannot be claimed by a stranger: /setup needs the one-time code the server printed in its log, is
// closed entirely with SIGNUP=closed (then `siteline accounts create --owner` makes the owner), and is gone once an
// owner exists. Open sign-up and setup are counted per address and overall, refused before any password is hashed.
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/logging/logger.ts';
import { createLogger } from '../../src/logging/logger.ts';
import { roleOf } from '../../src/store/account-roles-repository.ts';
import { findAccountByEmail } from '../../src/store/accounts-repository.ts';
import { SIGNUP_LIMITS } from '../../src/dashboard/signup-limits.ts';
import { runSiteline } from '../cli/run.ts';
import { createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';
import { webClient } from './web-client.ts';

let rt: TestRuntime | undefined;
afterEach(async () => {
  await rt?.dispose();
  rt = undefined;
});

const OWNER = { name: 'Owner', email: 'owner@example.com', password: 'a long password' };

/** A logger whose lines the test reads. */
function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({ write: (chunk, _encoding, done) => void (lines.push(String(chunk)), done()) });
  const logger = createLogger({ level: 'info', destination });
  return { logger, lines };
}

describe('/setup', () => {
  it('needs the setup code printed in the server log; without it, or with a wrong one, nothing is created', async () => {
    const { logger, lines } = capturingLogger();
    rt = await createTestRuntime({ logger });
    const code = rt.setupCode!;
    expect(code).toMatch(/^[2-9A-HJ-NP-Z]{4}(-[2-9A-HJ-NP-Z]{4}){3}$/);
    expect(lines.join('')).toContain(`enter the setup code ${code}`);

    const stranger = webClient(rt);
    expect((await stranger.get('/setup')).html).toContain('Setup code');
    const without = await stranger.post('/setup', OWNER);
    expect(without.status).toBe(400);
    expect(without.html).toContain('not the setup code');
    expect((await stranger.post('/setup', { ...OWNER, code: 'AAAA-BBBB-CCCC-DDDD' })).status).toBe(400);
    expect(await findAccountByEmail(rt.store.db, OWNER.email)).toBeUndefined();

    // Typed in lower case with spaces, it still works; then the code is spent and /setup is gone.
    const created = await stranger.post('/setup', { ...OWNER, code: ` ${code.toLowerCase().replaceAll('-', ' ')} ` });
    expect(created).toMatchObject({ status: 303, location: '/dashboard' });
    expect(await roleOf(rt.store.db, (await findAccountByEmail(rt.store.db, OWNER.email))!.id)).toBe('owner');
    expect(await rt.store.db.selectFrom('setup_codes').selectAll().execute()).toEqual([]);
    expect((await webClient(rt).get('/setup')).location).toBe('/dashboard');
  });

  it('SIGNUP=closed: a fresh server prints no code and refuses /setup; the CLI makes the owner', async () => {
    rt = await createTestRuntime({ env: { SIGNUP: 'closed' } });
    expect(rt.setupCode).toBeUndefined();
    const stranger = webClient(rt);
    const page = await stranger.get('/setup');
    expect(page.status).toBe(403);
    expect(page.html).toContain('siteline accounts create --owner');
    expect((await stranger.post('/setup', { ...OWNER, code: 'AAAA-BBBB-CCCC-DDDD' })).status).toBe(403);
    expect(await rt.store.db.selectFrom('accounts').select('id').execute()).toEqual([]);

    const made = await runSiteline(['accounts', 'create', '--owner', '--email', OWNER.email, '--name', 'Owner', '--password-stdin', '--json'], rt.cliEnv, `${OWNER.password}\n`);
    expect(made.code).toBe(0);
    expect(await roleOf(rt.store.db, (await findAccountByEmail(rt.store.db, OWNER.email))!.id)).toBe('owner');
    const second = await runSiteline(['accounts', 'create', '--owner', '--email', 'two@example.com', '--name', 'Two'], rt.cliEnv);
    expect(second.code).not.toBe(0);
    expect(second.stderr).toContain('already has an owner');
    expect(await findAccountByEmail(rt.store.db, 'two@example.com')).toBeUndefined();
  });

  it('in every other mode too: invite and open both need the code', async () => {
    for (const mode of ['invite', 'open']) {
      rt = await createTestRuntime({ env: { SIGNUP: mode } });
      const stranger = webClient(rt);
      await stranger.get('/setup');
      expect((await stranger.post('/setup', OWNER)).status, mode).toBe(400);
      expect(await rt.store.db.selectFrom('accounts').select('id').execute()).toEqual([]);
      await rt.dispose();
      rt = undefined;
    }
  });
});

describe('sign-up limits', () => {
  it('per address: past the limit a sign-up is refused (429, Retry-After) and nothing is created', async () => {
    rt = await createTestRuntime({ env: { SIGNUP: 'open' } });
    const visitor = webClient(rt);
    await visitor.get('/signup');
    for (let i = 0; i < SIGNUP_LIMITS.ip.points; i++) {
      // Short passwords: refused after counting, each quickly (the limit counts attempts, not accounts).
      expect((await visitor.post('/signup', { name: 'V', email: `v${i}@example.com`, password: 'short' })).status).toBe(400);
    }
    const refused = await visitor.post('/signup', { name: 'V', email: 'late@example.com', password: 'a long password' });
    expect(refused.status).toBe(429);
    expect(refused.html).toContain('Too many accounts were requested lately');
    expect(await findAccountByEmail(rt.store.db, 'late@example.com')).toBeUndefined();
  });

  it('overall: many addresses together are refused past the installation-wide limit', async () => {
    rt = await createTestRuntime({ env: { SIGNUP: 'open' } });
    /** One sign-up as if it came from `ip` (the socket address srvx sets). */
    const signUpFrom = async (ip: string, email: string) => {
      const page = await rt!.request('/signup');
      const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1]!;
      const cookie = page.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
      const request = new Request('http://siteline.test/signup', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://siteline.test', cookie },
        body: new URLSearchParams({ csrf, name: 'V', email, password: 'short' }),
      });
      Object.defineProperty(request, 'ip', { value: ip });
      return (await rt!.app.request(request)).status;
    };
    const answers: number[] = [];
    for (let i = 0; i <= SIGNUP_LIMITS.all.points; i++) answers.push(await signUpFrom(`192.0.2.${i}`, `w${i}@example.com`));
    expect(answers.slice(0, -1).every((s) => s === 400)).toBe(true);
    expect(answers.at(-1)).toBe(429);
  });
});
