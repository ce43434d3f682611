// Runs one REST request along the single path: authenticate → limit → scope → parse → stored operation → shape.
// Each step that can answer at once does, so a warm repeat stays synchronous from the request to its bytes.
import type { H3Event } from 'h3';
import { requireScope, type Principal } from '../auth/principal.ts';
import { invalidParameter } from '../errors/app-error.ts';
import { clientIpOf } from '../http/client-ip.ts';
import { addResponseHeaders, preparedResponse } from '../http/request-context.ts';
import { JSON_TYPE } from '../http/responses.ts';
import type { AppDeps } from '../app-deps.ts';
import { runEndpointWithFreshness } from '../operations/run-endpoint.ts';
import { PATH_PARAMETER_NAMES } from '../contract/parameters.ts';
import type { RestRoute } from './rest-route.ts';
import { CSV_TYPE, toCsv, wantsCsv } from './csv.ts';
import { cacheHeaders, cacheHeadersOf } from './cache-headers.ts';
import { answerSlot, cachedAnswerOf } from './response-cache.ts';

/**
 * Answers with a prepared response: the body text and plain headers, sent without a `Headers` object. A repeat of
 * a recent GET by a key this process knows is answered at once: no promise between the request and its bytes.
 */
export function runRestRoute(route: RestRoute, event: H3Event, deps: AppDeps, requestId: string): Response | Promise<Response> {
  const principal = deps.authenticate(event.req, clientIpOf(event));
  if (principal instanceof Promise) return principal.then((known) => runLimited(route, event, deps, requestId, known));
  return runLimited(route, event, deps, requestId, principal);
}

function runLimited(route: RestRoute, event: H3Event, deps: AppDeps, requestId: string, principal: Principal): Response | Promise<Response> {
  const limitHeaders = deps.limitRequest(principal);
  if (limitHeaders instanceof Promise) return limitHeaders.then((headers) => runAllowed(route, event, deps, requestId, principal, headers));
  return runAllowed(route, event, deps, requestId, principal, limitHeaders);
}

function runAllowed(route: RestRoute, event: H3Event, deps: AppDeps, requestId: string, principal: Principal, limitHeaders: Record<string, string>): Response | Promise<Response> {
  addResponseHeaders(event, limitHeaders);
  requireScope(principal, route.scope ?? 'read');

  const query = queryOf(event.url);
  assertKnownQuery(query, route);
  const csv = route.csvRows !== undefined && wantsCsv(query, event.req.headers);
  const variables: Record<string, unknown> = { ...pathVariables(event.context.params), ...queryVariables(query, route) };
  const slot = route.method === 'GET' ? answerSlot(principal.credentialId, csv ? 'csv' : 'json', route, variables) : undefined;
  const cached = slot?.serve ? deps.responseCache.get(slot.key) : undefined;
  if (cached) return answer(event, cached.body, cached.contentType, hitHeaders(cached.fetchedAt, deps.clock()));
  return runOperation(route, event, deps, requestId, principal, variables, { csv, cacheKey: slot?.key });
}

/** Runs the stored operation and keeps its answer for the repeats. */
async function runOperation(
  route: RestRoute,
  event: H3Event,
  deps: AppDeps,
  requestId: string,
  principal: Principal,
  variables: Record<string, unknown>,
  { csv, cacheKey }: { csv: boolean; cacheKey: string | undefined },
): Promise<Response> {
  if (route.bodyVariable) variables[route.bodyVariable] = await deps.readJsonBody(event.req);
  const builtAt = deps.responseCache.version();
  const { body, freshUntil } = await runEndpointWithFreshness(deps, principal, requestId, route, variables);
  const headers = cacheHeadersOf(body, deps.clock());
  if (route.respond) return route.respond(body, headers);
  const csvText = csv ? toCsv(route.csvRows!(body)) : undefined;
  if (cacheKey !== undefined) deps.responseCache.set(cacheKey, cachedAnswerOf(body, csvText), freshUntil, builtAt);
  return csvText === undefined ? answer(event, JSON.stringify(body), JSON_TYPE, headers) : answer(event, csvText, CSV_TYPE, headers);
}

function answer(event: H3Event, body: string | Uint8Array<ArrayBuffer>, contentType: string, headers: Record<string, string>): Response {
  return preparedResponse(event, body, { 'content-type': contentType, 'cache-control': 'private, no-store', ...headers });
}

/** A hit of an answer with provider data says so (Cache-Status, Age); one without (projects, funnels) looks as it did. */
function hitHeaders(fetchedAt: number, now: Date): Record<string, string> {
  if (Number.isNaN(fetchedAt)) return {};
  return cacheHeaders('hit', fetchedAt, now);
}

const NO_QUERY = new URLSearchParams();
/** A URL without a query shares one empty set (only ever read): building Node's URLSearchParams costs a warm answer about 0.4 µs. */
function queryOf(url: URL): URLSearchParams {
  return url.search === '' ? NO_QUERY : url.searchParams;
}

/** `format` is shared by every route that offers CSV; anything else must be declared by the route. Every unknown name is reported at once. */
function assertKnownQuery(query: URLSearchParams, route: RestRoute): void {
  const known = knownQueryOf(route);
  let allKnown = true;
  for (const name of query.keys()) if (!known.has(name)) allKnown = false;
  if (allKnown) return;
  const unknown = [...new Set(query.keys())].filter((name) => !known.has(name));
  const allowed = known.size ? `Allowed: ${[...known].join(', ')}.` : 'This endpoint takes no query parameters.';
  const names = unknown.map((name) => `'${name}'`).join(', ');
  const errors = unknown.map((name) => ({ param: name, code: 'unknown_parameter', message: `Unknown query parameter '${name}'.` }));
  throw invalidParameter(unknown[0]!, `Unknown query parameter${unknown.length > 1 ? 's' : ''} ${names}. ${allowed}`, errors);
}

const knownQueries = new WeakMap<RestRoute, ReadonlySet<string>>();
/** The query names a route accepts, built once per route. */
function knownQueryOf(route: RestRoute): ReadonlySet<string> {
  let known = knownQueries.get(route);
  if (known === undefined) knownQueries.set(route, (known = new Set<string>(route.csvRows ? [...route.query, 'format'] : route.query)));
  return known;
}

function pathVariables(params: Record<string, string> | undefined): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const name in params) variables[PATH_PARAMETER_NAMES[name] ?? name] = safeDecode(params[name]!);
  return variables;
}

/** A repeated parameter is ambiguous: the last one wins, as most HTTP stacks do. */
function queryVariables(query: URLSearchParams, route: RestRoute): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const name of route.query) {
    const value = query.getAll(name).at(-1);
    if (value !== undefined) variables[name] = value;
  }
  return variables;
}

function safeDecode(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
