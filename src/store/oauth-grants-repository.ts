// OAuth authorization codes, grants and refresh tokens. A grant is one user's approval of one client (scopes,
// resource, projects); its refresh tokens form a rotation family. Codes and refresh tokens are single-use:
// marking them used is a conditional UPDATE, so two instances racing on one value cannot both win.
import type { Kysely, Selectable } from 'kysely';
import type { Database, OAuthCodesTable, OAuthGrantsTable, OAuthRefreshTokensTable } from './schema.ts';

export interface AuthorizationCodeRecord {
  digest: string;
  clientId: string;
  accountId: string;
  redirectUri: string;
  codeChallenge: string;
  scope: string;
  resource: string;
  projectKeys: string[] | null;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
  grantId: string | null;
}

export interface GrantRecord {
  id: string;
  accountId: string;
  clientId: string;
  scope: string;
  resource: string;
  projectKeys: string[] | null;
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  revokedReason: string | null;
}

export interface RefreshTokenRecord {
  digest: string;
  grantId: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

/** `fresh`: this call marked it used; `reused`: it had been used before (or a concurrent call won). */
export type SingleUse<T> = { status: 'fresh'; record: T } | { status: 'reused'; record: T };

const projectKeysFrom = (text: string | null): string[] | null => (text === null ? null : (JSON.parse(text) as string[]));
const projectKeysTo = (keys: readonly string[] | null): string | null => (keys === null ? null : JSON.stringify(keys));

function toCode(row: Selectable<OAuthCodesTable>): AuthorizationCodeRecord {
  return {
    digest: row.digest,
    clientId: row.client_id,
    accountId: row.account_id,
    redirectUri: row.redirect_uri,
    codeChallenge: row.code_challenge,
    scope: row.scope,
    resource: row.resource,
    projectKeys: projectKeysFrom(row.project_keys),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    usedAt: row.used_at,
    grantId: row.grant_id,
  };
}

function toGrant(row: Selectable<OAuthGrantsTable>): GrantRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    clientId: row.client_id,
    scope: row.scope,
    resource: row.resource,
    projectKeys: projectKeysFrom(row.project_keys),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
    revokedReason: row.revoked_reason,
  };
}

function toRefreshToken(row: Selectable<OAuthRefreshTokensTable>): RefreshTokenRecord {
  return { digest: row.digest, grantId: row.grant_id, createdAt: row.created_at, expiresAt: row.expires_at, usedAt: row.used_at };
}

export async function insertAuthorizationCode(db: Kysely<Database>, code: Omit<AuthorizationCodeRecord, 'usedAt' | 'grantId'>): Promise<void> {
  await db
    .insertInto('oauth_codes')
    .values({
      digest: code.digest,
      client_id: code.clientId,
      account_id: code.accountId,
      redirect_uri: code.redirectUri,
      code_challenge: code.codeChallenge,
      scope: code.scope,
      resource: code.resource,
      project_keys: projectKeysTo(code.projectKeys),
      created_at: code.createdAt,
      expires_at: code.expiresAt,
      used_at: null,
      grant_id: null,
    })
    .execute();
}

export async function findAuthorizationCode(db: Kysely<Database>, digest: string): Promise<AuthorizationCodeRecord | undefined> {
  const row = await db.selectFrom('oauth_codes').selectAll().where('digest', '=', digest).executeTakeFirst();
  return row && toCode(row);
}

/**
 * Marks an unused code used; false when it was used already (or a concurrent exchange won). Run it in the
 * transaction that creates and links the grant: on PostgreSQL a racing UPDATE waits for that transaction.
 */
