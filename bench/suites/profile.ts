// `npm run bench -- --profile`: Siteline and the yardstick run under `node --cpu-prof` while autocannon sends each
// one route in turn (50 connections); the profiles are kept in bench/results/profiles/ and summarised per request. Siteline and the bare h3
// yardstick are profiled alike on the same bodies (warm summary, /healthz), so the report shows per category what a
// Siteline request costs beyond the yardstick's.
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { summariseProfile, type ProfileRow, type ProfileWindow } from '../cpu-profile.ts';
import { measureLoad, startBareServer, startBenchServer, warmBodyOf, WARMUP_SECONDS, type BenchServer } from '../bench-process.ts';
import type { Measurement, SuiteResult } from '../suite.ts';
import { SUMMARY } from './rest.ts';

const CONNECTIONS = 50;
/** Alternating rounds per side (8 s each in all): a machine whose speed drifts over a minute drifts for both alike. */
const ROUNDS = 4;
const ROUND_SECONDS = 2;

interface Profiled {
  rows: ProfileRow[];
  requests: number;
  file: string;
}

interface ProfileTarget {
  start: (dir: string) => Promise<BenchServer>;
  path: string;
  dir: string;
}

interface ProfiledSide extends ProfileTarget {
  server: BenchServer;
  windows: ProfileWindow[];
  requests: number;
}

/**
 * Profiles Siteline and the yardstick on one route, both running (under --cpu-prof into their folders) at once and
 * loaded in turn: WARMUP_SECONDS of warm-up each, then ROUNDS alternating windows; only the windows count (no start-up, no
 * warm-up, no time spent waiting while the other side is measured).
 */
async function profilePair(siteline: ProfileTarget, bare: ProfileTarget): Promise<[Profiled, Profiled]> {
  const started: ProfiledSide[] = [];
  try {
    for (const target of [siteline, bare]) {
      await mkdir(target.dir, { recursive: true });
      started.push({ ...target, server: await target.start(target.dir), windows: [], requests: 0 });
    }
    for (const side of started) await measureLoad(side.server, { path: side.path }, WARMUP_SECONDS, CONNECTIONS);
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of started) {
        const from = nowUs();
        side.requests += (await measureLoad(side.server, { path: side.path }, ROUND_SECONDS, CONNECTIONS)).total;
        side.windows.push({ from, to: nowUs() });
      }
    }
  } finally {
    await Promise.all(started.map((side) => side.server.stop()));
  }
  const [sitelineProfile, bareProfile] = await Promise.all(started.map(summarise));
  return [sitelineProfile!, bareProfile!];
}

function nowUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

async function summarise(side: ProfiledSide): Promise<Profiled> {
  const file = join(side.dir, (await readdir(side.dir)).find((f) => f.endsWith('.cpuprofile'))!);
  return { rows: await summariseProfile(file, side.windows, side.requests), requests: side.requests, file: file.slice(file.indexOf('bench/')) };
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
    const [siteline, bare] = await profilePair(
      { start: (dir) => startBenchServer({}, dir), path, dir: join(root, `siteline-${slug}`) },
      { start: (dir) => startBareServer(bodies, dir), path: barePath, dir: join(root, `bare-${slug}`) },
    );
    measurements.push(...compareRows(route, siteline, bare));
  }
  return {
    suite: 'profile',
    description: `Where the CPU time of a request goes, Siteline against the bare h3 yardstick answering the same body: both servers under \`--cpu-prof\` at once, loaded in turn (${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${ROUND_SECONDS} s each after a ${WARMUP_SECONDS} s warm-up; only those windows count) (profiles in bench/results/profiles/; open them in Chrome DevTools → Performance). Idle time is left out; each sample is charged to the innermost frame with a category.`,
    measurements,
  };
}
