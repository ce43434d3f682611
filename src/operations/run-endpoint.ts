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
