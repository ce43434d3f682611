// Starts bench/bench-server.ts as a child process (so the load generator and the server do not share one
// event loop) and measures routes on it with autocannon.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import autocannon from 'autocannon';

export interface BenchServer {
  url: string;
  key: string;
  stop(): Promise<void>;
}

export async function startBenchServer(env: NodeJS.ProcessEnv = {}): Promise<BenchServer> {
  const child: ChildProcess = spawn(process.execPath, [join(import.meta.dirname, 'bench-server.ts')], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  const line = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  const { url, key } = JSON.parse(line) as { url: string; key: string };
  return {
    url: url.replace(/\/+$/, ''),
    key,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** Warm throughput: `connections` keep-alive clients for `seconds`, after one warm-up request. */
export async function measureLoad(server: BenchServer, path: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}, seconds = 5, connections = 10): Promise<LoadResult> {
  const headers = { authorization: `Bearer ${server.key}`, ...init.headers };
  const warm = await fetch(server.url + path, { method: init.method ?? 'GET', headers, body: init.body });
  if (!warm.ok) throw new Error(`warm-up of ${path} answered ${warm.status}: ${await warm.text()}`);
  const result = await autocannon({ url: server.url + path, connections, duration: seconds, method: init.method ?? 'GET', headers, body: init.body });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

export interface LoadTarget {
  path: string;
  method?: string;
  body?: string;
  headers?: Record<string, string>;
}

/**
 * Throughput of `subject` relative to `baseline` on the same server: both warmed up, then measured in alternating
 * rounds so drift on a shared machine hits both alike; medians per route and the median of the per-round ratios.
 */
export async function compareLoad(server: BenchServer, baseline: LoadTarget, subject: LoadTarget, rounds = 3, seconds = 3): Promise<{ baseline: LoadResult; subject: LoadResult; ratio: number }> {
  await measureLoad(server, baseline.path, baseline, 2);
  await measureLoad(server, subject.path, subject, 2);
  const a: LoadResult[] = [];
  const b: LoadResult[] = [];
  for (let i = 0; i < rounds; i++) {
    a.push(await measureLoad(server, baseline.path, baseline, seconds));
    b.push(await measureLoad(server, subject.path, subject, seconds));
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  const pick = (rs: LoadResult[]) => rs.find((r) => r.rps === median(rs.map((x) => x.rps)))!;
  return { baseline: pick(a), subject: pick(b), ratio: median(b.map((r, i) => r.rps / a[i]!.rps)) };
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
