// Turning the sandbox off on a data folder that has the demo: the demo account's key, password and sessions
// stop working, with a log line; turning it back on issues a fresh key and password.
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
import { verifyAccountPassword } from '../../src/store/accounts-repository.ts';

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

async function start(mode: 'auto' | 'off', logger = capture().logger): Promise<Runtime> {
  const settings = loadSettings({ DATA_DIR: dataDir, SITELINE_SANDBOX: mode, SANDBOX_PORT: '0', SITELINE_SECRET_KEY: secret, LOG_LEVEL: 'warn', PUBLIC_URL: 'http://siteline.test' });
  return createRuntime(settings, { logger });
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
