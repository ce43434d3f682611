// The chaos drills' own servers, on free loopback ports in a temp folder: PostgreSQL (the machine's initdb and
// pg_ctl, run as an unprivileged user when we are root, because PostgreSQL refuses to run as root), Redis, the
// provider sandbox and Siteline replicas as child processes. Nothing here touches a shared server.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 30_000, intervalMs = 50): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check().catch(() => false)) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** The newest PostgreSQL installed under /usr/lib/postgresql, or PG_BIN. */
export function postgresBin(): string | undefined {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'pg_ctl'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

export interface PostgresServer {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  dispose(): Promise<void>;
}

export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql (set PG_BIN)');
  const root = process.getuid?.() === 0;
  const user = process.env.CHAOS_PG_USER ?? 'nobody';
  // As root, under /tmp: the unprivileged user must be able to reach the folder (a TMPDIR under /root is not).
  const dir = mkdtempSync(join(root ? '/tmp' : tmpdir(), 'siteline-chaos-pg-'));
  if (root) {
    const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const as = (command: string, args: string[]) => (root ? execFileSync('runuser', ['-u', user, '--', command, ...args], { stdio: 'pipe' }) : execFileSync(command, args, { stdio: 'pipe' }));
  const data = join(dir, 'data');
  const port = await freePort();
  as(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=60`;
  const start = async () => {
    as(join(bin, 'pg_ctl'), ['start', '-w', '-t', '30', '-D', data, '-l', join(dir, 'log'), '-o', options]);
  };
  const stop = async () => {
    as(join(bin, 'pg_ctl'), ['stop', '-w', '-m', 'fast', '-D', data]);
  };
  await start();
  const admin = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
  await admin.connect();
  await admin.query('create database siteline');
  await admin.end();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/siteline`,
    stop,
    start,
    async dispose() {
      await stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface RedisServer {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  dispose(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await waitUntil('redis', async () => {
      const { Redis } = await import('ioredis');
      const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on('error', () => undefined); // not up yet: waitUntil asks again
      try {
        await probe.connect();
        return (await probe.ping()) === 'PONG';
      } finally {
        probe.disconnect();
      }
    });
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running) return;
    running.kill('SIGKILL');
    await exited(running);
  };
  await start();
  return { url: `redis://127.0.0.1:${port}/0`, stop, start, dispose: stop };
}

export interface NodeProcess {
  name: string;
  url: string;
  child: ChildProcess;
  /** Exit code or signal once the process ended. */
  ended?: string;
  output(): string;
}

/** A long-running node child whose end is recorded (an unplanned one fails the drills). */
export function spawnNode(name: string, args: string[], env: Record<string, string>, url: string): NodeProcess {
  const child = spawn(process.execPath, args, { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(chunk.toString());
    if (lines.length > 400) lines.splice(0, lines.length - 400);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const proc: NodeProcess = { name, url, child, output: () => lines.join('') };
  child.once('exit', (code, signal) => (proc.ended = signal ?? `exit ${code}`));
  return proc;
}

export async function stopProcess(proc: NodeProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  proc.child.kill(signal);
  await exited(proc.child);
}

export function readDemoKey(dataDir: string): string {
  return readFileSync(join(dataDir, 'demo-api-key'), 'utf8').trim();
}
