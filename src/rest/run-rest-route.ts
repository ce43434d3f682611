// Runs one REST request along the single path: authenticate → limit → scope → parse → stored operation → shape.
import type { H3Event } from 'h3';
import { requireScope } from '../auth/principal.ts';
import { invalidParameter } from '../errors/app-error.ts';
import { clientIpOf } from '../http/client-ip.ts';
import { jsonResponse } from '../http/responses.ts';
import type { AppDeps } from '../app-deps.ts';
import { runEndpoint } from '../operations/run-endpoint.ts';
import { PATH_PARAMETER_NAMES } from '../contract/parameters.ts';
import type { RestRoute } from './rest-route.ts';
import { wantsCsv, csvResponse } from './csv.ts';
import { cacheHeadersOf } from './cache-headers.ts';

export async function runRestRoute(route: RestRoute, event: H3Event, deps: AppDeps, requestId: string): Promise<Response> {
  const request = event.req;
  const principal = await deps.authenticate(request, clientIpOf(event));
  const limitHeaders = await deps.limitRequest(principal);
  event.context.responseHeaders = limitHeaders;
  requireScope(principal, route.scope ?? 'read');

  const url = new URL(request.url);
  assertKnownQuery(url.searchParams, route);
  const variables: Record<string, unknown> = { ...pathVariables(event.context.params), ...queryVariables(url.searchParams, route) };
  if (route.bodyVariable) variables[route.bodyVariable] = await deps.readJsonBody(request);

  const body = await runEndpoint(deps, principal, requestId, route, variables);
  const headers = { ...limitHeaders, ...cacheHeadersOf(body, deps.clock()) };
  if (route.respond) return route.respond(body, headers);
  if (route.csvRows && wantsCsv(url.searchParams, request.headers)) return csvResponse(route.csvRows(body), headers);
  return jsonResponse(body, { headers });
}

/** `format` is shared by every route that offers CSV; anything else must be declared by the route. */
function assertKnownQuery(query: URLSearchParams, route: RestRoute): void {
  for (const name of new Set(query.keys())) {
    if (name === 'format' && route.csvRows) continue;
    if (!(route.query as readonly string[]).includes(name)) {
      const allowed = route.query.length ? `Allowed: ${[...route.query, ...(route.csvRows ? ['format'] : [])].join(', ')}.` : 'This endpoint takes no query parameters.';
      throw invalidParameter(name, `Unknown query parameter '${name}'. ${allowed}`);
    }
  }
}

function pathVariables(params: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(params ?? {}).map(([name, value]) => [PATH_PARAMETER_NAMES[name] ?? name, safeDecode(value)]));
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
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
