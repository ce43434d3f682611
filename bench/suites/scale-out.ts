// Two instances sharing Redis (and a database): 500 concurrent identical cold requests spread over both make the
// upstream calls of one request, and a report one instance fetched is a cache hit on the other.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { addDays } from '../../src/domain/calendar.ts';
import { startBenchServer, type BenchServer } from '../bench-process.ts';
import type { Measurement, SuiteResult } from '../suite.ts';

const CONCURRENT = 500;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

async function upstreamCalls(servers: BenchServer[]): Promise<number> {
  const counts = await Promise.all(servers.map(async (s) => ((await (await fetch(`${s.url}/__bench/upstream-calls`)).json()) as { analytics: number }).analytics));
  return counts.reduce((a, b) => a + b, 0);
}

async function summary(server: BenchServer, period: string): Promise<{ status: number; cache?: string }> {
  const res = await fetch(`${server.url}/api/v1/metrics/acme-shop/summary?period=${period}`, { headers: { authorization: `Bearer ${server.key}` } });
  const body = (await res.json()) as { meta?: { cache?: string } };
  return { status: res.status, cache: body.meta?.cache };
}

/** A custom period no earlier request asked for (a cold report). */
function coldPeriod(offset: number): string {
  const end = addDays(new Date().toISOString().slice(0, 10), -3 - offset);
  return `custom_${addDays(end, -13)}_${end}`;
}

export default async function scaleOutSuite(): Promise<SuiteResult> {
  const env = { BENCH_DATA_DIR: await mkdtemp(join(tmpdir(), 'siteline-bench-scale-')), BENCH_SECRET_KEY: randomBytes(32).toString('base64'), BENCH_REDIS_URL: REDIS_URL, BENCH_REDIS_PREFIX: `siteline-bench:${randomUUID()}:` };
  const a = await startBenchServer(env);
  const servers: BenchServer[] = [a];
  const measurements: Measurement[] = [];
  try {
    servers.push(await startBenchServer(env));
    const [, b] = servers as [BenchServer, BenchServer];

    let before = await upstreamCalls(servers);
    await summary(a, coldPeriod(0));
    const perRequest = (await upstreamCalls(servers)) - before;

    before = await upstreamCalls(servers);
    const period = coldPeriod(1);
    const answers = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => summary(i % 2 === 0 ? a : b, period)));
    const calls = (await upstreamCalls(servers)) - before;
    const failed = answers.filter((r) => r.status !== 200).length;
    measurements.push({
      name: `upstream calls for ${CONCURRENT} concurrent identical cold requests over two instances`,
      value: calls,
      unit: 'calls',
      target: { op: '<=', value: perRequest },
      notes: `one cold request alone makes ${perRequest}; ${failed} answers failed; load ${loadavg()[0]!.toFixed(1)}`,
    });

    const shared = coldPeriod(2);
    const onA = await summary(a, shared);
    const onB = await summary(b, shared);
    measurements.push({
      name: 'report fetched by one instance is a cache hit on the other',
      value: onA.cache === 'miss' && onB.cache === 'hit' ? 1 : 0,
      unit: 'yes',
      target: { op: '>=', value: 1 },
      notes: `instance A: meta.cache=${onA.cache}, instance B: meta.cache=${onB.cache}`,
    });
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
  return {
    suite: 'scale-out',
    description: `Two bench servers (each with its own in-process sandbox) sharing a SQLite database, a secret key and Redis (${REDIS_URL.replace(/\/\/[^@]*@/, '//')}, a namespace of their own); upstream calls counted by both sandboxes.`,
    measurements,
  };
}
