// REST data path (issue 4): warm summary throughput and latency against a bare h3 JSON route of the same
// process, and cold latency of the summary and sp=all search routes against the slowest upstream involved.
import { addDays } from '../../src/domain/calendar.ts';
import { BENCH_LATENCY } from '../bench-latency.ts';
import { compareLoad, measureCold, startBenchServer } from '../bench-process.ts';
import { percentile, type Measurement, type SuiteResult } from '../suite.ts';

const SUMMARY = '/api/v1/metrics/acme-shop/summary?period=28days';

/** Distinct custom periods, so every request misses the cache. */
function coldPaths(route: string, count: number): string[] {
  const end = addDays(new Date().toISOString().slice(0, 10), -3);
  return Array.from({ length: count }, (_, i) => `${route}period=custom_${addDays(end, -20 - i)}_${end}`);
}

export default async function restSuite(): Promise<SuiteResult> {
  const server = await startBenchServer();
  const measurements: Measurement[] = [];
  try {
    const { baseline, subject, ratio } = await compareLoad(server, { path: '/__bench/bare-summary' }, { path: SUMMARY });
    const tiny = await compareLoad(server, { path: '/__bench/bare' }, { path: SUMMARY }, 1);
    measurements.push(
      { name: 'bare h3 JSON route (same body as the summary)', value: Math.round(baseline.rps), unit: 'req/s', notes: `p50 ${baseline.p50} ms, p99 ${baseline.p99} ms` },
      { name: 'warm summary route', value: Math.round(subject.rps), unit: 'req/s', notes: `p50 ${subject.p50} ms, p99 ${subject.p99} ms, errors ${subject.errors}` },
      { name: 'warm summary / bare throughput', value: ratio, unit: '×', target: { op: '>=', value: 0.8 } },
      { name: 'warm summary p50 latency', value: subject.p50, unit: 'ms' },
      { name: 'warm summary p99 latency', value: subject.p99, unit: 'ms' },
      { name: 'bare h3 route with a 50-byte body', value: Math.round(tiny.baseline.rps), unit: 'req/s', notes: `warm summary / this: ${tiny.ratio.toFixed(3)}× (the load generator, on the other core, spends more per larger response)` },
    );

    const coldSummary = await measureCold(server, coldPaths('/api/v1/metrics/acme-shop/summary?compare=previous&', 7));
    measurements.push({
      name: 'cold summary p50 / analytics latency',
      value: percentile(coldSummary, 50) / BENCH_LATENCY.analytics,
      unit: '×',
      target: { op: '<=', value: 1.15 },
      notes: `p50 ${percentile(coldSummary, 50).toFixed(1)} ms over ${coldSummary.length} requests; upstream ${BENCH_LATENCY.analytics} ms`,
    });

    const probe = await fetch(`${server.url}/api/v1/metrics/acme-shop/search/summary?period=7days`, { headers: { authorization: `Bearer ${server.key}` } });
    if (probe.status !== 404) {
      const slowest = Math.max(BENCH_LATENCY.engine1, BENCH_LATENCY.engine2);
      const coldSearch = await measureCold(server, coldPaths('/api/v1/metrics/northwind-journal/search/summary?sp=all&', 5));
      measurements.push({
        name: 'cold sp=all search summary p50 / slowest upstream',
        value: percentile(coldSearch, 50) / slowest,
        unit: '×',
        target: { op: '<=', value: 1.15 },
        notes: `p50 ${percentile(coldSearch, 50).toFixed(1)} ms; engine1 ${BENCH_LATENCY.engine1} ms, engine2 ${BENCH_LATENCY.engine2} ms (engine2 history is fetched once per site and TTL, so later cold periods may only wait for engine1)`,
      });
    }
  } finally {
    await server.stop();
  }
  return {
    suite: 'rest',
    description: `REST data path over loopback HTTP; sandbox upstream latency analytics ${BENCH_LATENCY.analytics} ms, engine1 ${BENCH_LATENCY.engine1} ms, engine2 ${BENCH_LATENCY.engine2} ms. Server (with the in-process sandbox) in its own process; autocannon with 10 connections; both routes warmed up, then measured in 3 alternating rounds of 3 s (medians). The yardstick is a bare h3 route of the same process answering the same JSON body as the summary, so the ratio is Siteline's per-request work (auth, rate limit, micro-cache) against serialising and sending that body.`,
    measurements,
  };
}
