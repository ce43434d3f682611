// /api/graphql for internal tools: the same schema and auth as REST, masked unexpected errors, depth and cost
// limits; GraphiQL (bundled, works offline) only when enabled for development.
import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { getOperationAST, GraphQLError } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import type { H3 } from 'h3';
import type { AppDeps } from '../app-deps.ts';
import { requireScope, type Principal } from '../auth/principal.ts';
import { isAppError } from '../errors/app-error.ts';
import { clientIpOf } from '../http/client-ip.ts';
import { addResponseHeaders, requestIdOf } from '../http/request-context.ts';
import { PORTFOLIO_QUERY } from './portfolio-query.ts';

export const GRAPHQL_PATH = '/api/graphql';
// Aliases are capped because each aliased report field can be a separate upstream call for one rate-limit token.
export const GRAPHQL_LIMITS = { maxDepth: 12, maxCost: 5000, maxAliases: 10 } as const;

interface ServerContext {
  principal: Principal;
  requestId: string;
}

export function mountGraphql(app: H3, deps: AppDeps & { graphiql?: boolean }): void {
  const yoga = createYoga<ServerContext>({
    schema: deps.schema,
    graphqlEndpoint: GRAPHQL_PATH,
    landingPage: false,
    graphiql: deps.graphiql ? { title: 'Siteline GraphQL', headers: '{"Authorization": "Bearer <your API key>"}', defaultQuery: PORTFOLIO_QUERY } : false,
    renderGraphiQL,
    logging: false,
    // Native fetch classes, so h3 passes Yoga's responses through instead of serialising a ponyfill object.
    fetchAPI: { Request, Response, Headers, ReadableStream, URL, URLSearchParams, TextEncoder, TextDecoder, Blob, FormData, File, fetch },
    context: ({ principal, requestId }) => deps.createContext(principal, requestId),
    cors: false,
    plugins: [
      maxDepthPlugin({ n: GRAPHQL_LIMITS.maxDepth }),
      costLimitPlugin({ maxCost: GRAPHQL_LIMITS.maxCost }),
      maxAliasesPlugin({ n: GRAPHQL_LIMITS.maxAliases }),
      readOnlyPlugin(),
    ],
    maskedErrors: {
      maskError(error, message) {
        const original = rootCause(error);
        if (isAppError(original)) {
          return new GraphQLError(original.message, {
            nodes: (error as GraphQLError).nodes,
            path: (error as GraphQLError).path,
            extensions: {
              code: original.code,
              status: original.status,
              ...(original.param ? { param: original.param } : {}),
              // An outage of our own database fails the whole response: HTTP 503 with the problem's Retry-After.
              ...(original.code === 'dependency_unavailable' ? { http: { status: original.status, headers: original.headers } } : {}),
            },
          });
        }
        if (error instanceof GraphQLError && !error.originalError) return error; // validation/parse errors are the caller's
        deps.logger.error({ err: original }, 'unexpected GraphQL error');
        return new GraphQLError(message, { extensions: { code: 'internal_error' } });
      },
    },
  });

  app.all(GRAPHQL_PATH, async (event) => {
    const request = event.req;
    if (deps.graphiql && request.method === 'GET' && (request.headers.get('accept') ?? '').includes('text/html')) {
      return yoga.fetch(request, { principal: undefined as never, requestId: requestIdOf(event) });
    }
    const principal = await deps.authenticate(request, clientIpOf(event));
    addResponseHeaders(event, await deps.limitRequest(principal));
    requireScope(principal, 'read');
    return yoga.fetch(request, { principal, requestId: requestIdOf(event) });
  });
}

/** The error behind GraphQL's wrappers (a variable's scalar error arrives wrapped twice). */
function rootCause(error: unknown): unknown {
  let cause = error instanceof GraphQLError ? error.originalError : error;
  while (cause instanceof GraphQLError && cause.originalError) cause = cause.originalError;
  return cause;
}

/**
 * /api/graphql only reads: the one mutation (createFunnel) is reserved for MCP's confirmed flow, which runs its
 * stored operation in-process after verifying a confirmation token.
 */
function readOnlyPlugin(): Plugin {
  return {
    onExecute({ args }) {
      const operation = getOperationAST(args.document, args.operationName ?? undefined);
      if (operation?.operation === 'mutation') {
        throw new GraphQLError('Mutations are not available on /api/graphql; funnels are created through MCP (create_funnel) after confirmation.', {
          extensions: { code: 'insufficient_scope', status: 403 },
        });
      }
    },
  };
}
