// Account roles: the owner (the account set up first) may invite teammates; everyone else is a member.
import type { Kysely } from 'kysely';
import { withDashboardColumns, type Database } from './schema.ts';

export type AccountRole = 'owner' | 'member';

export async function countAccounts(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('accounts').select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function roleOf(db: Kysely<Database>, accountId: string): Promise<AccountRole> {
  const row = await withDashboardColumns(db).selectFrom('accounts').select('role').where('id', '=', accountId).executeTakeFirst();
  return row?.role === 'owner' ? 'owner' : 'member';
}

export async function setRole(db: Kysely<Database>, accountId: string, role: AccountRole): Promise<void> {
  await withDashboardColumns(db).updateTable('accounts').set({ role }).where('id', '=', accountId).execute();
}
