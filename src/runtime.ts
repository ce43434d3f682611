// The composition root: settings → store, shared state, auth, providers (sandbox or real), schema and stored
// operations → the h3 app. main.ts serves it; tests build it with overrides (in-process sandbox, temp dirs).
import type { H3 } from 'h3';
import type { AppDeps, HealthReport } from './app-deps.ts';
import { createApp } from './app.ts';
import { createApiKeyService, type ApiKeyService } from './auth/api-keys.ts';
import { createAuthenticator } from './auth/authenticate.ts';
import { createWebDeps } from './account/create-web-deps.ts';
import { createDashboardDeps } from './dashboard/create-dashboard-deps.ts';
import { startFlowSweeper } from './dashboard/google-flow-tokens.ts';
import { countAccounts } from './store/account-roles-repository.ts';
import { issueSetupCode } from './store/setup-codes-repository.ts';
import type { Principal } from './auth/principal.ts';
import { BUS_CHANNELS } from './bus/channels.ts';
import { createSharedState, type SharedState, type SharedStateOptions } from './cache/shared-state.ts';
import { publicUrlOf, type Settings } from './config/settings.ts';
import { siteOriginsOf } from './config/site-origins.ts';
import { createGraphQLContext, type Services } from './graphql/context.ts';
import { createStoredOperationPipeline } from './graphql/pipeline.ts';
import { publicSchema, schema } from './graphql/schema.ts';
import { readJsonBody } from './http/read-body.ts';
import { RAW_BODY_LIMIT } from './reports/raw-proxy.ts';
import { answersChangedByWrite, answersOfRevokedKey } from './rest/answer-invalidation.ts';
import { createResponseCache, type ResponseCache } from './rest/response-cache.ts';
import { watchCatalogueWrites, type CatalogueWrite } from './store/write-watch.ts';
import { createLogger, type Logger } from './logging/logger.ts';
import { createOperationExecutor } from './operations/execute.ts';
import { loadOperationRegistry } from './operations/registry.ts';
import { PRODUCTION_ENDPOINTS, type ProviderEndpoints } from './providers/endpoints.ts';
import { createProviderClients, type ProviderClients } from './providers/provider-clients.ts';
import { resolve } from 'node:path';
import { openDatabase, type Store } from './store/database.ts';
import { unusableDataDir } from './store/unusable-store.ts';
import { createOutageMemo } from './store/outage-memo.ts';
import { createSecretBox, deriveSubKey, loadSecretKey, type SecretBox } from './store/secret-box.ts';
import { seedDemoSandbox, startDemoSandbox, type DemoUpstream } from './demo/demo-upstream.ts';
import { retireDemo } from './demo/retire-demo.ts';
import { readRetiredSandboxCredentials } from './demo/sandbox-credentials.ts';
import { instrumentSharedState } from './observability/instrument-shared-state.ts';
import type { KeyLimitOverride } from './limits/create-limits.ts';
import type { Decided } from './limits/limiter.ts';
import { createMetrics, type Metrics } from './observability/metrics.ts';

export interface RuntimeOverrides {
  logger?: Logger;
  clock?: () => Date;
  /** Provider endpoints instead of production or the sandbox (tests: an in-process sandbox). */
  endpoints?: ProviderEndpoints;
  /** Skip the sandbox and demo seeding even when SITELINE_SANDBOX=auto (tests that seed themselves). */
  skipDemo?: boolean;
  shared?: Omit<SharedStateOptions, 'redisUrl' | 'logger'>;
  /** Test-only resilience settings (short timeouts). */
  providerResilience?: Parameters<typeof createProviderClients>[0]['resilience'];
}

export interface Runtime {
  app: H3;
  deps: AppDeps;
  settings: Settings;
  logger: Logger;
  store: Store;
  box: SecretBox;
  shared: SharedState;
  apiKeys: ApiKeyService;
  providers: ProviderClients;
  demo?: DemoUpstream;
  /** Prometheus metrics (absent when METRICS_ENABLED is false). */
  metrics?: Metrics;
  /** The first-run setup code this instance printed (absent once an owner exists, or with SIGNUP=closed). */
  setupCode?: string;
  close(): Promise<void>;
}

