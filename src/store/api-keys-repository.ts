// API key rows: only the SHA-256 digest, a display prefix and the last 4 characters are stored, never the key.
import type { Kysely, Selectable } from 'kysely';
import type { Database, ApiKeysTable } from './schema.ts';

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  name: string;
  /** SHA-256 hex of the full key. */
  digest: string;
  /** `sl_live_` + the first 4 random characters, for display. */
  prefix: string;
  last4: string;
  scopes: string[];
  /** null = every project the account can see. */
  projectKeys: string[] | null;
  rateLimitPerMinute: number | null;
  expiresAt: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  rotatedFrom: string | null;
}

export type NewApiKeyRow = Omit<ApiKeyRecord, 'lastUsedAt' | 'revokedAt'>;

function toApiKey(row: Selectable<ApiKeysTable>): ApiKeyRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    digest: row.digest,
    prefix: row.prefix,
    last4: row.last4,
    scopes: row.scopes.split(' ').filter(Boolean),
    projectKeys: row.project_keys === null ? null : (JSON.parse(row.project_keys) as string[]),
    rateLimitPerMinute: row.rate_limit_per_min,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
    rotatedFrom: row.rotated_from,
  };
}

export async function insertApiKey(db: Kysely<Database>, key: NewApiKeyRow): Promise<ApiKeyRecord> {
  const row = {
    id: key.id,
    account_id: key.accountId,
    name: key.name,
    digest: key.digest,
    prefix: key.prefix,
    last4: key.last4,
    scopes: key.scopes.join(' '),
    project_keys: key.projectKeys === null ? null : JSON.stringify(key.projectKeys),
    rate_limit_per_min: key.rateLimitPerMinute,
    expires_at: key.expiresAt,
    created_at: key.createdAt,
    last_used_at: null,
    revoked_at: null,
    rotated_from: key.rotatedFrom,
  };
  await db.insertInto('api_keys').values(row).execute();
  return toApiKey(row);
}

export async function findApiKeyByDigest(db: Kysely<Database>, digest: string): Promise<ApiKeyRecord | undefined> {
  const row = await db.selectFrom('api_keys').selectAll().where('digest', '=', digest).executeTakeFirst();
  return row && toApiKey(row);
}

export async function findApiKeyById(db: Kysely<Database>, id: string): Promise<ApiKeyRecord | undefined> {
  const row = await db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toApiKey(row);
}

/** Newest first. */
export async function listApiKeysForAccount(db: Kysely<Database>, accountId: string): Promise<ApiKeyRecord[]> {
  const rows = await db
    .selectFrom('api_keys')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map(toApiKey);
}

/** True when the key was active and is now revoked. */
export async function revokeApiKey(db: Kysely<Database>, id: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: at.toISOString() })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Records a use unless one was recorded less than `minIntervalMs` ago. The condition is in SQL, so instances
 * sharing a database write at most once per interval between them.
 */
export async function touchApiKeyLastUsed(db: Kysely<Database>, id: string, at: Date, minIntervalMs = 60_000): Promise<boolean> {
  const threshold = new Date(at.getTime() - minIntervalMs).toISOString();
  const result = await db
    .updateTable('api_keys')
    .set({ last_used_at: at.toISOString() })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', threshold)]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Shortens the replaced key's life to the grace period (never lengthens it). */
export async function markApiKeyRotated(db: Kysely<Database>, id: string, expiresAt: string): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ expires_at: expiresAt })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', expiresAt)]))
    .execute();
}
