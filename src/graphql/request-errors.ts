// Mistakes in a GraphQL request itself, found before any field runs: a variable whose value does not fit its type,
// and a document past the limits. Both are the caller's: a code and a message that says what is wrong, HTTP 400
// under `application/graphql-response+json` (200 under `application/json`, as GraphQL over HTTP has it), logged
// at info — never `internal_error`, never a 500, never "Syntax Error" for a query that parsed.
import { GraphQLError, Kind, type ValidationContext } from 'graphql';
import { isAppError } from '../errors/app-error.ts';

/** The document is deeper, has more aliases or a higher static cost than the limits allow. */
export const QUERY_TOO_COMPLEX = 'query_too_complex';

/** What makes GraphQL Yoga answer 400 under application/graphql-response+json and 200 under application/json. */
const REQUEST_ERROR_HTTP = { spec: true, status: 400 };

export type QueryLimit = 'depth' | 'aliases' | 'cost';

/**
 * graphql-armor's onReject handler for one limit: the rejection is reported as a validation error of ours (armor
 * would throw its own, without a code, worded "Syntax Error: …").
 */
export function reportLimit(limit: QueryLimit, max: number): (context: ValidationContext | null, error: GraphQLError) => void {
  return (context, error) => context?.reportError(limitError(limit, max, Number(/found (\d+)/.exec(error.message)?.[1])));
}

function limitError(limit: QueryLimit, max: number, found: number): GraphQLError {
  const known = Number.isFinite(found);
  const what: Record<QueryLimit, string> = {
    depth: `is nested ${known ? `${found} levels` : 'too'} deep; at most ${max} levels are allowed`,
    aliases: `uses ${known ? found : 'too many'} aliases; at most ${max} are allowed (each aliased report field can be another upstream call)`,
    cost: `has a static cost of ${known ? found : `more than ${max}`}; at most ${max} is allowed: ask for fewer fields or projects`,
  };
  return new GraphQLError(`The query ${what[limit]}.`, { extensions: { code: QUERY_TOO_COMPLEX, limit, max, ...(known ? { found } : {}), http: REQUEST_ERROR_HTTP } });
}

/**
 * A variable's value that does not fit its type (graphql-js reports it on the variable's definition): an enum value
 * that does not exist, a string for an Int, an input object with a wrong field, a Period that is not one. A scalar
 * of ours that refused the value with an AppError keeps that error's code, message and parameter; anything else is
 * `invalid_parameter` naming the variable, with graphql-js's message (which says what was expected).
 */
export function variableError(error: GraphQLError, root: unknown): GraphQLError | undefined {
  const node = error.nodes?.[0];
  if (node?.kind !== Kind.VARIABLE_DEFINITION) return undefined;
  const variable = node.variable.name.value;
  if (isAppError(root)) {
    return new GraphQLError(root.message, {
      nodes: error.nodes,
      originalError: root,
      extensions: { code: root.code, status: root.status, param: root.param ?? variable, http: REQUEST_ERROR_HTTP },
    });
  }
  return new GraphQLError(error.message, { nodes: error.nodes, extensions: { code: 'invalid_parameter', status: 400, param: variable, http: REQUEST_ERROR_HTTP } });
}

/** A request error (above) or a field refused for the caller's own doing: said at info, not logged as a failure. */
export function isClientError(error: Error): boolean {
  if (!(error instanceof GraphQLError)) return false;
  const status = (error.extensions.http as { status?: number } | undefined)?.status ?? error.extensions.status;
  return typeof status === 'number' && status < 500;
}
