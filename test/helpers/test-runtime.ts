// Builds the real runtime for a test: temp DATA_DIR, and optionally the in-process sandbox as the providers;
// requests go through app.request() without a port. The backends follow the environment, so the same suites
// prove both deployment shapes:
// - TEST_DATABASE_URL set: PostgreSQL, in a schema of its own per runtime (dropped on dispose); else SQLite in DATA_DIR.
// - TEST_REDIS_URL set: Redis for the cache, limits and bus, under a key prefix of its own per runtime (deleted on
//   dispose); else the in-process shared state.
// - TEST_RUNTIME_BACKEND=embedded keeps every runtime on SQLite + in-process state even when those are set (the
//   CI pass that proves the embedded default while the store and cache suites still use the real services).
// A test that sets DATABASE_URL or REDIS_URL in `env` itself gets exactly that.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSettings } from '../../src/config/settings.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import { inProcessEndpoints, type ProviderEndpoints } from '../../src/providers/endpoints.ts';
import { createRuntime, type Runtime, type RuntimeOverrides } from '../../src/runtime.ts';
import { createAccount } from '../../src/store/accounts-repository.ts';
import { createProject, grantProjectAccess } from '../../src/store/projects-repository.ts';
import type { Scope } from '../../src/auth/scopes.ts';
import { closeRedis } from '../../src/cache/redis-connection.ts';
import { connectTestRedis, deleteByPrefix, uniquePrefix } from '../cache/redis-helpers.ts';
import { createPostgresSchema } from './postgres-schema.ts';

const SERVICES = process.env.TEST_RUNTIME_BACKEND === 'embedded' ? {} : { databaseUrl: process.env.TEST_DATABASE_URL, redisUrl: process.env.TEST_REDIS_URL };

/** Which backends a new test runtime gets: 'postgres+redis', 'postgres', 'redis' or 'embedded'. */
export const TEST_RUNTIME_BACKEND = [SERVICES.databaseUrl && 'postgres', SERVICES.redisUrl && 'redis'].filter(Boolean).join('+') || 'embedded';

interface Backends {
  env: Record<string, string>;
  keyPrefix?: string;
  cleanup(): Promise<void>;
}

/** PostgreSQL schema and Redis key prefix for one runtime, unless the test chose its own DATABASE_URL/REDIS_URL. */
async function backendsFor(env: Record<string, string> = {}): Promise<Backends> {
  const cleanups: (() => Promise<void>)[] = [];
  const chosen: Record<string, string> = {};
  let keyPrefix: string | undefined;
  if (SERVICES.databaseUrl && env.DATABASE_URL === undefined) {
    const schema = await createPostgresSchema(SERVICES.databaseUrl, 'rt');
    chosen.DATABASE_URL = schema.url;
    cleanups.push(schema.drop);
  }
  if (SERVICES.redisUrl && env.REDIS_URL === undefined) {
    const redisUrl = SERVICES.redisUrl;
    const prefix = uniquePrefix();
    chosen.REDIS_URL = redisUrl;
    keyPrefix = prefix;
    cleanups.push(async () => {
      const admin = await connectTestRedis(redisUrl);
      try {
        await deleteByPrefix(admin, prefix);
      } finally {
        await closeRedis(admin);
      }
    });
  }
  return { env: chosen, keyPrefix, cleanup: async () => void (await Promise.all(cleanups.map((c) => c()))) };
}

export interface TestRuntimeOptions extends RuntimeOverrides {
  /** Settings over the test defaults; an empty value leaves a setting unset. */
  env?: Record<string, string>;
  /** A fetch handler standing in for every provider (usually an in-process sandbox). */
  upstream?: (request: Request) => Promise<Response>;
}

export interface TestRuntime extends Runtime {
  dataDir: string;
  /** Settings a CLI process needs to work on this runtime's data (DATA_DIR, and DATABASE_URL when on PostgreSQL). */
  cliEnv: Record<string, string>;
  request(path: string, init?: RequestInit & { key?: string }): Promise<Response>;
  dispose(): Promise<void>;
}

export async function createTestRuntime(options: TestRuntimeOptions = {}): Promise<TestRuntime> {
  const dataDir = await mkdtemp(join(tmpdir(), 'siteline-test-'));
  const backends = await backendsFor(options.env);
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    SITELINE_SANDBOX: 'off',
    LOG_LEVEL: 'silent',
    SITELINE_SECRET_KEY: randomBytes(32).toString('base64'),
    PUBLIC_URL: 'http://siteline.test',
    ...backends.env,
    ...options.env,
  };
  const settings = loadSettings(Object.fromEntries(Object.entries(env).filter(([, value]) => value !== '')));
  const endpoints: ProviderEndpoints | undefined = options.upstream ? inProcessEndpoints(options.upstream) : options.endpoints;
  const shared = backends.keyPrefix === undefined ? options.shared : { ...options.shared, keyPrefix: options.shared?.keyPrefix ?? backends.keyPrefix };
  const runtime = await createRuntime(settings, { logger: silentLogger(), skipDemo: true, ...options, endpoints, shared }).catch(async (error: unknown) => {
    await backends.cleanup();
    throw error;
  });
  return {
    ...runtime,
    dataDir,
    cliEnv: { DATA_DIR: dataDir, ...(settings.DATABASE_URL === undefined ? {} : { DATABASE_URL: settings.DATABASE_URL }) },
    async request(path, init = {}) {
      const { key, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (key) headers.set('authorization', `Bearer ${key}`);
      return runtime.app.request(`http://siteline.test${path}`, { ...rest, headers });
    },
    async dispose() {
      await runtime.close();
      await backends.cleanup();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** An account with access to the given projects and an API key for it. */
export async function createAccountWithKey(
  runtime: Runtime,
  input: { email: string; projects: string[]; scopes?: Scope[]; projectKeys?: string[]; expiresAt?: Date },
): Promise<{ accountId: string; key: string; keyId: string }> {
  const account = await createAccount(runtime.store.db, { email: input.email, name: input.email.split('@')[0]! });
  for (const key of input.projects) {
    const { getProjectByKey } = await import('../../src/store/projects-repository.ts');
    const project = (await getProjectByKey(runtime.store.db, key)) ?? (await createProject(runtime.store.db, { key, name: key, domain: `${key}.example` }));
    await grantProjectAccess(runtime.store.db, account.id, project.id);
  }
  const issued = await runtime.apiKeys.create(account.id, { scopes: input.scopes, projectKeys: input.projectKeys, expiresAt: input.expiresAt });
  return { accountId: account.id, key: issued.key, keyId: issued.record.id };
}
