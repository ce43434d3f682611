// Raw provider proxies: `{project_key, path, body}` → the provider's native JSON, unchanged. Everything
// is checked before any upstream call — the raw scope, the project, the connection, and the path against strict
// patterns bound to the project's own property or site — and the upstream URL is rebuilt from constants by the
// provider client (no redirects, no caller headers). Answers are cached like other reads, keyed on the exact body.
import { requireScope } from '../auth/principal.ts';
import { freshnessFor } from '../cache/ttl-policy.ts';
import { parseForce } from '../domain/request-params.ts';
import { spendForce } from './force-refresh.ts';
import type { Source } from '../domain/sources.ts';
import { AppError, invalidParameter } from '../errors/app-error.ts';
import type { ReportDeps } from './report-deps.ts';
import { openCredential, trackUpstream, type ConnectedSource } from '../loaders/connected-source.ts';
import { requireProject, requireSource } from './project-lookup.ts';
import { buildMeta, type Meta } from './meta.ts';
import { metadataPolicy } from '../cache/upstream-policy.ts';
import { toRawAnalyticsPath } from '../providers/analytics/raw-path.ts';
import { toRawEngine1Path } from '../providers/engine1/raw-path.ts';
import { toRawEngine2Path } from '../providers/engine2/raw-path.ts';
import type { RawResponse } from '../providers/raw-response.ts';
import { toCacheKey } from '../cache/cache-key.ts';
import { jsonValueTooDeep, tooDeeplyNested } from '../http/json-nesting.ts';
import { BODY_LIMITS } from '../http/read-body.ts';

export const RAW_PROVIDERS = ['analytics', 'engine1', 'engine2'] as const satisfies readonly Source[];
export type RawProvider = (typeof RAW_PROVIDERS)[number];

/** Largest proxy request, the same on every surface: REST refuses a longer body, GraphQL a larger `request`. */
export const RAW_BODY_LIMIT = BODY_LIMITS.json;

/** Longest accepted `path` (a site URL can be long; nothing legitimate comes close). */
const MAX_PATH = 2048;

export interface RawProxyArgs {
  provider: string;
  request?: unknown;
  force?: string | null;
}

export interface RawProxyResult {
  status: number;
  contentType: string;
  /** The provider's body text, byte for byte. */
  body: string;
  meta: Meta;
}

interface RawCall {
  projectKey: string;
  path: string;
  body: unknown;
}

/** The proxy body `{project_key, path, body?}`; `body` must be a JSON object when present. */
export function parseRawCall(input: unknown): RawCall {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw invalidParameter('body', 'Send a JSON object: {"project_key": "...", "path": "...", "body": {...}}.');
  }
  // Measured only once the depth is known to be sane: JSON.stringify recurses, and overflows on deep nesting.
  if (jsonValueTooDeep(input)) throw tooDeeplyNested();
  if (Buffer.byteLength(JSON.stringify(input)) > RAW_BODY_LIMIT) {
    throw new AppError('payload_too_large', `The request exceeds ${RAW_BODY_LIMIT / 1024} KiB.`);
  }
  const { project_key: projectKey, path, body, ...rest } = input as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) throw invalidParameter(extra.slice(0, 50), `Unknown field "${extra.slice(0, 50)}"; the proxy takes project_key, path and body.`);
  if (typeof projectKey !== 'string' || projectKey === '') throw invalidParameter('project_key', 'project_key must be a project key string.');
  if (typeof path !== 'string' || path === '') throw invalidParameter('path', 'path must be a non-empty string.');
  if (path.length > MAX_PATH) throw invalidParameter('path', `path is longer than ${MAX_PATH} characters.`);
  if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
    throw invalidParameter('body', 'body must be a JSON object (the provider request), or left out.');
  }
  return { projectKey, path, body: body ?? undefined };
}

function toRawProvider(value: string): RawProvider {
  const found = RAW_PROVIDERS.find((p) => p === value);
  if (!found) throw invalidParameter('provider', `Unknown raw proxy provider "${value.slice(0, 50)}"; use ${RAW_PROVIDERS.join(', ')}.`);
  return found;
}

/** The upstream verb follows from the path: the providers' read methods are fixed. */
function methodOf(provider: RawProvider, path: string): 'GET' | 'POST' {
  if (provider === 'engine2') return 'GET';
  if (provider === 'analytics') return path.endsWith('/metadata') ? 'GET' : 'POST';
  return path.endsWith('/sitemaps') ? 'GET' : 'POST';
}

/** Throws the 400/404 for a path that is not allowed for this data source; pure, no upstream call. */
function assertAllowedPath(provider: RawProvider, cs: ConnectedSource, method: string, call: RawCall): string {
  switch (provider) {
    case 'analytics':
      return toRawAnalyticsPath(method, call.path, cs.record.propertyId ?? '').operation;
    case 'engine1':
      return toRawEngine1Path(method, call.path, cs.record.siteUrl ?? '', call.body).operation;
    case 'engine2':
      return toRawEngine2Path(method, call.path, cs.record.siteUrl ?? '').operation;
  }
}

export async function rawProxy(ctx: ReportDeps, args: RawProxyArgs): Promise<RawProxyResult> {
  requireScope(ctx.principal, 'raw');
  const provider = toRawProvider(args.provider);
  const call = parseRawCall(args.request);
  const force = parseForce(args.force ?? undefined);
  const project = await requireProject(ctx, call.projectKey);
  const cs = await requireSource(ctx, project, provider);
  const method = methodOf(provider, call.path);
  const operation = assertAllowedPath(provider, cs, method, call);
  if (force) await spendForce(ctx.services, project, ctx);

  const now = ctx.services.clock();
  const policy = operation === 'metadata' ? metadataPolicy(now) : freshnessFor({ kind: 'report' }, now.getTime());
  const result = await ctx.cachedFetch<Pick<RawResponse, 'status' | 'body'>>({
    key: toCacheKey({ operation: `raw.${provider}`, source: cs.sourceId, credential: cs.credentialId, request: { method, path: call.path, body: JSON.stringify(call.body ?? null) } }),
    source: cs.sourceId,
    policy,
    force,
    load: async () => {
      const answer = await trackUpstream(ctx, cs, () => send(ctx, cs, provider, method, call));
      return { status: answer.status, body: answer.body };
    },
  });
  return {
    status: result.value.status,
    contentType: 'application/json; charset=utf-8',
    body: result.value.body,
    meta: buildMeta({ results: [result], sources: [provider], now }),
  };
}

async function send(ctx: ReportDeps, cs: ConnectedSource, provider: RawProvider, method: string, call: RawCall): Promise<RawResponse> {
  const credential = await openCredential(ctx, cs);
  const { providers } = ctx.services;
  switch (provider) {
    case 'analytics':
      return providers.analytics(credential.secret, cs.record.propertyId ?? '').rawRequest(method, call.path, call.body);
    case 'engine1':
      return providers.engine1(credential.secret, cs.record.siteUrl ?? '').rawRequest(method, call.path, call.body);
    case 'engine2':
      return providers.engine2(credential.secret, cs.record.siteUrl ?? '').rawRequest(method, call.path);
  }
}
