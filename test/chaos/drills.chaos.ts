// Chaos drills on a production-shaped setup started here: PostgreSQL, Redis, the provider sandbox and two
// Siteline replicas as child processes, under a bounded, seeded load. Each drill breaks one dependency and checks
// that no process exits, nothing answers 500, every refusal is 503 with Retry-After, the service recovers within
// 2 s of the dependency's return, no acknowledged write is lost and no concurrency slot stays taken.
// `npm run test:chaos` (not part of `npm test`); CHAOS_SEED replays a run.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKeyService } from '../../src/auth/api-keys.ts';
import { DEMO_EMAIL } from '../../src/demo/seed-demo.ts';
import { findAccountByEmail } from '../../src/store/accounts-repository.ts';
import { openDatabase, type Store } from '../../src/store/database.ts';
import { startLoad, type Outcome } from './load.ts';
import { freePort, spawnNode, startPostgres, startRedis, stopProcess, waitUntil, type NodeProcess, type PostgresServer, type RedisServer } from './servers.ts';

const SEED = Number(process.env.CHAOS_SEED ?? 15);
const RECOVERY_LIMIT_MS = 2_000;
const SECRET = randomBytes(32).toString('base64');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Row {
  drill: string;
  requests: number;
  ok: number;
  refused503: number;
  other: number;
  network: number;
  recoveryMs: string;
  notes: string;
}
const table: Row[] = [];

let pgServer: PostgresServer;
let redisServer: RedisServer;
let sandbox: NodeProcess;
let sandboxUrl: string;
let dataDir: string;
let store: Store;
let key: string;
const freshKeys: string[] = [];
const replicas = new Map<string, NodeProcess>();
/** Processes the drills ended on purpose; any other end fails the run. */
const planned = new Set<NodeProcess>();

async function startReplica(name: string): Promise<NodeProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = {
    DATABASE_URL: pgServer.url,
    REDIS_URL: redisServer.url,
    SANDBOX_URL: sandboxUrl,
    SITELINE_SANDBOX: 'auto',
    SITELINE_SECRET_KEY: SECRET,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: url,
    LOG_LEVEL: 'warn',
    SHUTDOWN_GRACE_MS: '10000',
  };
  const proc = spawnNode(name, ['src/main.ts'], env, url);
  await waitUntil(`replica ${name}`, async () => proc.ended === undefined && (await fetch(`${url}/readyz`)).status === 200, 60_000).catch((error: unknown) => {
    throw new Error(`${(error as Error).message}\n${proc.output()}`);
  });
  replicas.set(name, proc);
  return proc;
}

async function setFaults(patch: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${sandboxUrl}/__sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(patch) });
  expect(res.status).toBe(200);
}

async function readyCheck(name: string, check: 'database' | 'cache'): Promise<boolean> {
  const res = await fetch(`${replicas.get(name)!.url}/readyz`);
  const body = (await res.json()) as { checks: Record<string, { status: string }> };
  return body.checks[check]?.status === 'ok';
}

/** Time from now until every live replica reports `check` ok. */
async function recovery(check: 'database' | 'cache'): Promise<number> {
  return waitUntil(`${check} ready`, async () => (await Promise.all([...replicas.keys()].map((name) => readyCheck(name, check)))).every(Boolean), 10_000, 20);
}

