// Turning the sandbox off on a data folder that has the demo: the demo account's key, password and sessions
// stop working, with a log line; turning it back on issues a fresh key and password. The sandbox's credentials,
// still stored on the demo projects, are refused and never sent to the real providers.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/config/settings.ts';
import { DEMO_EMAIL } from '../../src/demo/seed-demo.ts';
import { createLogger } from '../../src/logging/logger.ts';
import { createRuntime, type Runtime } from '../../src/runtime.ts';
import { inProcessEndpoints } from '../../src/providers/endpoints.ts';
import { verifyAccountPassword } from '../../src/store/accounts-repository.ts';
import { createAccountWithKey } from '../helpers/test-runtime.ts';
import { createStubUpstream } from '../providers/support/stub-upstream.ts';

let dataDir: string;
const secret = randomBytes(32).toString('base64');
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'siteline-retire-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger({ level: 'warn', destination }) };
}

async function start(mode: 'auto' | 'off', logger = capture().logger, overrides: Parameters<typeof createRuntime>[1] = {}): Promise<Runtime> {
  const settings = loadSettings({ DATA_DIR: dataDir, SITELINE_SANDBOX: mode, SANDBOX_PORT: '0', SITELINE_SECRET_KEY: secret, LOG_LEVEL: 'warn', PUBLIC_URL: 'http://siteline.test' });
  return createRuntime(settings, { logger, ...overrides });
}
const summary = (rt: Runtime, key: string) =>
  rt.app.request('http://siteline.test/api/v1/projects/list', { headers: { authorization: `Bearer ${key}` } });

describe('SITELINE_SANDBOX=off retires the demo account', () => {
  it('revokes the demo key and replaces the known password, says so in the log, and a later auto start re-issues both', async () => {
    const demo = await start('auto');
    const key = demo.demo!.seeded.apiKey;
    const password = (await readFile(join(dataDir, 'demo-password'), 'utf8')).trim();
    expect((await summary(demo, key)).status).toBe(200);
    await demo.close();

    const log = capture();
    const off = await start('off', log.logger);
    try {
      expect((await summary(off, key)).status).toBe(401);
      expect(await verifyAccountPassword(off.store.db, DEMO_EMAIL, password)).toBeUndefined();
      const line = log.lines.find((l) => String(l.msg).includes('disabled the demo account'));
      expect(line).toMatchObject({ keysRevoked: 1, passwordReset: true });
    } finally {
      await off.close();
    }

    const again = await start('auto');
    try {
      const fresh = again.demo!.seeded.apiKey;
      expect(fresh).not.toBe(key);
      expect((await summary(again, fresh)).status).toBe(200);
      const newPassword = (await readFile(join(dataDir, 'demo-password'), 'utf8')).trim();
      expect(await verifyAccountPassword(again.store.db, DEMO_EMAIL, newPassword)).toBeDefined();
    } finally {
      await again.close();
    }
  });
});

describe('SITELINE_SANDBOX=off and the sandbox\'s credentials', () => {
  it('refuses them (424, the reason on the source) without a call to the real providers', async () => {
    await (await start('auto')).close();
    const production = createStubUpstream();
    const off = await start('off', capture().logger, { endpoints: inProcessEndpoints(production.handler) });
    try {
      const { key } = await createAccountWithKey(off, { email: 'operator@example.com', projects: ['acme-shop'] });
      const read = (path: string) => off.app.request(`http://siteline.test${path}`, { headers: { authorization: `Bearer ${key}` } });
      const res = await read('/api/v1/metrics/acme-shop/summary');
      expect(res.status).toBe(424);
      expect(((await res.json()) as { detail: string }).detail).toContain('issued by the provider sandbox, which is not running');
      expect((await read('/api/v1/metrics/acme-shop/search/summary?sp=engine2')).status).toBe(424);
      expect(production.calls).toHaveLength(0);
    } finally {
      await off.close();
    }
  });
});
