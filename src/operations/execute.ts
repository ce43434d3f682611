// executeOperation(): runs a stored operation in-process with a fresh context; expected errors surface as
// AppErrors, anything else is masked by the facade. No HTTP hop, no re-parse, no re-validation.
import { execute, type GraphQLSchema } from 'graphql';
import { isAppError } from '../errors/app-error.ts';
import type { Principal } from '../auth/principal.ts';
import type { GraphQLContext } from '../graphql/context.ts';
import type { OperationRegistry } from './registry.ts';

export interface OperationExecutor {
  (name: string, variables: Record<string, unknown>, context: GraphQLContext): Promise<Record<string, unknown>>;
}

/** What a facade needs to run stored operations: a fresh context per execution, and the executor. */
export interface OperationRunner {
  /** A fresh context (fresh DataLoaders) for one execution. */
  createContext(principal: Principal, requestId: string): GraphQLContext;
  executeOperation: OperationExecutor;
}

export function createOperationExecutor(schema: GraphQLSchema, registry: OperationRegistry): OperationExecutor {
  return async (name, variables, context) => {
    const stored = registry.get(name);
    if (!stored) throw new Error(`Unknown stored operation ${name}`);
    const result = await execute({ schema, document: stored.document, variableValues: stripUndefined(variables), contextValue: context });
    if (result.errors?.length) {
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
