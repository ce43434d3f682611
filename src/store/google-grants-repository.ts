// Stored Google grants: one per (OAuth client, Google account subject), holding the newest refresh token Google
// issued for it, sealed. Projects' Google data sources name the grant (data_sources.google_grant_id) and carry a
// copy of its token in their own sealed credential, rewritten whenever the grant's token changes, so every project
// connected through one account always uses the newest token (Google invalidates all but the 100 newest).
import type { Kysely } from 'kysely';
import type { GrantHolders } from '../domain/google-grant-release.ts';
import { mayRevokeReleasedGrant } from '../domain/google-grant-release.ts';
import type { Source } from '../domain/sources.ts';
import { sealSourceCredential, type SourceCredential } from './data-sources-repository.ts';
import { newId } from './ids.ts';
import type { Database } from './schema.ts';
import type { SecretBox } from './secret-box.ts';

const aad = (id: string) => `siteline:google_grant:${id}`;

export interface GoogleGrantInput {
  clientId: string;
  subject: string;
  email: string | null;
  scopes: string;
  refreshToken: string;
  now: Date;
}

/** A project that connects through a grant, with the sources it connects that way. */
export interface GrantHolder {
  projectId: string;
  key: string;
  name: string;
  sources: Source[];
}

/** Stores the account's newest token: creates the grant, or refreshes the one this account already has. */
export async function saveGoogleGrant(db: Kysely<Database>, box: SecretBox, input: GoogleGrantInput): Promise<string> {
  const existing = await db.selectFrom('google_grants').select('id').where('client_id', '=', input.clientId).where('subject', '=', input.subject).executeTakeFirst();
  const id = existing?.id ?? newId('ggr');
  const values = { email: input.email, scopes: input.scopes, token_ciphertext: box.seal(input.refreshToken, aad(id)), updated_at: input.now.toISOString() };
  if (existing) await db.updateTable('google_grants').set(values).where('id', '=', id).execute();
  else await db.insertInto('google_grants').values({ id, client_id: input.clientId, subject: input.subject, created_at: input.now.toISOString(), ...values }).execute();
  return id;
}

/** Gives every data source of the grant the new credential (sealed for its own row). */
export async function rewriteGrantCredentials(db: Kysely<Database>, box: SecretBox, grantId: string, credential: SourceCredential): Promise<number> {
  const rows = await db.selectFrom('data_sources').select(['project_id', 'source']).where('google_grant_id', '=', grantId).execute();
  for (const row of rows) {
    const sealed = sealSourceCredential(box, row.project_id, row.source as Source, credential);
    await db.updateTable('data_sources').set({ credential_ciphertext: sealed, credential_kind: credential.kind }).where('project_id', '=', row.project_id).where('source', '=', row.source).execute();
  }
  return rows.length;
}

/** The grant ids a project's sources use. */
export async function grantsOfProject(db: Kysely<Database>, projectId: string, sources: readonly Source[]): Promise<string[]> {
  if (sources.length === 0) return [];
  const rows = await db.selectFrom('data_sources').select('google_grant_id').distinct().where('project_id', '=', projectId).where('source', 'in', [...sources]).where('google_grant_id', 'is not', null).execute();
  return rows.map((row) => row.google_grant_id!);
}

export async function findGrant(db: Kysely<Database>, clientId: string, subject: string): Promise<{ id: string; email: string | null } | undefined> {
  return db.selectFrom('google_grants').select(['id', 'email']).where('client_id', '=', clientId).where('subject', '=', subject).executeTakeFirst();
}

/**
 * The projects whose data sources use the grant of this account, and the other live flows holding its tokens
 * (an expired or cancelled flow holds nothing anyone will use: the sweep settles it).
 */
export async function grantHolders(db: Kysely<Database>, clientId: string, subject: string, now: Date, exceptFlowId?: string): Promise<{ projects: GrantHolder[]; holders: GrantHolders }> {
  const grant = await findGrant(db, clientId, subject);
  const rows = grant
    ? await db
        .selectFrom('data_sources')
        .innerJoin('projects', 'projects.id', 'data_sources.project_id')
        .select(['projects.id as projectId', 'projects.key', 'projects.name', 'data_sources.source'])
        .where('data_sources.google_grant_id', '=', grant.id)
        .orderBy('projects.name')
        .execute()
    : [];
  const projects = new Map<string, GrantHolder>();
  for (const row of rows) {
    const holder = projects.get(row.projectId) ?? { projectId: row.projectId, key: row.key, name: row.name, sources: [] };
    holder.sources.push(row.source as Source);
    projects.set(row.projectId, holder);
  }
  let flows = db.selectFrom('google_connect_flows').select((eb) => eb.fn.countAll<number>().as('n')).where('google_subject', '=', subject).where('expires_at', '>', now.toISOString());
  if (exceptFlowId) flows = flows.where('id', '!=', exceptFlowId);
  const { n } = await flows.executeTakeFirstOrThrow();
  return { projects: [...projects.values()], holders: { dataSources: rows.length, otherFlows: Number(n) } };
}

/** What disconnecting a grant's last data sources does: revoked at Google, or kept for the projects named. */
export interface GrantRelease {
  grantId: string;
  email: string | null;
  /** Set when nothing else uses the grant: the token to revoke at Google (the row is gone). */
  revokeToken?: string;
  /** The other projects that keep using the grant. */
  keptFor: GrantHolder[];
}

/**
 * Releases grants after their data sources were removed (or, with `preview`, what would happen if those of
 * `leavingProjectId` were): a grant nothing uses any more is deleted and its token handed back for revoking; one
 * that other projects or flows still use is kept, and they are named.
 */
export async function releaseGoogleSubjects(
  db: Kysely<Database>,
  box: SecretBox,
  grantIds: readonly string[],
  now: Date,
  options: { preview?: { leavingProjectId: string } } = {},
): Promise<GrantRelease[]> {
  const releases: GrantRelease[] = [];
  for (const grantId of grantIds) {
    const grant = await db.selectFrom('google_grants').selectAll().where('id', '=', grantId).executeTakeFirst();
    if (!grant) continue;
    const { projects, holders } = await grantHolders(db, grant.client_id, grant.subject, now);
    const leaving = options.preview?.leavingProjectId;
    const keptFor = projects.filter((p) => p.projectId !== leaving);
    const remaining = { ...holders, dataSources: keptFor.reduce((sum, p) => sum + p.sources.length, 0) };
    if (!mayRevokeReleasedGrant(remaining)) {
      releases.push({ grantId, email: grant.email, keptFor });
      continue;
    }
    const revokeToken = box.open(grant.token_ciphertext, aad(grant.id));
    if (!options.preview) await db.deleteFrom('google_grants').where('id', '=', grant.id).execute();
    releases.push({ grantId, email: grant.email, revokeToken, keptFor });
  }
  return releases;
}
