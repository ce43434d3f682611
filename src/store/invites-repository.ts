// Invitations: single-use links that expire. One to the installation (the owner invites a teammate) carries no
// project; one to a project (sharing) carries the project and the role accepting gives, and is also listed for the
// account with that email, which accepts or declines it. Only the SHA-256 digest of the token is stored (the link
// is the only copy), and redeeming marks the row used in the same statement that checks it, so two browsers
// racing with one link redeem it once.
import type { Kysely } from 'kysely';
import { newSecret, sha256Hex } from '../auth/oauth/secrets.ts';
import { isProjectRole, type ProjectRole } from '../domain/access-policy.ts';
import { invalidParameter } from '../errors/app-error.ts';
import { normalizeEmail } from './accounts-repository.ts';
import type { Database } from './schema.ts';

export const INVITE_TTL_DAYS = 7;

export interface InviteRecord {
  digest: string;
  email: string;
  createdBy: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
  /** Set for an invitation to a project, with the role accepting gives. */
  projectId: string | null;
  role: ProjectRole | null;
}

/** A project invitation as its invitee sees it: which project and who sent it. */
export interface ProjectInvite extends InviteRecord {
  projectId: string;
  role: ProjectRole;
  projectKey: string;
  projectName: string;
  invitedByName: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function parseInviteEmail(input: string): string {
  const email = input.trim();
  if (email.length > 254 || !EMAIL.test(email)) throw invalidParameter('email', `'${input}' is not an email address.`);
  return email;
}

/** Creates an invitation; returns the token for the link (never stored) and the record. */
export async function createInvite(
  db: Kysely<Database>,
  input: { email: string; createdBy: string; now: Date; project?: { id: string; role: ProjectRole } },
): Promise<{ token: string; invite: InviteRecord }> {
  const email = parseInviteEmail(input.email);
  const token = newSecret();
  const row = {
    digest: sha256Hex(token),
    email,
    email_normalized: normalizeEmail(email),
    project_id: input.project?.id ?? null,
    role: input.project?.role ?? null,
    created_by: input.createdBy,
    created_at: input.now.toISOString(),
    expires_at: new Date(input.now.getTime() + INVITE_TTL_DAYS * 86_400_000).toISOString(),
    used_at: null,
  };
  await db.insertInto('invites').values(row).execute();
  return { token, invite: toInvite(row) };
}

type InviteRow = { digest: string; email: string; created_by: string; created_at: string; expires_at: string; used_at: string | null; project_id: string | null; role: string | null };

function toInvite(row: InviteRow): InviteRecord {
  return {
    digest: row.digest,
    email: row.email,
    createdBy: row.created_by,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    usedAt: row.used_at,
    projectId: row.project_id,
    role: isProjectRole(row.role) ? row.role : null,
  };
}

const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

/** The invitation a token names, when it is unused and unexpired. */
export async function findOpenInvite(db: Kysely<Database>, token: string, now: Date): Promise<InviteRecord | undefined> {
  if (!TOKEN.test(token)) return undefined;
  return findOpenInviteByDigest(db, sha256Hex(token), now);
}

export async function findOpenInviteByDigest(db: Kysely<Database>, digest: string, now: Date): Promise<InviteRecord | undefined> {
  const row = await db.selectFrom('invites').selectAll().where('digest', '=', digest).where('used_at', 'is', null).where('expires_at', '>', now.toISOString()).executeTakeFirst();
  return row && toInvite(row);
}

/** Marks the invitation used; false when it was already used or expired (the caller must not go on). */
export async function claimInvite(db: Kysely<Database>, token: string, now: Date): Promise<boolean> {
  return claimInviteByDigest(db, sha256Hex(token), now);
}

export async function claimInviteByDigest(db: Kysely<Database>, digest: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('invites')
    .set({ used_at: now.toISOString() })
    .where('digest', '=', digest)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Open invitations, newest first: to the installation (`projectId` null), or to one project (its admins see them). */
export async function listOpenInvites(db: Kysely<Database>, now: Date, projectId: string | null = null): Promise<InviteRecord[]> {
  const rows = await db
    .selectFrom('invites')
    .selectAll()
    .where('used_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .where('project_id', projectId === null ? 'is' : '=', projectId)
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map(toInvite);
}

/** Open project invitations addressed to an email, with the project and the sender's name, newest first. */
export async function listInvitesForEmail(db: Kysely<Database>, email: string, now: Date): Promise<ProjectInvite[]> {
  const rows = await db
    .selectFrom('invites')
    .innerJoin('projects', 'projects.id', 'invites.project_id')
    .innerJoin('accounts', 'accounts.id', 'invites.created_by')
    .selectAll('invites')
    .select(['projects.key as project_key', 'projects.name as project_name', 'accounts.name as invited_by_name'])
    .where('invites.email_normalized', '=', normalizeEmail(email))
    .where('invites.used_at', 'is', null)
    .where('invites.expires_at', '>', now.toISOString())
    .orderBy('invites.created_at', 'desc')
    .execute();
  return rows.map((row) => ({ ...(toInvite(row) as InviteRecord & { projectId: string; role: ProjectRole }), projectKey: row.project_key, projectName: row.project_name, invitedByName: row.invited_by_name }));
}

/** The project and sender of a project invitation (for its link's page). */
export async function describeProjectInvite(db: Kysely<Database>, invite: InviteRecord): Promise<ProjectInvite | undefined> {
  if (!invite.projectId) return undefined;
  return (await listInvitesForEmail(db, invite.email, new Date(0))).find((i) => i.digest === invite.digest);
}

/** Withdraws an open invitation; with `projectId`, only one to that project. */
export async function deleteInvite(db: Kysely<Database>, digest: string, projectId?: string): Promise<boolean> {
  let query = db.deleteFrom('invites').where('digest', '=', digest).where('used_at', 'is', null);
  if (projectId !== undefined) query = query.where('project_id', '=', projectId);
  const result = await query.executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Drops the open invitations of one email to one project (a new one replaces them). */
export async function deleteOpenProjectInvites(db: Kysely<Database>, projectId: string, email: string): Promise<void> {
  await db.deleteFrom('invites').where('project_id', '=', projectId).where('email_normalized', '=', normalizeEmail(email)).where('used_at', 'is', null).execute();
}
