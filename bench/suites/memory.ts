// Memory of the API process alone: the sandbox runs in a process of its own (SANDBOX_URL), the API is `node
// src/main.ts` as deployed. RSS idle after start, then after 10,000 distinct reports went through its caches.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { addDays } from '../../src/domain/calendar.ts';
import { DEPLOYED_ENV, DEPLOYED_NODE_ARGS, DEPLOYED_START, ROOT, startApiProcess, type ApiProcess } from '../api-process.ts';
import type { Measurement, SuiteResult } from '../suite.ts';

const REPORTS = 10_000;
const CONCURRENCY = 16;
const MIB = 1024 * 1024;
/** How long the process rests before RSS is read, idle and after the reports. */
const REST_MS = 20_000;

async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

/** 10,000 distinct custom periods (start and length vary), each its own report. */
function reportPaths(): string[] {
  const end = addDays(new Date().toISOString().slice(0, 10), -3);
  const paths: string[] = [];
  for (let back = 0; paths.length < REPORTS; back++) {
    for (let length = 1; length <= 50 && paths.length < REPORTS; length++) {
      const last = addDays(end, -back);
      paths.push(`/api/v1/metrics/acme-shop/summary?period=custom_${addDays(last, -length)}_${last}`);
    }
  }
  return paths;
}

/**
 * The deployed command as is (its young generation is 4 MiB per semi-space instead of up to 32), then with the old
 * generation capped too, as an operator can for a small container (V8 then collects before growing the heap far
 * past what is live).
 */
const VARIANTS: { label: string; nodeArgs: string[] }[] = [
  { label: '', nodeArgs: DEPLOYED_NODE_ARGS },
  { label: ' (NODE_OPTIONS=--max-old-space-size=384)', nodeArgs: [...DEPLOYED_NODE_ARGS, '--max-old-space-size=384'] },
];

/**
 * The deployed command keeps Node's compile cache in a folder of the install: the first start of an install fills it
 * (and loads the type stripper), every later one reads it. Measured once from an empty folder, which also fills it
 * for the measurements that follow, so they are what every restart is.
 */
async function measureFirstStart(): Promise<Measurement[]> {
  const cacheDir = DEPLOYED_ENV.NODE_COMPILE_CACHE;
  if (cacheDir === undefined) return [];
  await rm(join(ROOT, cacheDir), { recursive: true, force: true });
  const [idle] = await measureApiProcess(', first start of an install (compile cache empty)', DEPLOYED_NODE_ARGS, { idleOnly: true });
  return [{ ...idle!, target: undefined, notes: `${idle!.notes}; later starts read the cache the first one wrote` }];
}

export default async function memorySuite(): Promise<SuiteResult> {
  const measurements: Measurement[] = await measureFirstStart();
  for (const variant of VARIANTS) measurements.push(...(await measureApiProcess(variant.label, variant.nodeArgs)));
  return {
    suite: 'memory',
    description: `The API process alone (\`${DEPLOYED_START}\` as \`npm start\` runs it, with SANDBOX_URL; the sandbox in its own process), default cache bounds, demo data; as deployed, then with the old generation capped as for a small container. Reports are cold summaries over distinct custom periods, ${CONCURRENCY} at a time; RSS read from /proc.`,
    measurements,
  };
}

async function measureApiProcess(label: string, nodeArgs: string[], options: { idleOnly?: boolean } = {}): Promise<Measurement[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'siteline-bench-memory-'));
  const api: ApiProcess = await startApiProcess(dataDir, nodeArgs);
  const { url: apiUrl, key } = api;
  const measurements: Measurement[] = [];
  try {
    // Idle: started, demo seeded, one request served, then at rest.
    await fetch(`${apiUrl}/api/v1/projects/list`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.arrayBuffer());
    await new Promise((resolve) => setTimeout(resolve, REST_MS));
    const idle = await rssOf(api.pid);
    measurements.push({ name: `API process RSS, idle${label}`, value: idle / MIB, unit: 'MiB', target: { op: '<=', value: 120 }, notes: `${REST_MS / 1000} s after one request; load ${loadavg()[0]!.toFixed(1)}` });
    if (options.idleOnly) return measurements;

    const paths = reportPaths();
    let next = 0;
    let failed = 0;
    let limited = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < paths.length) {
          const res = await fetch(apiUrl + paths[next++]!, { headers: { authorization: `Bearer ${key}` } });
          await res.arrayBuffer();
          if (res.status === 429) limited++;
          else if (!res.ok) failed++;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const right = await rssOf(api.pid);
    // At rest: the idle heap trim (src/observability/idle-heap-trim.ts) runs after 2–4 s without requests, and
    // V8's memory reducer, which sees a low allocation rate from then on, about 10 s later.
    await new Promise((resolve) => setTimeout(resolve, REST_MS));
    const after = await rssOf(api.pid);
    measurements.push({
      name: `API process RSS after ${REPORTS} distinct cached reports${label}`,
      value: after / MIB,
      unit: 'MiB',
      target: { op: '<=', value: 250 },
      notes: `${REST_MS / 1000} s after the last answer (${(right / MIB).toFixed(1)} MiB at once); ${seconds.toFixed(0)} s, ${failed} failed, ${limited} rate-limited; load ${loadavg()[0]!.toFixed(1)}`,
    });
  } finally {
    await api.stop();
  }
  return measurements;
}
