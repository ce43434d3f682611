// /api/graphql for internal tools: the same schema and auth as REST, and the pipeline's limits and error masking
// (./pipeline.ts, shared with the stored operations); GraphiQL (bundled, works offline) only when enabled for
// development.
import { getOperationAST, GraphQLError } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import type { H3 } from 'h3';
import type { AppDeps } from '../app-deps.ts';
import { requireScope, type Principal } from '../auth/principal.ts';
import { clientIpOf } from '../http/client-ip.ts';
import { addResponseHeaders, requestIdOf } from '../http/request-context.ts';
import { isMaskedUnexpected, limitPlugins, maskGraphqlError } from './pipeline.ts';
import { PORTFOLIO_QUERY } from './portfolio-query.ts';

export const GRAPHQL_PATH = '/api/graphql';

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
    // Loaded on the first GraphiQL page: its bundle is ~9 MB of source, about 30 MB of heap in every process otherwise.
    renderGraphiQL: async (options) => (await import('@graphql-yoga/render-graphiql')).renderGraphiQL(options),
    logging: false,
    // Native fetch classes, so h3 passes Yoga's responses through instead of serialising a ponyfill object.
    fetchAPI: { Request, Response, Headers, ReadableStream, URL, URLSearchParams, TextEncoder, TextDecoder, Blob, FormData, File, fetch },
    context: ({ principal, requestId }) => deps.createContext(principal, requestId),
    cors: false,
    plugins: [...limitPlugins(), readOnlyPlugin()],
    maskedErrors: {
      maskError(error, message) {
        const masked = maskGraphqlError(error, message);
        if (isMaskedUnexpected(masked)) deps.logger.error({ err: error instanceof GraphQLError ? error.originalError : error }, 'unexpected GraphQL error');
        return masked;
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
