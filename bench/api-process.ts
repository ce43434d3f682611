// The API process as deployed, for the suites that measure it alone: `node src/main.ts` with the deployed node flags
// and environment, SANDBOX_URL pointing at `siteline sandbox` in a process of its own, and a key created through
// the CLI as an operator would. Used by the memory and insights suites.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { DEMO_EMAIL } from '../src/demo/seed-demo.ts';

export const ROOT = join(import.meta.dirname, '..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

export function start(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ...env } });
}

export async function waitFor(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode}`);
    const ok = await fetch(url).then((r) => r.status < 500, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within 60 s`);
}

export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** A key of the demo account whose own limit does not cap the load (through the CLI, as an operator would). */
export async function createKey(dataDir: string): Promise<string> {
  const cli = spawn(process.execPath, ['src/cli/main.ts', 'keys', 'create', '--account', DEMO_EMAIL, '--rate-limit', '1000000', '--json'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, DATA_DIR: dataDir } });
  let out = '';
  cli.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => cli.once('exit', resolve));
  if (code !== 0) throw new Error(`siteline keys create exited with ${code}`);
  return (JSON.parse(out) as { key: string }).key;
}

/** The deployed command, `npm start` (the image runs the same, test/deployment checks it): its environment and node flags. */
export const DEPLOYED_START = (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
export const DEPLOYED_ENV = Object.fromEntries(
  DEPLOYED_START.split(' ')
    .filter((word) => /^[A-Z_]+=/.test(word))
    .map((word) => word.split('=', 2) as [string, string]),
);
export const DEPLOYED_NODE_ARGS = DEPLOYED_START.split(' ').filter((word) => word.startsWith('--'));

export interface ApiProcess {
  url: string;
  key: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * `siteline sandbox` on a free port (the analytics quota opened up, so repeated runs are not throttled), then the
 * API process over it in `dataDir`, answering; the demo key's account gets a key of its own.
 */
export async function startApiProcess(dataDir: string, nodeArgs: string[] = DEPLOYED_NODE_ARGS, env: NodeJS.ProcessEnv = {}): Promise<ApiProcess> {
  const [sandboxPort, apiPort] = await Promise.all([freePort(), freePort()]);
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  const sandbox = start(['src/cli/main.ts', 'sandbox', '--port', String(sandboxPort), '--credentials-dir', join(dataDir, 'sandbox-credentials')], {});
  let api: ChildProcess | undefined;
  try {
    await waitFor(`${sandboxUrl}/__sandbox/stats`, sandbox);
    const quota = { analyticsQuota: { tokensPerDay: 1e9, tokensPerHour: 1e9, tokensPerProjectPerHour: 1e9, concurrentRequests: 1000 } };
    await fetch(`${sandboxUrl}/__sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(quota) });
    api = start([...nodeArgs, 'src/main.ts'], { ...DEPLOYED_ENV, DATA_DIR: dataDir, SANDBOX_URL: sandboxUrl, PORT: String(apiPort), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env });
    const url = `http://127.0.0.1:${apiPort}`;
    await waitFor(`${url}/healthz`, api);
    const key = await createKey(dataDir);
    const running = api;
    return { url, key, pid: running.pid!, stop: async () => void (await Promise.all([stop(running), stop(sandbox)])) };
  } catch (error) {
    if (api) await stop(api);
    await stop(sandbox);
    throw error;
  }
}