export async function createRuntime(settings: Settings, overrides: RuntimeOverrides = {}): Promise<Runtime> {
  const logger = overrides.logger ?? createLogger({ level: settings.LOG_LEVEL });
  const clock = overrides.clock ?? (() => new Date());
  const closers: (() => Promise<void>)[] = [];
  try {
    // Every catalogue write through this runtime is announced on the bus (wired once the bus exists).
    let announceWrite: (write: CatalogueWrite) => void = () => undefined;
    const opened = await openDatabase({
      url: settings.DATABASE_URL,
      dataDir: settings.DATA_DIR,
      onConnectionError: (error) => logger.warn({ err: { message: error.message } }, 'database connection lost; requests needing it get 503 until it is back'),
    });
    const store = watchCatalogueWrites(opened, (write) => announceWrite(write));
    closers.push(() => store.close());
    const secretKey = loadSecretKeyOrExplain(settings);
    const box = createSecretBox(secretKey);
    const metrics = settings.METRICS_ENABLED ? createMetrics() : undefined;
    const plainShared = await createSharedState({ ...overrides.shared, redisUrl: settings.REDIS_URL, logger });
    closers.push(() => plainShared.close());
    const shared = metrics ? instrumentSharedState(plainShared, metrics) : plainShared;

    const apiKeys = createApiKeyService({ db: store.db, clock: () => clock().getTime(), logger });
    await wireKeyRevocation(apiKeys, shared);
    const responseCache = createResponseCache({ now: () => clock().getTime() });
    announceWrite = (write) => void shared.bus.publish(BUS_CHANNELS.catalogueChanged, write);
    await wireCacheInvalidation(responseCache, shared);
    const web = await createWebDeps({ db: store.db, clock, logger, publicUrl: publicUrlOf(settings), siteOrigins: siteOriginsOf(settings), masterKey: secretKey, apiKeys, limits: shared.limits });
    const authenticate = createAuthenticator({ apiKeys, failures: shared.limits, verifyAccessToken: web.oauth.verifyAccessToken });

    const useSandbox = settings.SITELINE_SANDBOX === 'auto' && !overrides.skipDemo;
    const retiring = settings.SITELINE_SANDBOX === 'off' && !overrides.skipDemo;
    const demoSandbox = useSandbox ? await startDemoSandbox({ settings, clock }) : undefined;
    if (demoSandbox) closers.push(() => demoSandbox.close());
    if (retiring) await retireDemo({ db: store.db, apiKeys, dataDir: settings.DATA_DIR, logger });
    // Routing follows who issued the credential, not the mode: what the sandbox issued goes to the sandbox (or, when
    // it is off, nowhere), every other credential to the real providers (overrides.endpoints stands in for them in tests).
    const endpoints = overrides.endpoints ?? PRODUCTION_ENDPOINTS;
    const retired = retiring ? await readRetiredSandboxCredentials(settings.DATA_DIR) : undefined;
    const sandbox = demoSandbox ? { endpoints: demoSandbox.endpoints, credentials: demoSandbox.credentials } : retired && { credentials: retired };
    const providers = createProviderClients({ endpoints, sandbox, logger, resilience: overrides.providerResilience, analyticsConcurrency: shared.analyticsConcurrency, onOutcome: metrics?.recordUpstream });
    const demo = demoSandbox && (await seedDemoSandbox(demoSandbox, { settings, db: store.db, box, apiKeys, logger, providers }));

    const services: Services = { db: store.db, clock, logger, box, providers, shared, storeMemo: createOutageMemo() };
    const pipeline = createStoredOperationPipeline(schema);
    const registry = loadOperationRegistry(schema, undefined, pipeline.validate);
    const executeOperation = createOperationExecutor(pipeline, registry);
    const deps: AppDeps & { graphiql: boolean } = {
      logger,
      clock,
      publicUrl: publicUrlOf(settings),
      schema: publicSchema,
      graphiql: settings.SITELINE_SANDBOX === 'auto',
      authenticate,
      limitRequest: (principal: Principal) => limitRequest(shared, principal),
      createContext: (principal, requestId, options) => createGraphQLContext(services, principal, requestId, options),
      executeOperation,
      readJsonBody: (request) => readJsonBody(request, RAW_BODY_LIMIT),
      responseCache,
      readiness: () => readiness(store, shared, logger),
      web,
      hasOperation: (name) => registry.has(name),
      deriveKey: (purpose) => deriveSubKey(secretKey, purpose),
      corsOrigins: settings.CORS_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean),
      metrics,
      metricsRoute: settings.METRICS_PORT === undefined,
    };
    deps.dashboard = await createDashboardDeps({ settings, publicUrl: deps.publicUrl, web, box, providers, endpoints, operations: deps, sandboxEndpoints: demo?.endpoints, demoBingKeyFile: demo?.bingKeyFile });
    const stopSweeper = startFlowSweeper(deps.dashboard);
    closers.push(async () => stopSweeper());
    const setupCode = await announceSetupCode(store, settings, deps.publicUrl, clock, logger);
    const app = createApp(deps);
    return {
      app,
      deps,
      settings,
      logger,
      store,
      box,
      shared,
      apiKeys,
      providers,
      demo,
      metrics,
      ...(setupCode ? { setupCode } : {}),
      async close() {
        await apiKeys.settle();
        for (const close of closers.reverse()) await close().catch((error) => logger.warn({ err: error }, 'error while closing'));
      },
    };
  } catch (error) {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    throw error;
  }
}

