// `npm run bench -- --profile`: a server runs under `node --cpu-prof` while autocannon sends it one route (50
// connections); the profiles are kept in bench/results/profiles/ and summarised per request. Siteline and the bare h3
// yardstick are profiled alike on the same bodies (warm summary, /healthz), so the report shows per category what a
// Siteline request costs beyond the yardstick's.
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { summariseProfile, type ProfileRow } from '../cpu-profile.ts';
import { measureLoad, startBareServer, startBenchServer, warmBodyOf, type BenchServer } from '../bench-process.ts';
import type { Measurement, SuiteResult } from '../suite.ts';
import { SUMMARY } from './rest.ts';

const SECONDS = 8;
const CONNECTIONS = 50;

interface Profiled {
  rows: ProfileRow[];
  requests: number;
  file: string;
}

/** Profiles `path` on a server started (under --cpu-prof into `dir`) by `start`: 2 s warm-up, then the window. */
async function profileRoute(start: (dir: string) => Promise<BenchServer>, path: string, dir: string): Promise<Profiled> {
  await mkdir(dir, { recursive: true });
  const server = await start(dir);
  let requests = 0;
  let from = 0;
  try {
    await measureLoad(server, { path }, 2, CONNECTIONS);
    // Profile sample times are CLOCK_MONOTONIC µs, the clock of process.hrtime in every process on the machine:
    // only the measured window counts (no start-up, no warm-up).
    from = Number(process.hrtime.bigint() / 1000n);
    requests = (await measureLoad(server, { path }, SECONDS, CONNECTIONS)).total;
  } finally {
    await server.stop();
  }
  const file = join(dir, (await readdir(dir)).find((f) => f.endsWith('.cpuprofile'))!);
  return { rows: await summariseProfile(file, from, requests), requests, file: file.slice(file.indexOf('bench/')) };
}

/** One row per category: Siteline's µs per request, the yardstick's in the notes. */
function compareRows(route: string, siteline: Profiled, bare: Profiled): Measurement[] {
  const bareOf = new Map(bare.rows.map((row) => [row.category, row.usPerRequest]));
  const total = (p: Profiled) => p.rows.reduce((sum, row) => sum + row.usPerRequest, 0);
  const rows: Measurement[] = siteline.rows.map((row) => ({
    name: `${route}: ${row.category}`,
    value: row.usPerRequest,
    unit: 'µs/request',
    notes: `${(row.share * 100).toFixed(1)} % of busy CPU; bare h3: ${(bareOf.get(row.category) ?? 0).toFixed(2)} µs`,
  }));
  rows.push({
    name: `${route}: busy CPU per request`,
    value: total(siteline),
    unit: 'µs/request',
    notes: `bare h3: ${total(bare).toFixed(1)} µs (ratio ${(total(bare) / total(siteline)).toFixed(2)}); ${siteline.requests} and ${bare.requests} requests profiled; ${siteline.file}, ${bare.file}`,
  });
  return rows;
}

export default async function profileSuite(): Promise<SuiteResult | undefined> {
  if (process.env.BENCH_PROFILE !== '1') return undefined;
  const root = join(import.meta.dirname, '..', 'results', 'profiles', new Date().toISOString().replace(/[:.]/g, '-'));
  const probe = await startBenchServer();
  const summaryBody = await warmBodyOf(probe, SUMMARY).finally(() => probe.stop());
  const bodies = { '/summary': summaryBody, '/healthz': { status: 'ok' } };
  const measurements: Measurement[] = [];
  for (const [route, path, barePath] of [['warm summary', SUMMARY, '/summary'], ['/healthz', '/healthz', '/healthz']] as const) {
    const slug = barePath.slice(1);
    const siteline = await profileRoute((dir) => startBenchServer({}, dir), path, join(root, `siteline-${slug}`));
    const bare = await profileRoute((dir) => startBareServer(bodies, dir), barePath, join(root, `bare-${slug}`));
    measurements.push(...compareRows(route, siteline, bare));
  }
  return {
    suite: 'profile',
    description: `Where the CPU time of a request goes, Siteline against the bare h3 yardstick answering the same body: each server alone under \`--cpu-prof\`, ${CONNECTIONS} connections, ${SECONDS} s after a 2 s warm-up (profiles in bench/results/profiles/; open them in Chrome DevTools → Performance). Idle time is left out; each sample is charged to the innermost frame with a category.`,
    measurements,
  };
}
