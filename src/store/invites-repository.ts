// Invitations to join the installation: single-use links that expire. Only the SHA-256 digest of the token is
// stored (the link is the only copy), and redeeming marks the row used in the same statement that checks it, so
// two browsers racing with one link create one account.
import type { Kysely } from 'kysely';
import { newSecret, sha256Hex } from '../auth/oauth/secrets.ts';
import { invalidParameter } from '../errors/app-error.ts';
import type { Database } from './schema.ts';

export const INVITE_TTL_DAYS = 7;

export interface InviteRecord {
  digest: string;
  email: string;
  createdBy: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Creates an invitation; returns the token for the link (never stored) and the record. */
export async function createInvite(db: Kysely<Database>, input: { email: string; createdBy: string; now: Date }): Promise<{ token: string; invite: InviteRecord }> {
  const email = input.email.trim();
  if (email.length > 254 || !EMAIL.test(email)) throw invalidParameter('email', `'${input.email}' is not an email address.`);
  const token = newSecret();
  const row = {
    digest: sha256Hex(token),
    email,
    created_by: input.createdBy,
    created_at: input.now.toISOString(),
    expires_at: new Date(input.now.getTime() + INVITE_TTL_DAYS * 86_400_000).toISOString(),
    used_at: null,
  };
  await db.insertInto('invites').values(row).execute();
  return { token, invite: toInvite(row) };
}

function toInvite(row: { digest: string; email: string; created_by: string; created_at: string; expires_at: string; used_at: string | null }): InviteRecord {
  return { digest: row.digest, email: row.email, createdBy: row.created_by, createdAt: row.created_at, expiresAt: row.expires_at, usedAt: row.used_at };
}

/** The invitation a token names, when it is unused and unexpired. */
export async function findOpenInvite(db: Kysely<Database>, token: string, now: Date): Promise<InviteRecord | undefined> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return undefined;
  const row = await db
    .selectFrom('invites')
    .selectAll()
    .where('digest', '=', sha256Hex(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return row && toInvite(row);
}

/** Marks the invitation used; false when it was already used or expired (the caller must not go on). */
export async function claimInvite(db: Kysely<Database>, token: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('invites')
    .set({ used_at: now.toISOString() })
    .where('digest', '=', sha256Hex(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Open invitations, newest first. */
export async function listOpenInvites(db: Kysely<Database>, now: Date): Promise<InviteRecord[]> {
  const rows = await db.selectFrom('invites').selectAll().where('used_at', 'is', null).where('expires_at', '>', now.toISOString()).orderBy('created_at', 'desc').execute();
  return rows.map(toInvite);
}

export async function deleteInvite(db: Kysely<Database>, digest: string): Promise<boolean> {
  const result = await db.deleteFrom('invites').where('digest', '=', digest).where('used_at', 'is', null).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
