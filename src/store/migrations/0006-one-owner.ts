// At most one account is marked owner: two first-run /setup forms sent at the same moment would otherwise both
// find no account and both create an owner. The partial unique index makes the second claim fail atomically.
import { sql, type Kysely } from 'kysely';

// Migrations must not depend on the current typed schema, which moves on with later migrations.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await sql`CREATE UNIQUE INDEX accounts_one_owner ON accounts (role) WHERE role = 'owner'`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await sql`DROP INDEX accounts_one_owner`.execute(db);
}
