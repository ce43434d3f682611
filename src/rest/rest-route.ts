// The shape of one REST endpoint: path, the contract parameters it takes, the stored operation it runs and which
// part of the operation's data is the body. Parameters reach the operation as the raw strings the caller sent;
// the resolvers parse them, so REST, MCP and GraphQL give the same answers and the same errors.
import type { Scope } from '../auth/scopes.ts';
import type { ParameterName } from '../contract/parameters.ts';

export interface RestRoute {
  method: 'GET' | 'POST';
  /** h3/rou3 pattern with `:projectKey` / `:funnelKey`, e.g. `/api/v1/projects/:projectKey`. */
  path: string;
  /** Name of the stored operation in schema/operations. */
  operation: string;
  /** Query parameters this route accepts (any other one is a 400 naming it). */
  query: readonly ParameterName[];
  /** Root field of the operation's data that is the body; absent: the whole data object. */
  field?: string;
  scope?: Scope;
  /** POST routes: the JSON body becomes this variable. */
  bodyVariable?: string;
  /** Builds the response from the body instead of JSON-serialising it (raw proxies pass provider bytes through). */
  respond?(body: unknown, headers: Record<string, string>): Response;
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
