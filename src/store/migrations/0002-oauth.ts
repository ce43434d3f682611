// OAuth authorization server and account pages: registered clients, authorization codes, grants with their
// rotating refresh tokens, and browser sessions. Secrets, codes, tokens and session ids are stored only as
// SHA-256 digests (they are 256-bit random values, so a fast hash is enough).
import type { Kysely } from 'kysely';

// Migrations must not depend on the current typed schema, which moves on with later migrations.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('oauth_clients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('secret_digest', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('redirect_uris', 'text', (c) => c.notNull())
    .addColumn('grant_types', 'text', (c) => c.notNull())
    .addColumn('token_endpoint_auth_method', 'text', (c) => c.notNull())
    .addColumn('scope', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('oauth_clients_created_idx').on('oauth_clients').column('created_at').execute();

  await db.schema
    .createTable('oauth_grants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.id').onDelete('cascade'))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('project_keys', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('revoked_reason', 'text')
    .execute();
  await db.schema.createIndex('oauth_grants_account_idx').on('oauth_grants').column('account_id').execute();
  await db.schema.createIndex('oauth_grants_client_idx').on('oauth_grants').column('client_id').execute();

  await db.schema
    .createTable('oauth_codes')
    .addColumn('digest', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('code_challenge', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('project_keys', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('grant_id', 'text', (c) => c.references('oauth_grants.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('oauth_codes_expires_idx').on('oauth_codes').column('expires_at').execute();

  await db.schema
    .createTable('oauth_refresh_tokens')
    .addColumn('digest', 'text', (c) => c.primaryKey())
    .addColumn('grant_id', 'text', (c) => c.notNull().references('oauth_grants.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('oauth_refresh_tokens_grant_idx').on('oauth_refresh_tokens').column('grant_id').execute();

  await db.schema
    .createTable('account_sessions')
    .addColumn('digest', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('account_sessions_account_idx').on('account_sessions').column('account_id').execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of ['account_sessions', 'oauth_refresh_tokens', 'oauth_codes', 'oauth_grants', 'oauth_clients']) {
    await db.schema.dropTable(table).execute();
  }
}
