// The one way a write is made: in a transaction, the change and its audit entry together (both or neither). The
// change returns what happened and the entry to record; no entry means nothing changed (a replay, a no-op).
import type { Kysely, Transaction } from 'kysely';
import { appendAudit } from '../store/audit-repository.ts';
import type { Database } from '../store/schema.ts';
import { actorAccountId, type Actor } from './actor.ts';
import type { WriteDeps } from './write-deps.ts';

export interface AuditRecord {
  /** Dotted verb, e.g. `funnel.create`; the policy's action name where there is one. */
  action: string;
  /** What was acted on: a project or funnel key, a key id, an email. Never a secret. */
  subject: string;
  /** The project the entry belongs to (shown in its audit log). */
  projectId?: string | null;
  detail?: Record<string, unknown>;
}

export interface Change<T> {
  result: T;
  audit: AuditRecord | null;
}

export async function audited<T>(deps: WriteDeps, actor: Actor, change: (trx: Transaction<Database>) => Promise<Change<T>>): Promise<T> {
  return deps.db.transaction().execute(async (trx) => {
    const { result, audit } = await change(trx);
    if (audit) await record(trx, deps, actor, audit);
    return result;
  });
}

export async function record(db: Kysely<Database>, deps: Pick<WriteDeps, 'clock'>, actor: Actor, audit: AuditRecord): Promise<void> {
  const via = actor.kind === 'account' && actor.credentialId ? { via: actor.via, credential: actor.credentialId } : { via: actor.via };
  await appendAudit(db, { accountId: actorAccountId(actor), action: audit.action, subject: audit.subject, projectId: audit.projectId ?? null, detail: { ...via, ...audit.detail }, now: deps.clock() });
}