export async function spendAuthorizationCode(db: Kysely<Database>, digest: string, at: Date): Promise<boolean> {
  const result = await db.updateTable('oauth_codes').set({ used_at: at.toISOString() }).where('digest', '=', digest).where('used_at', 'is', null).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function linkCodeToGrant(db: Kysely<Database>, digest: string, grantId: string): Promise<void> {
  await db.updateTable('oauth_codes').set({ grant_id: grantId }).where('digest', '=', digest).execute();
}

export async function insertGrant(db: Kysely<Database>, grant: Omit<GrantRecord, 'lastUsedAt' | 'revokedAt' | 'revokedReason'>): Promise<GrantRecord> {
  const row = {
    id: grant.id,
    account_id: grant.accountId,
    client_id: grant.clientId,
    scope: grant.scope,
    resource: grant.resource,
    project_keys: projectKeysTo(grant.projectKeys),
    created_at: grant.createdAt,
    expires_at: grant.expiresAt,
    last_used_at: null,
    revoked_at: null,
    revoked_reason: null,
  };
  await db.insertInto('oauth_grants').values(row).execute();
  return toGrant(row);
}

export async function findGrant(db: Kysely<Database>, id: string): Promise<GrantRecord | undefined> {
  const row = await db.selectFrom('oauth_grants').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toGrant(row);
}

/** True when the grant was live and is now revoked; its refresh tokens and access tokens stop working with it. */
export async function revokeGrant(db: Kysely<Database>, id: string, at: Date, reason: string): Promise<boolean> {
  const result = await db
    .updateTable('oauth_grants')
    .set({ revoked_at: at.toISOString(), revoked_reason: reason })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function touchGrant(db: Kysely<Database>, id: string, at: Date): Promise<void> {
  await db.updateTable('oauth_grants').set({ last_used_at: at.toISOString() }).where('id', '=', id).execute();
}

export interface GrantWithClient extends GrantRecord {
  clientName: string;
}

/** Live (unrevoked, unexpired) grants of an account, newest first, with the client's name. */
export async function listLiveGrantsForAccount(db: Kysely<Database>, accountId: string, now: Date): Promise<GrantWithClient[]> {
  const rows = await db
    .selectFrom('oauth_grants')
    .innerJoin('oauth_clients', 'oauth_clients.id', 'oauth_grants.client_id')
    .selectAll('oauth_grants')
    .select('oauth_clients.name as client_name')
    .where('oauth_grants.account_id', '=', accountId)
    .where('oauth_grants.revoked_at', 'is', null)
    .where('oauth_grants.expires_at', '>', now.toISOString())
    .orderBy('oauth_grants.created_at', 'desc')
    .orderBy('oauth_grants.id')
    .execute();
  return rows.map((row) => ({ ...toGrant(row), clientName: row.client_name }));
}

export async function insertRefreshToken(db: Kysely<Database>, token: Omit<RefreshTokenRecord, 'usedAt'>): Promise<void> {
  await db
    .insertInto('oauth_refresh_tokens')
    .values({ digest: token.digest, grant_id: token.grantId, created_at: token.createdAt, expires_at: token.expiresAt, used_at: null })
    .execute();
}

/** Marks the refresh token used (rotated); undefined for an unknown token. */
export async function useRefreshToken(db: Kysely<Database>, digest: string, at: Date): Promise<SingleUse<RefreshTokenRecord> | undefined> {
  const row = await db.selectFrom('oauth_refresh_tokens').selectAll().where('digest', '=', digest).executeTakeFirst();
  if (!row) return undefined;
  if (row.used_at !== null) return { status: 'reused', record: toRefreshToken(row) };
  const result = await db
    .updateTable('oauth_refresh_tokens')
    .set({ used_at: at.toISOString() })
    .where('digest', '=', digest)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) return { status: 'reused', record: toRefreshToken(row) };
  return { status: 'fresh', record: { ...toRefreshToken(row), usedAt: at.toISOString() } };
}

export async function findRefreshToken(db: Kysely<Database>, digest: string): Promise<RefreshTokenRecord | undefined> {
  const row = await db.selectFrom('oauth_refresh_tokens').selectAll().where('digest', '=', digest).executeTakeFirst();
  return row && toRefreshToken(row);
}

/** Housekeeping: codes a day past expiry, expired refresh tokens, grants dead (expired or revoked) for 30 days. */
export async function deleteExpiredOAuthRows(db: Kysely<Database>, now: Date): Promise<void> {
  const dayAgo = new Date(now.getTime() - 86_400_000).toISOString();
  const monthAgo = new Date(now.getTime() - 30 * 86_400_000).toISOString();
  await db.deleteFrom('oauth_codes').where('expires_at', '<', dayAgo).execute();
  await db.deleteFrom('oauth_refresh_tokens').where('expires_at', '<', now.toISOString()).execute();
  await db
    .deleteFrom('oauth_grants')
    .where((eb) => eb.or([eb('expires_at', '<', monthAgo), eb('revoked_at', '<', monthAgo)]))
    .execute();
}
