// Reads for the dashboard's pages go through the stored operations, as the signed-in account, exactly as the API
// does; an expected failure (provider not connected, credential revoked) comes back as a value the page shows.
import type { Session } from '../account/sessions.ts';
import { AppError, isAppError } from '../errors/app-error.ts';
import { runEndpoint, runOperationByField, type FieldResult } from '../operations/run-endpoint.ts';
import type { DashboardDeps } from './dashboard-deps.ts';
import { sessionPrincipal } from './guard.ts';

export type Read<T> = { ok: true; body: T } | { ok: false; error: AppError };

export async function readOperation<T>(deps: DashboardDeps, session: Session, operation: string, field: string, variables: Record<string, unknown>): Promise<Read<T>> {
  try {
    const body = await runEndpoint(deps.operations, sessionPrincipal(session), `dashboard-${operation}`, { operation, field }, variables);
    return { ok: true, body: body as T };
  } catch (error) {
    if (isAppError(error)) return { ok: false, error };
    deps.web.logger.error({ err: error, operation }, 'dashboard read failed');
    return { ok: false, error: new AppError('internal_error', 'Reading this failed unexpectedly; the error was logged.') };
  }
}

/** One stored operation for a whole page: each response key's answer, or its own failure as a value. */
export async function readOperationByField(deps: DashboardDeps, session: Session, operation: string, fields: Readonly<Record<string, string>>, variables: Record<string, unknown>): Promise<Record<string, Read<unknown>>> {
  let results: Record<string, FieldResult>;
  try {
    results = await runOperationByField(deps.operations, sessionPrincipal(session), `dashboard-${operation}`, operation, fields, variables);
  } catch (error) {
    const failed = asRead(deps, operation, error);
    return Object.fromEntries(Object.keys(fields).map((key) => [key, failed]));
  }
  return Object.fromEntries(Object.entries(results).map(([key, r]) => [key, r.ok ? { ok: true, body: r.body } : asRead(deps, operation, r.error)]));
}

function asRead(deps: DashboardDeps, operation: string, error: unknown): Read<never> {
  if (isAppError(error)) return { ok: false, error };
  deps.web.logger.error({ err: error, operation }, 'dashboard read failed');
  return { ok: false, error: new AppError('internal_error', 'Reading this failed unexpectedly; the error was logged.') };
}
