// Brand terms per project: the words that make a search query a brand query (the site's own name, product names).
// A JSON array of strings as text, so SQLite and PostgreSQL store it alike; null means "derived from the domain".
// Numbered 0004 though it arrives after 0005: the migrator allows unordered migrations for exactly this case.
import type { Kysely } from 'kysely';

// Migrations must not depend on the current typed schema, which moves on with later migrations.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('projects').addColumn('brand_terms', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('projects').dropColumn('brand_terms').execute();
}
