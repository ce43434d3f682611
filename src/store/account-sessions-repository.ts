// Browser sessions of the account pages, stored server-side so sign-out and expiry hold on every instance.
// The cookie carries a 256-bit random value; only its SHA-256 digest is stored.
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

export interface SessionRecord {
  digest: string;
  accountId: string;
  createdAt: string;
  expiresAt: string;
}

export async function insertSession(db: Kysely<Database>, session: SessionRecord): Promise<void> {
  await db
    .insertInto('account_sessions')
    .values({ digest: session.digest, account_id: session.accountId, created_at: session.createdAt, expires_at: session.expiresAt })
    .execute();
}

/** The live session for a digest; expired ones are treated as absent. */
export async function findLiveSession(db: Kysely<Database>, digest: string, now: Date): Promise<SessionRecord | undefined> {
  const row = await db
    .selectFrom('account_sessions')
    .selectAll()
    .where('digest', '=', digest)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return row && { digest: row.digest, accountId: row.account_id, createdAt: row.created_at, expiresAt: row.expires_at };
}

export async function deleteSession(db: Kysely<Database>, digest: string): Promise<void> {
  await db.deleteFrom('account_sessions').where('digest', '=', digest).execute();
}

export async function deleteExpiredSessions(db: Kysely<Database>, now: Date): Promise<void> {
  await db.deleteFrom('account_sessions').where('expires_at', '<=', now.toISOString()).execute();
}

/** Ends every browser session of an account (a new password was set). */
export async function deleteSessionsOfAccount(db: Kysely<Database>, accountId: string): Promise<void> {
  await db.deleteFrom('account_sessions').where('account_id', '=', accountId).execute();
}
