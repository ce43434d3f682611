// Which kept answers a write changes. Answers are kept per credential and stored operation (response-cache.ts); a
// write names its table (and, for an UPDATE, the columns it set), a revocation its key. Anything this cannot place
// drops every kept answer, as before: narrowing is only ever an exemption that is known to be safe.
import type { KeptAnswers } from './response-cache.ts';

/** Columns a provider call's outcome sets on its data source; only the project views show them. */
const SOURCE_STATUS_COLUMNS = new Set(['status', 'status_message', 'status_at']);
/** The stored operations whose answers show a data source's status. */
const PROJECT_VIEWS = new Set(['ProjectsList', 'Project']);

/** A catalogue write (bus message `{ table, columns? }`): the answers that may show what it changed. */
export function answersChangedByWrite(message: unknown): KeptAnswers {
  const { table, columns } = (message ?? {}) as { table?: unknown; columns?: unknown };
  // A status flip after a provider call (the most frequent catalogue write) changes no report's numbers.
  if (table === 'data_sources' && Array.isArray(columns) && columns.length > 0 && columns.every((c) => SOURCE_STATUS_COLUMNS.has(c as string))) {
    return ({ operation }) => PROJECT_VIEWS.has(operation);
  }
  // Funnels are read by the funnel operations only (a project's deletion is a `projects` write).
  if (table === 'funnels') return ({ operation }) => operation.startsWith('Funnel');
  return 'all';
}

/** A key revocation (bus message `{ keyId }`): that credential's answers; an unnamed one drops them all. */
export function answersOfRevokedKey(message: unknown): KeptAnswers {
  const { keyId } = (message ?? {}) as { keyId?: unknown };
  return typeof keyId === 'string' ? ({ credentialId }) => credentialId === keyId : 'all';
}
