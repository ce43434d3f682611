// Everything the HTTP app needs, created once per process (src/main.ts or a test) and injected.
import type { Logger } from './logging/logger.ts';
import type { Principal } from './auth/principal.ts';
import type { Decided } from './limits/limiter.ts';
import type { GraphQLSchema } from 'graphql';
import type { WebDeps } from './account/web-deps.ts';
import type { DashboardDeps } from './dashboard/dashboard-deps.ts';
import type { ResponseCache } from './rest/response-cache.ts';
import type { Metrics } from './observability/metrics.ts';
import type { OperationRunner } from './operations/execute.ts';

export interface HealthReport {
  status: 'ok' | 'degraded' | 'down';
  checks: Record<string, { status: 'ok' | 'degraded' | 'down'; detail?: string }>;
}

export interface AppDeps extends OperationRunner {
  logger: Logger;
  clock: () => Date;
  publicUrl: string;
  /** The public schema /api/graphql serves (the stored operations run against the full one). */
  schema: GraphQLSchema;
  /**
   * The Principal of a request's Bearer credential: at once for a key this process verified lately, else a promise;
   * a refusal (401/429 AppError) is always a rejection.
   */
  authenticate(request: Request, ip: string): Decided<Principal>;
  /** Applies the caller's request limit: the RateLimit headers (at once when counted in memory), or a rejection with 429. */
  limitRequest(principal: Principal): Decided<Record<string, string>>;
  readJsonBody(request: Request): Promise<unknown>;
  /** The REST facade's per-credential micro-cache of recent GET answers. */
  responseCache: ResponseCache;
  readiness(): Promise<HealthReport>;
  /** The OAuth authorization server and the account pages (absent in apps built without them). */
  web?: WebDeps;
  /** The dashboard pages (absent in apps built without them). */
  dashboard?: DashboardDeps;
  /** Whether a stored operation of that name exists (facades check their tables at boot). */
  hasOperation(name: string): boolean;
  /** A 32-byte key for one purpose, derived from the app secret (HKDF; `purpose` names the use). */
  deriveKey(purpose: string): Buffer;
  /** Exact browser origins allowed by CORS (setting CORS_ORIGINS). */
  corsOrigins: readonly string[];
  /** Prometheus metrics of this runtime; absent when METRICS_ENABLED is false. */
  metrics?: Metrics;
  /** Whether this app serves GET /metrics (false when METRICS_PORT moves it to a port of its own). */
  metricsRoute?: boolean;
}
