// The report budget of one GraphQL request. The static cost limit sees `projects { summary search }` once; the
// budget charges every report a resolver actually starts, so a query over many projects costs per project and per
// report field. Stored operations read one report each and never come near it.
import { AppError } from '../errors/app-error.ts';
import type { GraphQLContext } from './context.ts';

/** Reports one GraphQL request may read: every report field of three projects (the Portfolio query reads 9). */
export const MAX_REPORTS_PER_QUERY = 30;

const charged = new WeakMap<GraphQLContext, number>();

/** Counts one report against the request's budget; over it, the report is refused before any upstream call. */
export function chargeReport(ctx: GraphQLContext): void {
  const used = (charged.get(ctx) ?? 0) + 1;
  charged.set(ctx, used);
  if (used > MAX_REPORTS_PER_QUERY) {
    throw new AppError('malformed_request', `This query reads more than ${MAX_REPORTS_PER_QUERY} reports (one per project and report field); ask for fewer projects or fields.`);
  }
}

