// The shape of one REST endpoint: path, allowed query parameters, how inputs become operation variables,
// and how the operation's data becomes the response body. No logic beyond that lives in a route.
import type { Scope } from '../auth/scopes.ts';

export interface RestInput {
  params: Record<string, string>;
  query: URLSearchParams;
  body?: unknown;
  headers: Headers;
}

export interface RestRoute {
  method: 'GET' | 'POST';
  /** h3/rou3 pattern, e.g. `/api/v1/projects/:projectKey`. */
  path: string;
  /** Name of the stored operation in schema/operations. */
  operation: string;
  /** Query parameters this route accepts; any other one is a 400 naming it. */
  query: readonly string[];
  scope?: Scope;
  /** Parses and validates the inputs (throws AppError) into the operation's variables. */
  variables(input: RestInput): Record<string, unknown>;
  /** Turns the operation's data into the response body. */
  result(data: Record<string, unknown>, input: RestInput): unknown;
  /** Rows for `format=csv`, when the route supports it. */
  csvRows?(body: unknown): Record<string, unknown>[];
  /** OpenAPI text. */
  summary: string;
  description?: string;
  tags: string[];
}

export function defineRestRoute(route: RestRoute): RestRoute {
  return route;
}
