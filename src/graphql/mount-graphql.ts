// /api/graphql for internal tools: the same schema and auth as REST; Yoga (./yoga-server.ts) is loaded with the
// first request to this path — about 8 MiB of heap a process serving only REST and MCP never needs.
import type { H3 } from 'h3';
import type { AppDeps } from '../app-deps.ts';
import { requireScope } from '../auth/principal.ts';
import { clientIpOf } from '../http/client-ip.ts';
import { jsonTextTooDeep, tooDeeplyNested } from '../http/json-nesting.ts';
import { BODY_LIMITS, isJsonMediaType, readBodyBytes } from '../http/read-body.ts';
import { addResponseHeaders, requestIdOf } from '../http/request-context.ts';
import type { GraphqlServer } from './yoga-server.ts';

export const GRAPHQL_PATH = '/api/graphql';

export function mountGraphql(app: H3, deps: AppDeps & { graphiql?: boolean }): void {
  let yoga: GraphqlServer | undefined;
  let loading: Promise<GraphqlServer> | undefined;
  const loadYoga = () => (loading ??= import('./yoga-server.ts').then((module) => (yoga = module.createGraphqlServer(deps, GRAPHQL_PATH))));

  app.all(GRAPHQL_PATH, async (event) => {
    const request = event.req;
    const server = yoga ?? (await loadYoga());
    if (deps.graphiql && request.method === 'GET' && (request.headers.get('accept') ?? '').includes('text/html')) {
      return server.fetch(request, { principal: undefined as never, requestId: requestIdOf(event) });
    }
    const principal = await deps.authenticate(request, clientIpOf(event));
    addResponseHeaders(event, await deps.limitRequest(principal));
    requireScope(principal, 'read');
    return server.fetch(await withCappedBody(request), { principal, requestId: requestIdOf(event) });
  });
}

/**
 * Yoga reads a body however large it is; so the body is read here, by the one body reader under the GraphQL cap
 * and with the JSON nesting limit, and Yoga gets a request holding those bytes.
 */
async function withCappedBody(request: Request): Promise<Request> {
  if (request.method === 'GET' || request.method === 'HEAD') return request;
  const bytes = await readBodyBytes(request, BODY_LIMITS.graphql);
  if (isJsonMediaType(request) && jsonTextTooDeep(new TextDecoder().decode(bytes))) throw tooDeeplyNested();
  return new Request(request.url, { method: request.method, headers: request.headers, body: bytes, signal: request.signal });
}
