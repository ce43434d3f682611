// Builds the real runtime for a test: temp DATA_DIR, SQLite (or TEST_DATABASE_URL's PostgreSQL when asked),
// in-process shared state, and optionally the in-process sandbox as the providers; requests go through
// app.request() without a port.
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

export interface TestRuntimeOptions extends RuntimeOverrides {
  env?: Record<string, string>;
  /** A fetch handler standing in for every provider (usually an in-process sandbox). */
  upstream?: (request: Request) => Promise<Response>;
}

export interface TestRuntime extends Runtime {
  dataDir: string;
  request(path: string, init?: RequestInit & { key?: string }): Promise<Response>;
  dispose(): Promise<void>;
}

export async function createTestRuntime(options: TestRuntimeOptions = {}): Promise<TestRuntime> {
  const dataDir = await mkdtemp(join(tmpdir(), 'siteline-test-'));
  const settings = loadSettings({
    DATA_DIR: dataDir,
    SITELINE_SANDBOX: 'off',
    LOG_LEVEL: 'silent',
    SITELINE_SECRET_KEY: randomBytes(32).toString('base64'),
    PUBLIC_URL: 'http://siteline.test',
    ...options.env,
  });
  const endpoints: ProviderEndpoints | undefined = options.upstream ? inProcessEndpoints(options.upstream) : options.endpoints;
  const runtime = await createRuntime(settings, { logger: silentLogger(), skipDemo: true, ...options, endpoints });
  return {
    ...runtime,
    dataDir,
    async request(path, init = {}) {
      const { key, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (key) headers.set('authorization', `Bearer ${key}`);
      return runtime.app.request(`http://siteline.test${path}`, { ...rest, headers });
    },
    async dispose() {
      await runtime.close();
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
