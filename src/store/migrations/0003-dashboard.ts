// The dashboard: account roles (the first account set up in the browser is the owner), single-use invitation
// links (stored as SHA-256 digests), Google connections in progress (PKCE verifier and, after consent, the refresh
// token, both sealed, until the user picks a property and site), and funnel versions (an edit replaces the steps
// and bumps the version).
import type { Kysely } from 'kysely';

type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('accounts').addColumn('role', 'text', (c) => c.notNull().defaultTo('member')).execute();
  // Whoever was there first (a CLI-created account) owns the installation.
  const first = await db.selectFrom('accounts').select('id').orderBy('created_at').orderBy('id').limit(1).executeTakeFirst();
  if (first) await db.updateTable('accounts').set({ role: 'owner' }).where('id', '=', first.id).execute();

  await db.schema.alterTable('funnels').addColumn('version', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('funnels').addColumn('updated_at', 'text').execute();

  await db.schema
    .createTable('invites')
    .addColumn('digest', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('invites_created_by_idx').on('invites').column('created_by').execute();

  await db.schema
    .createTable('google_connect_flows')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('state_digest', 'text', (c) => c.notNull().unique())
    .addColumn('session_digest', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('verifier_ciphertext', 'text', (c) => c.notNull())
    .addColumn('token_ciphertext', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('google_connect_flows_expires_idx').on('google_connect_flows').column('expires_at').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('google_connect_flows').execute();
  await db.schema.dropTable('invites').execute();
  await db.schema.alterTable('funnels').dropColumn('updated_at').execute();
  await db.schema.alterTable('funnels').dropColumn('version').execute();
  await db.schema.alterTable('accounts').dropColumn('role').execute();
}
