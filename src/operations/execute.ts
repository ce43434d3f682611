// executeOperation(): runs a stored operation in-process with a fresh context, through the same envelop pipeline
// as /api/graphql (src/graphql/pipeline.ts: its hooks and error masking); expected errors surface as AppErrors,
// anything else keeps its cause for the facade, which logs it and answers 500. No HTTP hop, no re-parse, no
// re-validation (the registry validated every stored operation with the pipeline's rules at boot).
import type { ExecutionResult } from 'graphql';
import { isAppError } from '../errors/app-error.ts';
import type { Principal } from '../auth/principal.ts';
import type { ContextOptions, GraphQLContext } from '../graphql/context.ts';
import type { StoredOperationPipeline } from '../graphql/pipeline.ts';
import type { OperationRegistry } from './registry.ts';

export interface OperationExecutor {
  /**
   * With `fieldErrors`, a failed root field does not fail the operation: its error is kept under its response key
   * (an alias or the field name) and its data is null, so a page of many cards can show each card's own failure.
   */
  (name: string, variables: Record<string, unknown>, context: GraphQLContext, fieldErrors?: Map<string, unknown>): Promise<Record<string, unknown>>;
}

/** What a facade needs to run stored operations: a fresh context per execution, and the executor. */
export interface OperationRunner {
  /** A fresh context (fresh DataLoaders) for one execution; /api/graphql gives it a report budget. */
  createContext(principal: Principal, requestId: string, options?: ContextOptions): GraphQLContext;
  executeOperation: OperationExecutor;
}

export function createOperationExecutor(pipeline: StoredOperationPipeline, registry: OperationRegistry): OperationExecutor {
  return async (name, variables, context, fieldErrors) => {
    const stored = registry.get(name);
    if (!stored) throw new Error(`Unknown stored operation ${name}`);
    const { execute, schema } = pipeline.getEnveloped(context);
    // Stored operations are queries and one mutation: never an incremental (streamed) result.
    const result = (await execute({ schema, document: stored.document, variableValues: stripUndefined(variables), contextValue: context })) as ExecutionResult;
    if (result.errors?.length && fieldErrors) {
      for (const error of result.errors) {
        const key = error.path?.[0];
        if (typeof key !== 'string') throw error.originalError ?? new Error(error.message, { cause: error });
        if (!fieldErrors.has(key)) fieldErrors.set(key, error.originalError ?? new Error(error.message, { cause: error }));
      }
    } else if (result.errors?.length) {
      const expected = result.errors.map((e) => e.originalError).find(isAppError);
      if (expected) throw expected;
      const first = result.errors[0]!;
      // Variable coercion failures mean a facade passed a value its own parser should have rejected.
      throw first.originalError ?? new Error(first.message, { cause: first });
    }
    return (result.data ?? {}) as Record<string, unknown>;
  };
}

function stripUndefined(variables: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(variables).filter(([, v]) => v !== undefined));
}
