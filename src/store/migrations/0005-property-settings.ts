// The analytics property's own time zone and currency, read when the source is connected and whenever a report
// shows they changed: analytics periods and buckets follow them, whatever the project is set to.
import type { Kysely } from 'kysely';

// Migrations must not depend on the current typed schema, which moves on with later migrations.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('data_sources').addColumn('time_zone', 'text').execute();
  await db.schema.alterTable('data_sources').addColumn('currency_code', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('data_sources').dropColumn('currency_code').execute();
  await db.schema.alterTable('data_sources').dropColumn('time_zone').execute();
}
