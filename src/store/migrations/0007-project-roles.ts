// Project roles, invitations to projects, and first-run setup codes.
// - account_projects.role: `viewer`, `editor` or `admin` (src/domain/access-policy.ts). Until now everyone with
//   access could do everything; rows that exist are given roles by who came first: each project's earliest access
//   row(s) (its creator, or the first grant the CLI made) become admin, later ones editor (they keep funnels and
//   brand terms, lose sharing, sources and deletion; an admin can promote them again).
// - invites: an invitation may now be to a project with a role (sharing asks the other account to accept instead
//   of putting the project in their list); email_normalized finds an account's invitations.
// - audit_log.project_id: the project an entry belongs to, so a project's admins can read its log (no foreign key:
//   the log outlives a deleted project).
// - setup_codes: the one-time codes printed in the server log at first start (digests only); /setup needs one.
import { sql, type Kysely } from 'kysely';

// Migrations must not depend on the current typed schema, which moves on with later migrations.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('account_projects').addColumn('role', 'text', (c) => c.notNull().defaultTo('viewer')).execute();
  await db.updateTable('account_projects').set({ role: 'editor' }).execute();
  await sql`UPDATE account_projects SET role = 'admin'
    WHERE created_at = (SELECT MIN(first.created_at) FROM account_projects first WHERE first.project_id = account_projects.project_id)`.execute(db);

  await db.schema.alterTable('invites').addColumn('project_id', 'text', (c) => c.references('projects.id').onDelete('cascade')).execute();
  await db.schema.alterTable('invites').addColumn('role', 'text').execute();
  await db.schema.alterTable('invites').addColumn('email_normalized', 'text').execute();
  await sql`UPDATE invites SET email_normalized = lower(trim(email))`.execute(db);
  await db.schema.createIndex('invites_email_idx').on('invites').column('email_normalized').execute();
  await db.schema.createIndex('invites_project_idx').on('invites').column('project_id').execute();

  await db.schema.alterTable('audit_log').addColumn('project_id', 'text').execute();
  await db.schema.createIndex('audit_log_project_idx').on('audit_log').columns(['project_id', 'id']).execute();

  await db.schema
    .createTable('setup_codes')
    .addColumn('digest', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('setup_codes').execute();
  await db.schema.dropIndex('audit_log_project_idx').execute();
  await db.schema.alterTable('audit_log').dropColumn('project_id').execute();
  await db.schema.dropIndex('invites_project_idx').execute();
  await db.schema.dropIndex('invites_email_idx').execute();
  await db.schema.alterTable('invites').dropColumn('email_normalized').execute();
  await db.schema.alterTable('invites').dropColumn('role').execute();
  await db.schema.alterTable('invites').dropColumn('project_id').execute();
  await db.schema.alterTable('account_projects').dropColumn('role').execute();
}
