// `npm run bench -- --profile`: the Siteline server runs under `node --cpu-prof` while autocannon sends it the warm
// summary load (50 connections); the profile is kept in bench/results/profiles/ and summarised per request.
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { summariseProfile } from '../cpu-profile.ts';
import { measureLoad, startBenchServer } from '../bench-process.ts';
import type { Measurement, SuiteResult } from '../suite.ts';
import { SUMMARY } from './rest.ts';

const SECONDS = 8;
const CONNECTIONS = 50;

export default async function profileSuite(): Promise<SuiteResult | undefined> {
  if (process.env.BENCH_PROFILE !== '1') return undefined;
  const dir = join(import.meta.dirname, '..', 'results', 'profiles', new Date().toISOString().replace(/[:.]/g, '-'));
  await mkdir(dir, { recursive: true });
  const server = await startBenchServer({}, dir);
  let requests = 0;
  let from = 0;
  try {
    await measureLoad(server, { path: SUMMARY }, 2, CONNECTIONS);
    // Profile sample times are CLOCK_MONOTONIC µs, the clock of process.hrtime in every process on the machine:
    // only the measured window counts (no start-up, no warm-up).
    from = Number(process.hrtime.bigint() / 1000n);
    const result = await measureLoad(server, { path: SUMMARY }, SECONDS, CONNECTIONS);
    requests = result.total;
  } finally {
    await server.stop();
  }
  const file = join(dir, (await readdir(dir)).find((f) => f.endsWith('.cpuprofile'))!);
  const rows = await summariseProfile(file, from, requests);
  const measurements: Measurement[] = rows.map((row) => ({ name: row.category, value: row.usPerRequest, unit: 'µs/request', notes: `${(row.share * 100).toFixed(1)} % of busy CPU` }));
  measurements.push({ name: 'requests in the profiled window', value: requests, unit: 'requests' });
  return {
    suite: 'profile',
    description: `Where the CPU time of a warm summary request goes: server under \`--cpu-prof\`, ${CONNECTIONS} connections, ${SECONDS} s after a 2 s warm-up. Profile: ${file.slice(file.indexOf('bench/'))} (open it in Chrome DevTools → Performance). Idle time is left out; each sample is charged to the innermost frame with a category.`,
    measurements,
  };
}