/**
 * First start without an owner (and sign-up not closed): a one-time setup code goes to the log, and /setup needs it,
 * so whoever reaches a fresh server first cannot claim it. Every instance prints its own; any of them works.
 */
async function announceSetupCode(store: Store, settings: Settings, publicUrl: string, clock: () => Date, logger: Logger): Promise<string | undefined> {
  if (settings.SIGNUP === 'closed' || (await countAccounts(store.db)) > 0) return undefined;
  const code = await issueSetupCode(store.db, clock());
  logger.warn(`First run: open ${publicUrl}/setup and enter the setup code ${code} to create the owner account (or run siteline accounts create --owner).`);
  return code;
}

/** The generated key lives in DATA_DIR: a directory that cannot take it is a first-run error with the fix. */
function loadSecretKeyOrExplain(settings: Settings): Buffer {
  try {
    return loadSecretKey(settings);
  } catch (error) {
    if (typeof (error as { code?: unknown }).code === 'string' && (error as { syscall?: unknown }).syscall !== undefined) {
      throw unusableDataDir(resolve(settings.DATA_DIR), 'DATA_DIR', error);
    }
    throw error;
  }
}

/** Revocation reaches every instance: this process publishes, every process drops the key from its cache. */
async function wireKeyRevocation(apiKeys: ApiKeyService, shared: SharedState): Promise<void> {
  apiKeys.onInvalidate((keyId) => void shared.bus.publish(BUS_CHANNELS.apiKeyRevoked, { keyId }));
  await shared.bus.subscribe(BUS_CHANNELS.apiKeyRevoked, (message) => {
    const keyId = (message as { keyId?: unknown }).keyId;
    if (typeof keyId === 'string') apiKeys.invalidate(keyId);
  });
}

/** A catalogue write or a key revocation on any instance drops, on every instance, the kept answers it changes. */
async function wireCacheInvalidation(cache: ResponseCache, shared: SharedState): Promise<void> {
  await shared.bus.subscribe(BUS_CHANNELS.catalogueChanged, (message) => cache.drop(answersChangedByWrite(message)));
  await shared.bus.subscribe(BUS_CHANNELS.apiKeyRevoked, (message) => cache.drop(answersOfRevokedKey(message)));
}

function limitRequest(shared: SharedState, principal: Principal): Decided<Record<string, string>> {
  const quota = principal.rateLimitPerMinute;
  const allowance = shared.limits.consumeRequest(principal.credentialId, quota === undefined ? undefined : keyLimitOverride(quota));
  return allowance instanceof Promise ? allowance.then(headersOf) : allowance.headers;
}

const headersOf = (allowance: { headers: Record<string, string> }) => allowance.headers;

const keyLimitOverrides = new Map<number, KeyLimitOverride>();
/**
 * A key's own limit scales its burst the way the default does (600/min with bursts of 60 per second), but a burst
 * below 10 per second protects nothing: a small quota may arrive at once rather than be refused early.
 */
function keyLimitOverride(quota: number): KeyLimitOverride {
  let override = keyLimitOverrides.get(quota);
  if (override === undefined) keyLimitOverrides.set(quota, (override = { quota, burst: Math.max(Math.min(quota, 10), Math.ceil(quota / 10)) }));
  return override;
}

/** A database that does not answer a trivial query this fast is reported down (/readyz answers within a second). */
const READINESS_DB_TIMEOUT_MS = 800;

async function readiness(store: Store, shared: SharedState, logger: Logger): Promise<HealthReport> {
  const checks: HealthReport['checks'] = {};
  try {
    const probe = store.db.selectFrom('projects').select('id').limit(1).execute();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('database check timed out')), READINESS_DB_TIMEOUT_MS)));
    probe.catch(() => undefined); // a late failure after the timeout has nobody else to hear it
    await Promise.race([probe, late]).finally(() => clearTimeout(timer));
    checks.database = { status: 'ok' };
  } catch (error) {
    // The driver's message can name hosts and users: it goes to the log, not to an unauthenticated caller.
    logger.warn({ err: error }, 'readiness: database check failed');
    checks.database = { status: 'down', detail: 'the database does not answer' };
  }
  const cache = shared.health();
  checks.cache = { status: cache.status, ...(cache.detail ? { detail: cache.detail } : {}) };
  const statuses = Object.values(checks).map((c) => c.status);
  return { status: statuses.includes('down') ? 'down' : statuses.includes('degraded') ? 'degraded' : 'ok', checks };
}
