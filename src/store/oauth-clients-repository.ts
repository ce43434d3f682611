// OAuth clients registered through dynamic client registration (RFC 7591). Only the secret's digest is kept.
// Registration is cheap and frequent (Claude registers on every fresh connection), so clients that were never
// used expire after a day, and clients whose grants are all gone expire after a longer idle period.
import type { Kysely, Selectable } from 'kysely';
import type { Database, OAuthClientsTable } from './schema.ts';

export interface OAuthClientRecord {
  id: string;
  secretDigest: string | null;
  name: string;
  redirectUris: string[];
  grantTypes: string[];
  tokenEndpointAuthMethod: string;
  scope: string | null;
  /** Other registered metadata, echoed in the registration response. */
  metadata: Record<string, unknown>;
  createdAt: string;
  lastUsedAt: string | null;
}

function toClient(row: Selectable<OAuthClientsTable>): OAuthClientRecord {
  return {
    id: row.id,
    secretDigest: row.secret_digest,
    name: row.name,
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    grantTypes: row.grant_types.split(' ').filter(Boolean),
    tokenEndpointAuthMethod: row.token_endpoint_auth_method,
    scope: row.scope,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}

export async function insertOAuthClient(db: Kysely<Database>, client: Omit<OAuthClientRecord, 'lastUsedAt'>): Promise<OAuthClientRecord> {
  const row = {
    id: client.id,
    secret_digest: client.secretDigest,
    name: client.name,
    redirect_uris: JSON.stringify(client.redirectUris),
    grant_types: client.grantTypes.join(' '),
    token_endpoint_auth_method: client.tokenEndpointAuthMethod,
    scope: client.scope,
    metadata: JSON.stringify(client.metadata),
    created_at: client.createdAt,
    last_used_at: null,
  };
  await db.insertInto('oauth_clients').values(row).execute();
  return toClient(row);
}

export async function findOAuthClient(db: Kysely<Database>, id: string): Promise<OAuthClientRecord | undefined> {
  const row = await db.selectFrom('oauth_clients').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toClient(row);
}

export async function touchOAuthClient(db: Kysely<Database>, id: string, at: Date): Promise<void> {
  await db.updateTable('oauth_clients').set({ last_used_at: at.toISOString() }).where('id', '=', id).execute();
}

export async function deleteOAuthClient(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = await db.deleteFrom('oauth_clients').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/**
 * Deletes clients never used since `unusedBefore` (registered and abandoned), and clients idle since `idleBefore`
 * that hold no live grant. Returns how many were deleted.
 */
export async function deleteStaleOAuthClients(
  db: Kysely<Database>,
  cutoffs: { unusedBefore: Date; idleBefore: Date; now: Date },
): Promise<number> {
  const unused = await db
    .deleteFrom('oauth_clients')
    .where('last_used_at', 'is', null)
    .where('created_at', '<', cutoffs.unusedBefore.toISOString())
    .executeTakeFirst();
  const now = cutoffs.now.toISOString();
  const idle = await db
    .deleteFrom('oauth_clients')
    .where('last_used_at', '<', cutoffs.idleBefore.toISOString())
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('oauth_grants')
            .select('oauth_grants.id')
            .whereRef('oauth_grants.client_id', '=', 'oauth_clients.id')
            .where('oauth_grants.revoked_at', 'is', null)
            .where('oauth_grants.expires_at', '>', now),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(unused.numDeletedRows + idle.numDeletedRows);
}
