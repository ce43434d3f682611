// The audit trail of management actions (keys created/revoked/rotated, sources connected, funnels created…).
import type { Kysely } from 'kysely';
import { newAuditId } from './ids.ts';
import type { Database } from './schema.ts';

export interface AuditEntry {
  id: string;
  at: string;
  accountId: string | null;
  /** Dotted verb, e.g. `api_key.revoke`, `data_source.connect`. */
  action: string;
  /** What was acted on, e.g. a key id or `project-key/engine1`. Never a secret. */
  subject: string;
  detail: Record<string, unknown> | null;
  projectId: string | null;
}

export interface NewAuditEntry {
  accountId?: string | null | undefined;
  action: string;
  subject: string;
  detail?: Record<string, unknown> | undefined;
  projectId?: string | null | undefined;
  now?: Date;
}

export async function appendAudit(db: Kysely<Database>, entry: NewAuditEntry): Promise<AuditEntry> {
  const at = entry.now ?? new Date();
  const row = {
    id: newAuditId(at.getTime()),
    at: at.toISOString(),
    account_id: entry.accountId ?? null,
    action: entry.action,
    subject: entry.subject,
    detail: entry.detail === undefined ? null : JSON.stringify(entry.detail),
    project_id: entry.projectId ?? null,
  };
  await db.insertInto('audit_log').values(row).execute();
  return { id: row.id, at: row.at, accountId: row.account_id, action: row.action, subject: row.subject, detail: entry.detail ?? null, projectId: row.project_id };
}

/** Newest first; `before` pages on (entries with a smaller id). */
export async function listAudit(db: Kysely<Database>, options: { limit?: number; action?: string; projectId?: string; before?: string } = {}): Promise<AuditEntry[]> {
  let query = db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(options.limit ?? 100);
  if (options.action) query = query.where('action', '=', options.action);
  if (options.projectId) query = query.where('project_id', '=', options.projectId);
  if (options.before) query = query.where('id', '<', options.before);
  const rows = await query.execute();
  return rows.map((row) => ({
    id: row.id,
    at: row.at,
    accountId: row.account_id,
    action: row.action,
    subject: row.subject,
    detail: row.detail === null ? null : (JSON.parse(row.detail) as Record<string, unknown>),
    projectId: row.project_id,
  }));
}
