// Yoga serving the public schema at /api/graphql: the pipeline's limits and error masking (./pipeline.ts, shared with
// the stored operations), GraphiQL (bundled, works offline) only when enabled for development. The public schema has
// no mutation (createFunnel is internal: MCP runs it after a confirmation), so /api/graphql only reads.
import { GraphQLError, Kind, OperationTypeNode, type DocumentNode } from 'graphql';
import { createYoga, isAsyncIterable, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import type { AppDeps } from '../app-deps.ts';
import type { Principal } from '../auth/principal.ts';
import { documentNestingPlugin } from './document-nesting.ts';
import { isMaskedUnexpected, limitPlugins, maskGraphqlError } from './pipeline.ts';
import { createReportBudget, type ReportBudget } from './report-budget.ts';
import { isClientError } from './request-errors.ts';
import { PORTFOLIO_QUERY } from './portfolio-query.ts';

interface ServerContext {
  principal: Principal;
  requestId: string;
}

export type GraphqlServer = YogaServerInstance<ServerContext, {}>;

export function createGraphqlServer(deps: AppDeps & { graphiql?: boolean }, graphqlEndpoint: string): GraphqlServer {
  return createYoga<ServerContext>({
    schema: deps.schema,
    graphqlEndpoint,
    landingPage: false,
    graphiql: deps.graphiql ? { title: 'Siteline GraphQL', headers: '{"Authorization": "Bearer <your API key>"}', defaultQuery: PORTFOLIO_QUERY } : false,
    // Loaded on the first GraphiQL page: its bundle is ~9 MB of source, about 30 MB of heap in every process otherwise.
    renderGraphiQL: async (options) => (await import('@graphql-yoga/render-graphiql')).renderGraphiQL(options),
    logging: false,
    // Native fetch classes, so h3 passes Yoga's responses through instead of serialising a ponyfill object.
    fetchAPI: { Request, Response, Headers, ReadableStream, URL, URLSearchParams, TextEncoder, TextDecoder, Blob, FormData, File, fetch },
    context: ({ principal, requestId }) => deps.createContext(principal, requestId, { reportBudget: createReportBudget() }),
    cors: false,
    plugins: [documentNestingPlugin(), readOnlyPlugin(), ...limitPlugins(), costPlugin(), refusedDocumentLog(deps.logger), noStorePlugin(), ...(deps.metrics ? [errorCountPlugin(deps.metrics)] : [])],
    maskedErrors: {
      maskError(error, message) {
        const masked = maskGraphqlError(error, message);
        if (isMaskedUnexpected(masked)) deps.logger.error({ err: error instanceof GraphQLError ? error.originalError : error }, 'unexpected GraphQL error');
        else if (isClientError(masked)) deps.logger.info({ code: (masked as GraphQLError).extensions.code, param: (masked as GraphQLError).extensions.param }, `GraphQL request refused: ${masked.message}`);
        return masked;
      },
    },
  });
}

/** A document refused by validation (a limit, an unknown field) is the caller's mistake: said at info, once each. */
function refusedDocumentLog(logger: AppDeps['logger']): Plugin {
  return {
    onValidate() {
      return ({ valid, result }) => {
        if (valid) return;
        for (const error of result) logger.info({ code: error.extensions.code ?? 'GRAPHQL_VALIDATION_FAILED' }, `GraphQL request refused: ${error.message}`);
      };
    },
  };
}

/** Every executed request says what it cost against the report budget: `extensions.cost { reports, budget }`. */
function costPlugin(): Plugin<{ reportBudget?: ReportBudget }> {
  return {
    onExecute({ args }) {
      const budget = args.contextValue.reportBudget;
      if (!budget) return undefined;
      return {
        onExecuteDone({ result, setResult }) {
          if (isAsyncIterable(result)) return;
          setResult({ ...result, extensions: { ...result.extensions, cost: budget.cost() } });
        },
      };
    },
  };
}

/**
 * A mutation is refused as what it is — a write this endpoint never takes — rather than with graphql-js's "Schema is
 * not configured to execute mutation operation": funnels are created through MCP's confirmed create_funnel.
 */
function readOnlyPlugin(): Plugin {
  return {
    onValidate({ params, setResult }) {
      const document = params.documentAST as DocumentNode;
      const writes = document.definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION && d.operation !== OperationTypeNode.QUERY);
      if (!writes) return;
      setResult([
        new GraphQLError('Mutations are not available on /api/graphql; funnels are created through MCP (create_funnel) after confirmation, in the dashboard or with the CLI.', {
          extensions: { code: 'insufficient_scope', status: 403 },
        }),
      ]);
    },
  };
}

/** Answers are per caller and per moment: never stored by a cache on the way (as REST answers). */
function noStorePlugin(): Plugin {
  return {
    onResponse({ response }) {
      response.headers.set('cache-control', 'private, no-store');
    },
  };
}

/**
 * Every error of an answer counted by its code in /metrics: GraphQL answers a failed field with HTTP 200, so the HTTP
 * status classes alone would show a failing query as a success.
 */
function errorCountPlugin(metrics: NonNullable<AppDeps['metrics']>): Plugin {
  return {
    onResultProcess({ result }) {
      if (isAsyncIterable(result)) return;
      for (const one of Array.isArray(result) ? result : [result]) {
        for (const error of one.errors ?? []) metrics.recordGraphqlError(errorCode(error));
      }
    },
  };
}

function errorCode(error: GraphQLError | { extensions?: Record<string, unknown> }): string {
  const code = error.extensions?.code;
  return typeof code === 'string' ? code : 'GRAPHQL_VALIDATION_FAILED';
}
