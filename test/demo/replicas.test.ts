// Demo mode with several replicas on one PostgreSQL database, each with its own data folder, as real processes:
// two started at the same moment both start, and no banner shows a password that does not work; a third started
// later on the seeded database starts too and says where the demo password is.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '../../src/demo/seed-demo.ts';
import { verifyAccountPassword } from '../../src/store/accounts-repository.ts';
import { createFreshDatabase, TEST_DATABASE_URL, type FreshDatabase } from '../store/databases.ts';

const MAIN = resolve(import.meta.dirname, '../../src/main.ts');

interface Replica {
  child: ChildProcess;
  dataDir: string;
  /** Resolves with stdout once the banner's demo lines are out; rejects when the process exits first. */
  banner: Promise<string>;
}

describe.skipIf(!TEST_DATABASE_URL)('demo replicas on one PostgreSQL database', () => {
  let database: FreshDatabase;
  const replicas: Replica[] = [];
  const secret = randomBytes(32).toString('base64');

  async function startReplica(): Promise<Replica> {
    const dataDir = await mkdtemp(join(tmpdir(), 'siteline-replica-'));
    const env = {
      PATH: process.env.PATH,
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      SITELINE_SANDBOX: 'auto',
      SANDBOX_PORT: '0',
      PORT: '0',
      LOG_LEVEL: 'warn',
      SITELINE_SECRET_KEY: secret,
    };
    const child = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const banner = new Promise<string>((resolveBanner, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('projects ')) resolveBanner(stdout);
      });
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.once('exit', (code) => reject(new Error(`replica exited with ${code}:\n${stdout}\n${stderr}`)));
    });
    banner.catch(() => {});
    const replica = { child, dataDir, banner };
    replicas.push(replica);
    return replica;
  }

  const passwordIn = (banner: string) => new RegExp(`demo account  ${DEMO_EMAIL.replace('.', '\\.')} / (\\S+)`).exec(banner)?.[1];

  beforeAll(async () => {
    database = await createFreshDatabase('postgres');
  });
  afterAll(async () => {
    await Promise.all(
      replicas.map(async ({ child, dataDir }) => {
        if (child.exitCode === null) {
          const exited = new Promise((done) => child.once('exit', done));
          child.kill('SIGTERM');
          await exited;
        }
        await rm(dataDir, { recursive: true, force: true });
      }),
    );
    await database?.cleanup();
  });

  it('two replicas started together both start; every password they print works', async () => {
    const [a, b] = await Promise.all([startReplica(), startReplica()]);
    const banners = await Promise.all([a.banner, b.banner]);
    const printed = banners.map(passwordIn);
    expect(printed.filter((p) => p !== undefined).length).toBeGreaterThanOrEqual(1);
    const store = await database.open();
    for (const [index, password] of printed.entries()) {
      if (password === undefined) expect(banners[index]).toMatch(/created by another instance; its password is in \S+demo-password on host /);
      else expect(await verifyAccountPassword(store.db, DEMO_EMAIL, password), banners[index]).toBeDefined();
    }
  }, 120_000);

  it('a replica with an empty data folder starts on the seeded database and says where the password is', async () => {
    const c = await startReplica();
    const banner = await c.banner;
    expect(banner).toMatch(/Siteline listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(banner).toMatch(/demo account  demo@siteline\.example: created by another instance; its password is in \S+demo-password on host \S+/);
    expect(banner).toMatch(/demo API key  sl_/);
    expect(c.child.exitCode).toBeNull();
  }, 120_000);
});