/** Concurrency leases that are still valid on the Redis server's clock. */
async function liveLeases(): Promise<number> {
  const redis = new Redis(redisServer.url, { maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined); // a drill may have stopped it; the caller retries
  try {
    const [seconds, micros] = (await redis.time()) as [number | string, number | string];
    const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    const keys = await redis.keys('siteline:conc:*');
    let live = 0;
    for (const k of keys) live += await redis.zcount(k, `(${now}`, '+inf');
    return live;
  } finally {
    redis.disconnect();
  }
}

function unplannedExits(): string[] {
  return [sandbox, ...replicas.values()].filter((p) => p.ended !== undefined && !planned.has(p)).map((p) => `${p.name}: ${p.ended}\n${p.output().slice(-2000)}`);
}

/** The contract every drill shares; `gone` names replicas whose connections may fail from a time on (killed or draining). */
function assertClean(outcomes: Outcome[], gone: { replica: string; from: number }[] = []): void {
  const allowedNetwork = (o: Outcome) => gone.some((g) => g.replica === o.replica && o.end >= g.from);
  expect(outcomes.filter((o) => o.status === 500), 'no 500').toEqual([]);
  expect(outcomes.filter((o) => o.status !== 0 && o.status !== 200 && o.status !== 503), 'only 200 or 503').toEqual([]);
  expect(outcomes.filter((o) => o.status === 503 && !o.retryAfter), 'every 503 has Retry-After').toEqual([]);
  expect(outcomes.filter((o) => o.status === 0 && !allowedNetwork(o)), 'no failed connection to a live replica').toEqual([]);
  expect(unplannedExits()).toEqual([]);
}

function record(drill: string, outcomes: Outcome[], recoveryMs: number[] | string, notes = ''): void {
  table.push({
    drill,
    requests: outcomes.length,
    ok: outcomes.filter((o) => o.status === 200).length,
    refused503: outcomes.filter((o) => o.status === 503).length,
    other: outcomes.filter((o) => o.status !== 0 && o.status !== 200 && o.status !== 503).length,
    network: outcomes.filter((o) => o.status === 0).length,
    recoveryMs: typeof recoveryMs === 'string' ? recoveryMs : recoveryMs.map((ms) => String(ms)).join(' / '),
    notes,
  });
}

function printTable(): void {
  const columns = ['drill', 'requests', 'ok', 'refused503', 'other', 'network', 'recoveryMs', 'notes'] as const;
  const widths = columns.map((c) => Math.max(c.length, ...table.map((row) => String(row[c]).length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  const text = [line([...columns]), line(widths.map((w) => '-'.repeat(w))), ...table.map((row) => line(columns.map((c) => String(row[c]))))].join('\n');
  process.stdout.write(`\nchaos drills (seed ${SEED})\n${text}\n`);
}

/** MCP create_funnel: preview, then confirm with the token; the same token may be replayed after a refusal. */
async function mcpCall(url: string, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string; structured?: Record<string, unknown> }> {
  const res = await fetch(`${url}/api/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  const text = await res.text();
  if (res.status !== 200) return { isError: true, text: `HTTP ${res.status} ${text}` };
  const data = text.startsWith('{') ? text : text.split('\n').find((l) => l.startsWith('data: '))!.slice(6);
  const result = (JSON.parse(data) as { result: { isError?: boolean; content: { text: string }[]; structuredContent?: Record<string, unknown> } }).result;
  return { isError: result.isError === true, text: result.content[0]?.text ?? '', ...(result.structuredContent ? { structured: result.structuredContent } : {}) };
}

const STEPS = [
  { type: 'event', match: 'exact', value: 'page_view' },
  { type: 'event', match: 'exact', value: 'purchase' },
];

beforeAll(async () => {
  pgServer = await startPostgres();
  redisServer = await startRedis();
  dataDir = mkdtempSync(join(tmpdir(), 'siteline-chaos-'));
  const sandboxPort = await freePort();
  sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  sandbox = spawnNode('sandbox', ['src/cli/main.ts', 'sandbox', '--port', String(sandboxPort), '--credentials-dir', join(dataDir, 'sandbox-credentials')], {}, sandboxUrl);
  await waitUntil('sandbox', async () => (await fetch(`${sandboxUrl}/__sandbox/faults`)).status === 200);
  // Quotas out of the way: the drills are about our dependencies, not the provider's daily limits.
  await setFaults({ seed: SEED, analyticsQuota: { tokensPerDay: 1e9, tokensPerHour: 1e9, tokensPerProjectPerHour: 1e9 } });
  // One after the other: the first seeds the demo account and projects, the second finds them.
  await startReplica('a');
  await startReplica('b');
  store = await openDatabase({ url: pgServer.url, dataDir, migrate: false });
  const account = (await findAccountByEmail(store.db, DEMO_EMAIL))!;
  const apiKeys = createApiKeyService({ db: store.db });
  key = (await apiKeys.create(account.id, { name: 'chaos load', scopes: ['read', 'mcp:write'], rateLimitPerMinute: 1_000_000 })).key;
  for (let i = 0; i < 150; i++) freshKeys.push((await apiKeys.create(account.id, { name: `chaos fresh ${i}` })).key);
  // Each replica reads what its load will need once: the shared cache answers the warm routes for the second
  // replica, so a report of its own (a period only it asks for) makes it open the projects' credentials too.
  for (const [index, proc] of [...replicas.values()].entries()) {
    const own = `custom_2022-0${index + 1}-01_2022-0${index + 1}-14`;
    const paths = ['/api/v1/metrics/acme-shop/summary?period=28days', '/api/v1/metrics/northwind-journal/summary?period=28days', '/api/v1/metrics/acme-shop/search/summary?period=28days&sp=engine1', '/api/v1/projects/list'];
    for (const path of [...paths, `/api/v1/metrics/acme-shop/summary?period=${own}`, `/api/v1/metrics/northwind-journal/summary?period=${own}`]) {
      expect((await fetch(new URL(path, proc.url), { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    }
  }
}, 180_000);

afterAll(async () => {
  printTable();
  await store?.close();
  for (const proc of replicas.values()) if (proc.ended === undefined) await stopProcess(proc).catch(() => undefined);
  if (sandbox?.ended === undefined) await stopProcess(sandbox).catch(() => undefined);
  await redisServer?.dispose();
  await pgServer?.dispose();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

/** The supervisor's part: latency back to normal and the replica started again. */
async function restartAfterDrill(name: string): Promise<void> {
  await setFaults({ analytics: { latencyMs: 0 } });
  replicas.delete(name);
  await startReplica(name);
}

/** `siteline_unhandled_errors_total` of a replica (0 when nothing escaped). */
async function escapedErrors(proc: NodeProcess): Promise<number> {
  const text = await (await fetch(`${proc.url}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('siteline_unhandled_errors_total'))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}

describe('chaos drills', () => {
  it('PostgreSQL stop and start under warm and cold load: reads keep flowing, writes are refused then land once', async () => {
    const load = startLoad({ replicas: () => [...replicas.values()], key, freshKeys, fresh: 0.15, seed: SEED, cold: 0.4, pauseMs: 5 });
    const acknowledged: string[] = [];
    const refused: { name: string; url: string; token: string }[] = [];
    let writing = true;
    let n = 0;
    const writer = (async () => {
      while (writing) {
        const proc = [...replicas.values()][n % replicas.size]!;
        const name = `chaos ${SEED}-${n++}`;
        const preview = await mcpCall(proc.url, 'create_funnel', { project: 'acme-shop', name, steps: STEPS });
        if (!preview.isError) {
          const token = String(preview.structured!.confirmation_token);
          const created = await mcpCall(proc.url, 'create_funnel', { project: 'acme-shop', name, steps: STEPS, confirmation_token: token });
          if (created.isError) {
            expect(created.text).toMatch(/^dependency_unavailable: /);
            refused.push({ name, url: proc.url, token });
          } else acknowledged.push(name);
        }
        await sleep(150);
      }
    })();
    await sleep(1_500);
    // A confirmation obtained before the outage and sent during it: at least one write certainly meets the outage
    // (the writer's own previews need the database too, so its confirmations only sometimes do).
    const held = await mcpCall(replicas.get('a')!.url, 'create_funnel', { project: 'acme-shop', name: `chaos ${SEED}-held`, steps: STEPS });
    expect(held.isError, held.text).toBe(false);
    await pgServer.stop();
    const heldToken = String(held.structured!.confirmation_token);
    const heldWrite = await mcpCall(replicas.get('a')!.url, 'create_funnel', { project: 'acme-shop', name: `chaos ${SEED}-held`, steps: STEPS, confirmation_token: heldToken });
    if (heldWrite.isError) {
      expect(heldWrite.text).toMatch(/^dependency_unavailable: /);
      refused.push({ name: `chaos ${SEED}-held`, url: replicas.get('a')!.url, token: heldToken });
    } else acknowledged.push(`chaos ${SEED}-held`);
    await sleep(3_000);
    const duringOutage = load.outcomes.length;
    await pgServer.start();
    const recoveredIn = await recovery('database');
    await sleep(1_500);
    writing = false;
    await writer;
    const outcomes = await load.stop();
    // The client's retry of every refused write (same token) lands exactly once.
    for (const write of refused) {
      const created = await mcpCall(write.url, 'create_funnel', { project: 'acme-shop', name: write.name, steps: STEPS, confirmation_token: write.token });
      expect(created.isError, created.text).toBe(false);
      acknowledged.push(write.name);
    }
    const res = await fetch(`${replicas.get('a')!.url}/api/v1/projects/acme-shop/funnels/list`, { headers: { authorization: `Bearer ${key}` } });
    const stored = ((await res.json()) as { funnels: { name: string }[] }).funnels.map((f) => f.name).filter((name) => name.startsWith('chaos '));
    record('PostgreSQL stop 3 s / start', outcomes, [recoveredIn], `writes: ${acknowledged.length} acknowledged (${refused.length} refused, then retried), ${stored.length} stored; ${duringOutage} requests by the restart`);
    assertClean(outcomes);
    expect(outcomes.filter((o) => o.kind !== 'fresh' && o.status !== 200), 'reads served from memory keep being served').toEqual([]);
    expect(outcomes.filter((o) => o.kind === 'fresh' && o.status === 503).every((o) => o.code === 'dependency_unavailable')).toBe(true);
    expect(outcomes.filter((o) => o.status === 503).length, 'first uses of keys during the outage were refused').toBeGreaterThan(0);
    expect(recoveredIn).toBeLessThan(RECOVERY_LIMIT_MS);
    expect(refused.length, 'some writes were attempted during the outage').toBeGreaterThan(0);
    expect([...stored].sort()).toEqual([...new Set(acknowledged)].sort());
  }, 120_000);

  it('Redis stop and start three times under load', async () => {
    const load = startLoad({ replicas: () => [...replicas.values()], key, seed: SEED + 1, cold: 0.3, pauseMs: 5 });
    const recoveries: number[] = [];
    await sleep(1_000);
    for (let round = 0; round < 3; round++) {
      await redisServer.stop();
      await sleep(1_500);
      await redisServer.start();
      recoveries.push(await recovery('cache'));
      await sleep(700);
    }
    const outcomes = await load.stop();
    record('Redis stop 1.5 s / start ×3', outcomes, recoveries);
    assertClean(outcomes);
    for (const ms of recoveries) expect(ms).toBeLessThan(RECOVERY_LIMIT_MS);
    await waitUntil('no live leases', async () => (await liveLeases()) === 0, 8_000);
  }, 120_000);

  it('kill -9 of one replica with provider requests in flight: the other keeps serving, its slots free themselves', async () => {
    await setFaults({ analytics: { latencyMs: 800 } });
    let live = [...replicas.values()];
    const loadStart = Date.now();
    const load = startLoad({ replicas: () => live, key, seed: SEED + 2, cold: 0.7, pauseMs: 5 });
    await sleep(2_000);
    const victim = replicas.get('b')!;
    planned.add(victim);
    const killedAt = Date.now();
    live = [replicas.get('a')!];
    try {
      victim.child.kill('SIGKILL');
      await sleep(4_000);
      const outcomes = await load.stop();
      await waitUntil('leases of the killed replica expire', async () => (await liveLeases()) === 0, 10_000, 50);
      const freedIn = Date.now() - killedAt;
      const cut = outcomes.filter((o) => o.replica === 'b' && o.status === 0).length;
      record('kill -9 replica b (800 ms upstream)', outcomes, `${freedIn} (leases freed)`, `${outcomes.filter((o) => o.replica === 'a').length} answered by a; ${cut} cut with b`);
      assertClean(outcomes, [{ replica: 'b', from: killedAt - loadStart }]);
      expect(outcomes.filter((o) => o.replica === 'a' && o.status === 200).length).toBeGreaterThan(0);
    } finally {
      await restartAfterDrill('b');
    }
  }, 120_000);

  it('SIGTERM with slow upstreams: in-flight requests finish, the replica exits cleanly and releases its slots', async () => {
    await setFaults({ analytics: { latencyMs: 1_500 } });
    let live = [...replicas.values()];
    const started = Date.now();
    const load = startLoad({ replicas: () => live, key, seed: SEED + 3, cold: 0.8, pauseMs: 5 });
    await sleep(1_500);
    const draining = replicas.get('b')!;
    planned.add(draining);
    const termAt = Date.now() - started;
    live = [replicas.get('a')!];
    try {
      const exitedIn = Date.now();
      await stopProcess(draining, 'SIGTERM');
      const drainMs = Date.now() - exitedIn;
      const outcomes = await load.stop();
      const leases = await liveLeases();
      const answered = outcomes.filter((o) => o.replica === 'b' && o.at < termAt && o.end > termAt && o.status === 200).length;
      record('SIGTERM replica b (1.5 s upstream)', outcomes, `${drainMs} (drain)`, `exit: ${draining.ended}; ${answered} in flight at SIGTERM answered; live leases after: ${leases}`);
      assertClean(outcomes, [{ replica: 'b', from: termAt }]);
      expect(draining.ended).toBe('exit 0');
      // Requests b had accepted before SIGTERM were answered, not cut.
      expect(outcomes.filter((o) => o.replica === 'b' && o.at < termAt - 100 && o.status === 0)).toEqual([]);
      expect(answered).toBeGreaterThan(0);
      expect(leases).toBe(0);
    } finally {
      await restartAfterDrill('b');
    }
  }, 120_000);

  it('let no error escape to the process guard on the replica that lived through every drill', async () => {
    const escaped = await escapedErrors(replicas.get('a')!);
    record('after all drills', [], '-', `siteline_unhandled_errors_total on a: ${escaped}`);
    expect(escaped).toBe(0);
    expect(unplannedExits()).toEqual([]);
  });
});
