// The one GraphQL pipeline: the limits every document is held to and how errors are masked. /api/graphql (Yoga)
// and the stored operations (envelop's getEnveloped, in-process, no HTTP hop) are both built from it, so an
// error reads the same and a limit holds the same whichever facade ran the document.
import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { envelop, useEngine, useMaskedErrors, useSchema, type GetEnvelopedFn, type Plugin } from '@envelop/core';
import { execute, GraphQLError, parse, specifiedRules, subscribe, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import { isAppError } from '../errors/app-error.ts';
import { reportLimit, variableError } from './request-errors.ts';

// Aliases are capped because each aliased report field can be a separate upstream call for one rate-limit token.
export const GRAPHQL_LIMITS = { maxDepth: 12, maxCost: 5000, maxAliases: 10 } as const;

/**
 * Depth, cost and alias limits (validation rules: checked when a document is validated). A document past one is a
 * validation error of ours (`query_too_complex`, ./request-errors.ts), not armor's thrown "Syntax Error".
 */
export function limitPlugins(): Plugin[] {
  const rejected = { propagateOnRejection: false };
  return [
    maxDepthPlugin({ n: GRAPHQL_LIMITS.maxDepth, ...rejected, onReject: [reportLimit('depth', GRAPHQL_LIMITS.maxDepth)] }),
    costLimitPlugin({ maxCost: GRAPHQL_LIMITS.maxCost, ...rejected, onReject: [reportLimit('cost', GRAPHQL_LIMITS.maxCost)] }),
    maxAliasesPlugin({ n: GRAPHQL_LIMITS.maxAliases, ...rejected, onReject: [reportLimit('aliases', GRAPHQL_LIMITS.maxAliases)] }),
  ];
}

/**
 * Expected errors (AppError) keep their code, status and parameter in `extensions`, as do errors of ours raised as
 * GraphQL errors with a code (the report budget); a variable that does not fit its type is the caller's
 * (./request-errors.ts); anything else becomes `internal_error` with the generic message. The masked error keeps the
 * original as `originalError` (never serialised), so an in-process caller can still throw the AppError, or log the
 * cause of a masked one.
 */
export function maskGraphqlError(error: unknown, message: string): Error {
  const original = rootCause(error);
  const refusedVariable = error instanceof GraphQLError ? variableError(error, original) : undefined;
  if (refusedVariable) return refusedVariable;
  if (original instanceof GraphQLError && original !== error && typeof original.extensions.code === 'string') {
    return new GraphQLError(original.message, { nodes: (error as GraphQLError).nodes, path: (error as GraphQLError).path, originalError: original, extensions: original.extensions });
  }
  if (isAppError(original)) {
    return new GraphQLError(original.message, {
      nodes: (error as GraphQLError).nodes,
      path: (error as GraphQLError).path,
      originalError: original,
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
  return new GraphQLError(message, { originalError: original instanceof Error ? original : undefined, extensions: { code: 'internal_error' } });
}

/** True when `maskGraphqlError` hid the error's cause (it must be logged where the answer is written). */
export function isMaskedUnexpected(masked: Error): boolean {
  return masked instanceof GraphQLError && masked.extensions.code === 'internal_error';
}

export interface StoredOperationPipeline {
  /** Per execution: envelop's execute with the pipeline's hooks (masking) around graphql's. */
  readonly getEnveloped: GetEnvelopedFn<object>;
  /** Validation with the limits' rules added: stored operations are held to them once, at boot. */
  validate(schema: GraphQLSchema, document: DocumentNode): readonly GraphQLError[];
}

/** The pipeline for documents run in-process (stored operations); Yoga builds the same from `limitPlugins` and `maskGraphqlError`. */
export function createStoredOperationPipeline(schema: GraphQLSchema): StoredOperationPipeline {
  const getEnveloped = envelop({
    plugins: [useEngine({ parse, validate, specifiedRules, execute, subscribe }), useSchema(schema), ...limitPlugins(), useMaskedErrors({ maskError: maskGraphqlError })],
  });
  return {
    getEnveloped,
    validate: (target, document) => getEnveloped().validate(target, document),
  };
}

/** The error a resolver (or a scalar's parser, wrapped once more by graphql-js) really threw. */
function rootCause(error: unknown): unknown {
  let cause = error instanceof GraphQLError ? error.originalError : error;
  while (cause instanceof GraphQLError && cause.originalError) cause = cause.originalError;
  return cause;
}
