// REST data path: warm routes against a bare h3 server in its own process answering the same body (10 and 50
// connections, alternating rounds), and cold latency of the summary and sp=all search routes against the slowest
// upstream involved.
import { cpus } from 'node:os';
import { addDays } from '../../src/domain/calendar.ts';
import { BENCH_LATENCY } from '../bench-latency.ts';
import { compareLoad, loadNote, measureCold, ROUND_SECONDS, ROUNDS, startBareServer, startBenchServer, warmBodyOf, warmUp, WARMUP_SECONDS, type BenchServer } from '../bench-process.ts';
import { percentile, type Measurement, type SuiteResult } from '../suite.ts';

export const SUMMARY = '/api/v1/metrics/acme-shop/summary?period=28days';
const PROJECTS = '/api/v1/projects/list';

/** Distinct custom periods, so every request misses the cache. */
function coldPaths(route: string, count: number): string[] {
  const end = addDays(new Date().toISOString().slice(0, 10), -3);
  return Array.from({ length: count }, (_, i) => `${route}period=custom_${addDays(end, -20 - i)}_${end}`);
}

/** Route on Siteline, path of the same body on the bare server, target ratio. */
const WARM: [string, string, string, number][] = [
  ['warm summary', SUMMARY, '/summary', 0.8],
  ['/healthz', '/healthz', '/healthz', 0.9],
  ['projects list', PROJECTS, '/projects', 0.6],
];
/** The routes also compared with the yardstick sending the contract's header fields (informative). */
const WITH_HEADERS = WARM.filter(([, , barePath]) => barePath !== '/projects');

export default async function restSuite(): Promise<SuiteResult> {
  const server = await startBenchServer();
  let bare: BenchServer | undefined;
  const measurements: Measurement[] = [];
  try {
    bare = await startBareServer({ '/summary': await warmBodyOf(server, SUMMARY), '/projects': await warmBodyOf(server, PROJECTS), '/healthz': { status: 'ok' } });
    await warmUp([
      ...WARM.flatMap(([, path, barePath]) => [{ server, target: { path } }, { server: bare!, target: { path: barePath } }]),
      ...WITH_HEADERS.map(([, , barePath]) => ({ server: bare!, target: { path: `${barePath}/with-headers` } })),
    ]);
    for (const connections of [10, 50]) {
      for (const [name, path, barePath] of WITH_HEADERS) {
        // Informative: the same yardstick sending the header fields the contract requires (request id, rate limit,
        // cache state) — what is left between the two is Siteline's own work per request.
        const c = await compareLoad({ server: bare, target: { path: `${barePath}/with-headers` } }, { server, target: { path } }, connections);
        measurements.push({
          name: `${name} / bare h3 with the contract's headers, ${connections} connections`,
          value: c.ratio,
          unit: '×',
          notes: `Siteline ${Math.round(c.subject.rps)} req/s, bare with headers ${Math.round(c.baseline.rps)} req/s; ${loadNote(c.load)}`,
        });
      }
      for (const [name, path, barePath, target] of WARM) {
        const c = await compareLoad({ server: bare, target: { path: barePath } }, { server, target: { path } }, connections);
        measurements.push({
          name: `${name} / bare h3, ${connections} connections`,
          value: c.ratio,
          unit: '×',
          target: { op: '>=', value: target },
          notes: `Siteline ${Math.round(c.subject.rps)} req/s (p50 ${c.subject.p50} ms, errors ${c.subject.errors}), bare ${Math.round(c.baseline.rps)} req/s; ${loadNote(c.load)}`,
        });
      }
    }

    const coldSummary = await measureCold(server, coldPaths('/api/v1/metrics/acme-shop/summary?compare=previous&', 7));
    measurements.push({
      name: 'cold summary with comparison p50 / analytics latency',
      value: percentile(coldSummary, 50) / BENCH_LATENCY.analytics,
      unit: '×',
      target: { op: '<=', value: 1.15 },
      notes: `p50 ${percentile(coldSummary, 50).toFixed(1)} ms over ${coldSummary.length} requests; upstream ${BENCH_LATENCY.analytics} ms`,
    });

    const slowest = Math.max(BENCH_LATENCY.engine1, BENCH_LATENCY.engine2);
    const coldSearch = await measureCold(server, coldPaths('/api/v1/metrics/northwind-journal/search/summary?sp=all&', 5));
    measurements.push({
      name: 'cold sp=all search summary p50 / slowest engine',
      value: percentile(coldSearch, 50) / slowest,
      unit: '×',
      target: { op: '<=', value: 1.15 },
      notes: `p50 ${percentile(coldSearch, 50).toFixed(1)} ms; engine1 ${BENCH_LATENCY.engine1} ms, engine2 ${BENCH_LATENCY.engine2} ms (engine2 history is fetched once per site and TTL, so later cold periods may only wait for engine1)`,
    });
  } finally {
    await Promise.all([server.stop(), bare?.stop()]);
  }
  return {
    suite: 'rest',
    description: `REST over loopback HTTP on ${cpus().length} cores shared with the load generator; sandbox upstream latency analytics ${BENCH_LATENCY.analytics} ms, engine1 ${BENCH_LATENCY.engine1} ms, engine2 ${BENCH_LATENCY.engine2} ms. Figures are ratios: each route against a bare h3 server in its own process answering the same JSON body, every route warmed up first (${WARMUP_SECONDS} s of load each), then measured in ${ROUNDS} alternating rounds of ${ROUND_SECONDS} s with autocannon (median of the per-round ratios); the 1-minute load average of the machine is noted next to each.`,
    measurements,
  };
}
