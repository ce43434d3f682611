// `npm start` runs with Node's compile cache in a folder of the install; the service writes it as soon as it serves,
// so a process stopped hard still leaves the next start without the type stripper to load.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'siteline-compile-cache-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Files in the cache folder (Node keeps one subfolder per Node version and flags). */
async function cachedFiles(cacheDir: string): Promise<number> {
  const folders = await readdir(cacheDir).catch(() => []);
  const counts = await Promise.all(folders.map((folder) => readdir(join(cacheDir, folder)).then((files) => files.length)));
  return counts.reduce((sum, count) => sum + count, 0);
}

describe('the compile cache of a started service', () => {
  it('is on disk while the service serves, before any exit', async () => {
    const cacheDir = join(dir, 'cache');
    const env = {
      PATH: process.env.PATH ?? '',
      NODE_COMPILE_CACHE: cacheDir,
      DATA_DIR: join(dir, 'data'),
      SITELINE_SANDBOX: 'off',
      PORT: '0',
      LOG_LEVEL: 'silent',
      SITELINE_SECRET_KEY: randomBytes(32).toString('base64'),
    };
    const child = spawn(process.execPath, ['src/main.ts'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await new Promise<void>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (/http:\/\/\S+:\d+/.test(out)) resolve();
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code} before serving:\n${out}`)));
      });
      // Flushed right after start: count the files before the process gets any chance to exit.
      await expect.poll(() => cachedFiles(cacheDir), { timeout: 10_000 }).toBeGreaterThan(100);
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
  });
});
