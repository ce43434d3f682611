// One stored Google grant per (OAuth client, Google account) in this installation. At Google, one account's consent
// to one client is one grant: revoking any of its refresh tokens revokes all of them, and only the 100 newest
// refresh tokens of an account work. So the refresh token lives once, in google_grants (the newest one Google
// issued), and projects' Google data sources name the grant they use (data_sources.google_grant_id); their own
// sealed credential is rewritten whenever the grant's token changes. A "Connect Google" flow remembers whose
// tokens it holds (google_subject), so a sweep can tell whether revoking them would cut other connections.
// Rows connected before this migration have no grant: they keep their own token and are never revoked at Google
// by Siteline (it cannot tell which other rows share that account).
import type { Kysely } from 'kysely';

// Migrations must not depend on the current typed schema, which moves on with later migrations.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('google_grants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('token_ciphertext', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('google_grants_client_subject_key', ['client_id', 'subject'])
    .execute();
  await db.schema.alterTable('data_sources').addColumn('google_grant_id', 'text').execute();
  await db.schema.createIndex('data_sources_google_grant_idx').on('data_sources').column('google_grant_id').execute();
  await db.schema.alterTable('google_connect_flows').addColumn('google_subject', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('google_connect_flows').dropColumn('google_subject').execute();
  await db.schema.dropIndex('data_sources_google_grant_idx').execute();
  await db.schema.alterTable('data_sources').dropColumn('google_grant_id').execute();
  await db.schema.dropTable('google_grants').execute();
}
