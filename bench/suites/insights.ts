// The heaviest insights on the largest demo site (acme-shop: about 26,000 search queries in 28 days), cold, in the
// API process as deployed (the sandbox in a process of its own, as a real provider would be), while a warm cheap
// read (the projects list) is sent every 10 ms whatever happens to the ones before: how long each insight takes
// cold, and how long the cheap reads wait while it runs — an insight that holds the event loop shows here.
import { mkdtemp } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { addDays } from '../../src/domain/calendar.ts';
import { startApiProcess, type ApiProcess } from '../api-process.ts';
import { percentile, type Measurement, type SuiteResult } from '../suite.ts';

const PROBE_PATH = '/api/v1/projects/list';
const PROBE_EVERY_MS = 10;
/** Cold runs per insight, each over its own 28-day range so no cache layer has it. */
const RUNS = Number(process.env.BENCH_INSIGHT_RUNS ?? 3);
/** Targets: a warm read's p99 while the insight runs, and the insight itself cold. */
const WARM_P99_MS = 100;
const COLD_MS = 10_000;

const HEAVY: { name: string; days: number; path: (period: string) => string }[] = [
  { name: 'explain_change clicks sp=all', days: 28, path: (period) => `/api/v1/metrics/acme-shop/insights/changes?metric=clicks&period=${period}&sp=all` },
  { name: 'explain_change ctr sp=all compare=year', days: 28, path: (period) => `/api/v1/metrics/acme-shop/insights/changes?metric=ctr&period=${period}&sp=all&compare=year` },
  { name: 'search opportunities sp=all', days: 28, path: (period) => `/api/v1/metrics/acme-shop/insights/search-opportunities?period=${period}&sp=all` },
  { name: 'anomalies clicks, 365 days', days: 365, path: (period) => `/api/v1/metrics/acme-shop/insights/anomalies?metric=clicks&period=${period}` },
];

export default async function insightsSuite(): Promise<SuiteResult> {
  const api = await startApiProcess(await mkdtemp(join(tmpdir(), 'siteline-bench-insights-')));
  const measurements: Measurement[] = [];
  try {
    const get = (path: string) => fetch(api.url + path, { headers: { authorization: `Bearer ${api.key}` } });
    for (let i = 0; i < 20; i++) await (await get(PROBE_PATH)).arrayBuffer();
    // The provider libraries load on first use: one small insight of each kind first, so no run pays for that.
    for (const heavy of HEAVY) await (await get(heavy.path(periodEndingDaysAgo(3, 7)).replace('acme-shop', 'tiny-saas'))).arrayBuffer();
    const idle = await probeWhile(api, () => new Promise((resolve) => setTimeout(resolve, 2_000)));
    measurements.push({ name: 'warm read at rest: p99', value: percentile(idle, 99), unit: 'ms', notes: `${PROBE_PATH} every ${PROBE_EVERY_MS} ms for 2 s; p50 ${percentile(idle, 50).toFixed(1)} ms, max ${Math.max(...idle).toFixed(1)} ms` });
    let offset = 0;
    for (const heavy of HEAVY) {
      const cold: number[] = [];
      const waits: number[] = [];
      const loadBefore = loadavg()[0]!;
      for (let run = 0; run < RUNS; run++) {
        const path = heavy.path(periodEndingDaysAgo(3 + offset++, heavy.days));
        waits.push(
          ...(await probeWhile(api, async () => {
            const started = performance.now();
            const res = await get(path);
            const body = (await res.json()) as { meta?: { cache?: string } };
            if (!res.ok) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(body)}`);
            if (body.meta?.cache !== 'miss') throw new Error(`${path} was not cold (meta.cache=${body.meta?.cache})`);
            cold.push(performance.now() - started);
          })),
        );
      }
      const load = `load ${loadBefore.toFixed(1)}→${loadavg()[0]!.toFixed(1)}`;
      measurements.push(
        { name: `${heavy.name}: cold`, value: median(cold), unit: 'ms', target: { op: '<=', value: COLD_MS }, notes: `median of ${RUNS} (${cold.map((ms) => ms.toFixed(0)).join(', ')} ms); ${load}` },
        {
          name: `${heavy.name}: warm read p99 meanwhile`,
          value: percentile(waits, 99),
          unit: 'ms',
          target: { op: '<=', value: WARM_P99_MS },
          notes: `${waits.length} reads; p50 ${percentile(waits, 50).toFixed(1)} ms, max ${Math.max(...waits).toFixed(1)} ms`,
        },
      );
    }
  } finally {
    await api.stop();
  }
  return {
    suite: 'insights',
    description: `acme-shop's heaviest insights, each cold ${RUNS} times (a custom range of its own per run) in the API process as deployed with the sandbox in its own process; meanwhile \`GET ${PROBE_PATH}\` (warm) is sent every ${PROBE_EVERY_MS} ms, each timed from when it was due.`,
    measurements,
  };
}

/**
 * Latencies (ms, from when each was due) of the cheap reads sent every PROBE_EVERY_MS while `work` runs. A read the
 * server could not even accept in time (the client gives up connecting after 10 s) counts with the time it waited.
 */
async function probeWhile(api: ApiProcess, work: () => Promise<unknown>): Promise<number[]> {
  const latencies: number[] = [];
  const inFlight: Promise<void>[] = [];
  const headers = { authorization: `Bearer ${api.key}` };
  const timer = setInterval(() => {
    const due = performance.now();
    inFlight.push(
      fetch(api.url + PROBE_PATH, { headers }).then(
        async (res) => {
          await res.arrayBuffer();
          if (!res.ok) throw new Error(`${PROBE_PATH} answered ${res.status}`);
          latencies.push(performance.now() - due);
        },
        () => void latencies.push(performance.now() - due),
      ),
    );
  }, PROBE_EVERY_MS);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  await Promise.all(inFlight);
  return latencies;
}

function periodEndingDaysAgo(days: number, length: number): string {
  const end = addDays(new Date().toISOString().slice(0, 10), -days);
  return `custom_${addDays(end, 1 - length)}_${end}`;
}

function median(values: number[]): number {
  return percentile(values, 50);
}
