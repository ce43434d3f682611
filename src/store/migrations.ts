// The ordered migration table, applied at open by kysely's Migrator. To add one: write
// `migrations/NNNN-name.ts` exporting `up` (and `down`) and add one line here; names sort in apply order. A
// database may have applied a later number first (0004 was written after 0005 shipped): the migrator allows that.
import type { Migration, MigrationProvider } from 'kysely/migration';
import * as m0001 from './migrations/0001-initial.ts';
import * as m0002 from './migrations/0002-oauth.ts';
import * as m0003 from './migrations/0003-dashboard.ts';
import * as m0004 from './migrations/0004-brand-terms.ts';
import * as m0005 from './migrations/0005-property-settings.ts';
import * as m0006 from './migrations/0006-one-owner.ts';
import * as m0007 from './migrations/0007-project-roles.ts';
import * as m0008 from './migrations/0008-google-grants.ts';
import * as m0009 from './migrations/0009-deliveries.ts';

export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001-initial': m0001,
  '0002-oauth': m0002,
  '0003-dashboard': m0003,
  '0004-brand-terms': m0004,
  '0005-property-settings': m0005,
  '0006-one-owner': m0006,
  '0007-project-roles': m0007,
  '0008-google-grants': m0008,
  '0009-deliveries': m0009,
};

export function createStaticMigrationProvider(migrations: Readonly<Record<string, Migration>> = MIGRATIONS): MigrationProvider {
  return { getMigrations: async () => ({ ...migrations }) };
}
