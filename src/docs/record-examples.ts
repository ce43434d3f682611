// Records one real answer per REST operation from a running Siteline (the demo), for the OpenAPI document's
// response examples and the docs page. Lists are cut to their first few items so the examples stay readable.
import { REQUEST_SCHEMAS } from '../openapi/response-schemas.ts';
import type { RestRoute } from '../rest/rest-route.ts';

/** The demo's own names, so every example request works against `npm start`. */
export const EXAMPLE_ARGUMENTS = { projectKey: 'acme-shop', dimension: 'country', period: '28days', limit: '3' } as const;
const MAX_ITEMS = 3;

export type Fetch = (path: string, init?: RequestInit) => Promise<Response>;

/** The request an example answer is recorded from: the route with the demo's project and funnel. */
export function exampleRequestOf(route: RestRoute, funnelKey: string): { path: string; init: RequestInit } {
  const path = route.path.replace(':projectKey', EXAMPLE_ARGUMENTS.projectKey).replace(':funnelKey', funnelKey);
  const query = new URLSearchParams();
  for (const name of ['dimension', 'limit'] as const) if (route.query.includes(name)) query.set(name, EXAMPLE_ARGUMENTS[name]);
  const url = query.size ? `${path}?${query}` : path;
  if (route.method === 'GET') return { path: url, init: {} };
  return { path: url, init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(REQUEST_SCHEMAS[route.operation]?.example ?? {}) } };
}

export async function recordExamples(routes: readonly RestRoute[], fetch: Fetch, funnelKey: string): Promise<Record<string, unknown>> {
  const examples: Record<string, unknown> = {};
  for (const route of routes) {
    const { path, init } = exampleRequestOf(route, funnelKey);
    const res = await fetch(path, init);
    if (res.status !== 200) throw new Error(`${route.method} ${path} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    examples[route.operation] = shorten(await res.json());
  }
  return examples;
}

/** Every list cut to its first few items, recursively. */
export function shorten(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map(shorten);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, shorten(child)]));
}

/**
 * The structure of a value (keys and types, not values): what the drift check compares. Freshness (`meta`) and
 * nulls (a number without data, e.g. a position without impressions) vary from day to day and are left out.
 */
export function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length ? [shapeOf(value[0])] : [];
  if (value === null) return 'number';
  if (typeof value === 'object' && 'meta' in value) {
    const { meta: _meta, ...rest } = value as Record<string, unknown>;
    return shapeOf(rest);
  }
  if (typeof value !== 'object') return typeof value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([key, child]) => [key, shapeOf(child)]));
}
