// Starts benchmark servers as child processes (so the load generator and a server never share one event loop)
// and measures routes on them with autocannon: bench/bench-server.ts (Siteline) and bench/bare-server.ts (the
// yardstick). With BENCH_PROFILE_DIR set, the Siteline server runs under `--cpu-prof` and writes its profile there.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import autocannon from 'autocannon';

export interface BenchServer {
  url: string;
  key: string;
  /** The next key of the server's pool, for one measured round (each key has its own per-minute limit). */
  roundKey(): string;
  stop(): Promise<void>;
}

async function startChild(script: string, args: string[], env: NodeJS.ProcessEnv, execArgv: string[] = []): Promise<BenchServer> {
  const child: ChildProcess = spawn(process.execPath, [...execArgv, join(import.meta.dirname, script), ...args], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  const line = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  const { url, key, keys = [key] } = JSON.parse(line) as { url: string; key: string; keys?: string[] };
  let round = 0;
  return {
    url: url.replace(/\/+$/, ''),
    key,
    roundKey: () => keys[round++ % keys.length]!,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Siteline over the in-process sandbox (or SANDBOX_URL). `profileDir`: run it under `--cpu-prof`. */
export function startBenchServer(env: NodeJS.ProcessEnv = {}, profileDir?: string): Promise<BenchServer> {
  // BENCH_SERVER_NODE_ARGS: extra node flags for the Siteline process (e.g. V8 heap sizing), space-separated.
  const extra = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const execArgv = [...extra, ...(profileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profileDir}`])];
  return startChild('bench-server.ts', [], env, execArgv);
}

/** The yardstick: a bare h3 server in its own process answering `bodies` ({path: JSON body}). `profileDir`: under `--cpu-prof`. */
export async function startBareServer(bodies: Record<string, unknown>, profileDir?: string): Promise<BenchServer> {
  const file = join(await mkdtemp(join(tmpdir(), 'siteline-bare-')), 'bodies.json');
  await writeFile(file, JSON.stringify(bodies));
  return startChild('bare-server.ts', [file], {}, profileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]);
}

/** The JSON body `path` answers on `server` once warm (what the bare server must answer to be comparable). */
export async function warmBodyOf(server: BenchServer, path: string): Promise<unknown> {
  const headers = { authorization: `Bearer ${server.key}` };
  await fetch(server.url + path, { headers }).then((r) => r.arrayBuffer());
  const res = await fetch(server.url + path, { headers });
  if (!res.ok) throw new Error(`${path} answered ${res.status}`);
  return res.json();
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Requests answered in the measured window. */
  total: number;
}

export interface LoadTarget {
  path: string;
  method?: string;
  body?: string;
  headers?: Record<string, string>;
}

/** Warm throughput: `connections` keep-alive clients for `seconds`, after one warm-up request. */
export async function measureLoad(server: BenchServer, target: LoadTarget, seconds = 5, connections = 10): Promise<LoadResult> {
  const key = server.roundKey();
  const headers = { ...(key ? { authorization: `Bearer ${key}` } : {}), ...target.headers };
  const method = target.method ?? 'GET';
  const warm = await fetch(server.url + target.path, { method, headers, body: target.body });
  if (!warm.ok) throw new Error(`warm-up of ${target.path} answered ${warm.status}: ${await warm.text()}`);
  const result = await autocannon({ url: server.url + target.path, connections, duration: seconds, method, headers, body: target.body });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx, total: result.requests.total };
}

export interface Side {
  server: BenchServer;
  target: LoadTarget;
}

export interface Comparison {
  baseline: LoadResult;
  subject: LoadResult;
  /** Median of the per-round subject/baseline throughput ratios. */
  ratio: number;
  connections: number;
  /** 1-minute load average before and after: how busy the shared machine was while measuring. */
  load: [number, number];
}

/** Alternating rounds per comparison and their length; more, shorter rounds steady the median on a noisy machine. */
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
export const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 3);

/**
 * Seconds of load each route gets before any measurement. A process's first seconds under load run code V8 has not
 * optimised yet (Siteline's first 5 s round measured 37 µs of CPU per warm summary, the next rounds 29–32), and a
 * long-running server is past that; the bare yardstick, with far less code, gets there sooner.
 */
export const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);

/** Loads every side for WARMUP_SECONDS at 50 connections, one after the other. */
export async function warmUp(sides: readonly Side[], seconds = WARMUP_SECONDS): Promise<void> {
  for (const side of sides) await measureLoad(side.server, side.target, seconds, 50);
}

/**
 * Throughput of `subject` relative to `baseline` (usually the bare server): both warmed up, then measured in
 * alternating rounds so drift on a shared machine hits both alike; medians per side and of the per-round ratios.
 */
export async function compareLoad(baseline: Side, subject: Side, connections = 10, rounds = ROUNDS, seconds = ROUND_SECONDS): Promise<Comparison> {
  const loadBefore = loadavg()[0]!;
  await measureLoad(baseline.server, baseline.target, 1, connections);
  await measureLoad(subject.server, subject.target, 1, connections);
  const a: LoadResult[] = [];
  const b: LoadResult[] = [];
  for (let i = 0; i < rounds; i++) {
    a.push(await measureLoad(baseline.server, baseline.target, seconds, connections));
    b.push(await measureLoad(subject.server, subject.target, seconds, connections));
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  const pick = (rs: LoadResult[]) => rs.find((r) => r.rps === median(rs.map((x) => x.rps)))!;
  return { baseline: pick(a), subject: pick(b), ratio: median(b.map((r, i) => r.rps / a[i]!.rps)), connections, load: [loadBefore, loadavg()[0]!] };
}

/** "load 12.3→13.1": the machine's 1-minute load average around a measurement. */
export function loadNote(load: [number, number]): string {
  return `load ${load[0].toFixed(1)}→${load[1].toFixed(1)}`;
}

/** Latency of single cold requests (each path must miss the cache), in ms. */
export async function measureCold(server: BenchServer, paths: string[]): Promise<number[]> {
  const samples: number[] = [];
  for (const path of paths) {
    const started = performance.now();
    const res = await fetch(server.url + path, { headers: { authorization: `Bearer ${server.key}` } });
    const body = (await res.json()) as { meta?: { cache?: string } };
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(body)}`);
    if (body.meta?.cache !== 'miss') throw new Error(`${path} was not a cold request (meta.cache=${body.meta?.cache})`);
    samples.push(performance.now() - started);
  }
  return samples;
}
