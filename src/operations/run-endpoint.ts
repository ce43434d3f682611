// The shared last step of every facade: run a stored operation for a principal and shape its data into the
// contract's JSON (the operation's root field, optional fields omitted). REST bodies and MCP structuredContent
// come from here, so the two cannot differ for the same inputs.
import type { Principal } from '../auth/principal.ts';
import { dropNulls } from './drop-nulls.ts';
import type { OperationRunner } from './execute.ts';
import { shapeForContract } from './contract-shapes.ts';

export interface EndpointRef {
  operation: string;
  /** Root field of the operation's data that is the body; absent: the whole data object. */
  field?: string;
}

export interface EndpointResult {
  body: unknown;
  /** Until when every cached provider report behind the body stays fresh (Infinity: none was read). */
  freshUntil: number;
}

export async function runEndpoint(
  deps: OperationRunner,
  principal: Principal,
  requestId: string,
  endpoint: EndpointRef,
  variables: Record<string, unknown>,
): Promise<unknown> {
  return (await runEndpointWithFreshness(deps, principal, requestId, endpoint, variables)).body;
}

export async function runEndpointWithFreshness(
  deps: OperationRunner,
  principal: Principal,
  requestId: string,
  endpoint: EndpointRef,
  variables: Record<string, unknown>,
): Promise<EndpointResult> {
  const context = deps.createContext(principal, requestId);
  const data = shapeForContract(await deps.executeOperation(endpoint.operation, variables, context));
  return { body: dropNulls(endpoint.field ? data[endpoint.field] : data), freshUntil: context.freshUntil() };
}

/** One root field's contract JSON, or the error it failed with. */
export type FieldResult = { ok: true; body: unknown } | { ok: false; error: unknown };

/**
 * Runs one stored operation whose root fields are read separately (a page of cards): each response key in `fields`
 * (an alias or field name, mapped to its root field, which names its contract shape) gets its body or its error.
 */
export async function runOperationByField(
  deps: OperationRunner,
  principal: Principal,
  requestId: string,
  operation: string,
  fields: Readonly<Record<string, string>>,
  variables: Record<string, unknown>,
): Promise<Record<string, FieldResult>> {
  const context = deps.createContext(principal, requestId);
  const errors = new Map<string, unknown>();
  const data = await deps.executeOperation(operation, variables, context, errors);
  const out: Record<string, FieldResult> = {};
  for (const [key, field] of Object.entries(fields)) {
    const error = errors.get(key);
    if (error !== undefined) out[key] = { ok: false, error };
    else out[key] = { ok: true, body: dropNulls(shapeForContract({ [field]: data[key] })[field]) };
  }
  return out;
}
