// A Siteline process for the benchmarks: the real runtime over the in-process sandbox with realistic upstream
// latency and a bench API key without a practical rate limit (the yardstick is bench/bare-server.ts, a process of
// its own). Prints one JSON line ({url, key}) once it listens; runs until killed.
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from 'h3';
import { loadSettings } from '../src/config/settings.ts';
import { readSandboxCredentials } from '../src/demo/sandbox-credentials.ts';
import { seedDemo } from '../src/demo/seed-demo.ts';
import { silentLogger } from '../src/logging/logger.ts';
import { inProcessEndpoints } from '../src/providers/endpoints.ts';
import { createRuntime } from '../src/runtime.ts';
import { createSandbox } from '../src/sandbox/sandbox.ts';
import { BENCH_LATENCY } from './bench-latency.ts';


// Instances of one scale-out run share a data folder (SQLite database, sandbox credentials), secret key and Redis
// namespace: BENCH_DATA_DIR, BENCH_SECRET_KEY, BENCH_REDIS_URL, BENCH_REDIS_PREFIX.
const dataDir = process.env.BENCH_DATA_DIR ?? (await mkdtemp(join(tmpdir(), 'siteline-bench-')));
const credentialsDir = join(dataDir, 'sandbox-credentials');
const sandbox = await createSandbox({
  credentialsDir,
  env: {},
  faults: {
    analytics: { latencyMs: BENCH_LATENCY.analytics },
    engine1: { latencyMs: BENCH_LATENCY.engine1 },
    engine2: { latencyMs: BENCH_LATENCY.engine2 },
    analyticsQuota: { tokensPerDay: 1e9, tokensPerHour: 1e9, tokensPerProjectPerHour: 1e9, concurrentRequests: 1000 },
  },
});
const settings = loadSettings({ DATA_DIR: dataDir, SITELINE_SANDBOX: 'off', LOG_LEVEL: 'silent', SITELINE_SECRET_KEY: process.env.BENCH_SECRET_KEY ?? randomBytes(32).toString('base64'), ...(process.env.BENCH_REDIS_URL ? { REDIS_URL: process.env.BENCH_REDIS_URL } : {}) });
const shared = process.env.BENCH_REDIS_PREFIX ? { keyPrefix: process.env.BENCH_REDIS_PREFIX } : undefined;
const runtime = await createRuntime(settings, { logger: silentLogger(), skipDemo: true, endpoints: inProcessEndpoints(sandbox.fetch), shared });
const credentials = await readSandboxCredentials(credentialsDir);
const demo = await seedDemo({ db: runtime.store.db, box: runtime.box, apiKeys: runtime.apiKeys, sites: sandbox.catalogue, credentials, dataDir, providers: runtime.providers });
// A key allows at most 1,000,000 requests a minute, which a quiet machine can exceed over a few rounds of load: the
// load generator takes a fresh key of this pool for every measured round.
const benchKeys = await Promise.all(
  Array.from({ length: 16 }, (_, i) => runtime.apiKeys.create(demo.accountId, { name: `bench ${i + 1}`, scopes: ['read', 'raw', 'mcp:write'], rateLimitPerMinute: 1_000_000 })),
);
// How many analytics requests this instance's sandbox has answered (scale-out: proves single-flight across instances).
runtime.app.get('/__bench/upstream-calls', () => ({ analytics: Object.values(sandbox.stats().analytics).reduce((a, b) => a + b, 0) }));
const server = serve(runtime.app, { port: 0, hostname: '127.0.0.1', silent: true, gracefulShutdown: false });
await server.ready();
process.stdout.write(`${JSON.stringify({ url: server.url, key: benchKeys[0]!.key, keys: benchKeys.map((k) => k.key) })}\n`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void server.close(true).then(() => runtime.close()).then(() => process.exit(0)));
