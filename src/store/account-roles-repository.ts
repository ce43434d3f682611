// Account roles: the owner (the account set up first) may invite teammates; everyone else is a member.
import type { Kysely } from 'kysely';
import { isUniqueViolation } from './db-errors.ts';
import { withDashboardColumns, type Database } from './schema.ts';

export type AccountRole = 'owner' | 'member';

export async function countAccounts(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('accounts').select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * `owner` when marked so, or — while no account is marked (accounts made by the CLI or the demo seeding) — when it
 * is the oldest account: whoever was there first owns the installation.
 */
export async function roleOf(db: Kysely<Database>, accountId: string): Promise<AccountRole> {
  const dbx = withDashboardColumns(db);
  const row = await dbx.selectFrom('accounts').select('role').where('id', '=', accountId).executeTakeFirst();
  if (!row) return 'member';
  if (row.role === 'owner') return 'owner';
  const marked = await dbx.selectFrom('accounts').select('id').where('role', '=', 'owner').limit(1).executeTakeFirst();
  if (marked) return 'member';
  const oldest = await dbx.selectFrom('accounts').select('id').orderBy('created_at').orderBy('id').limit(1).executeTakeFirst();
  return oldest?.id === accountId ? 'owner' : 'member';
}

export async function setRole(db: Kysely<Database>, accountId: string, role: AccountRole): Promise<void> {
  await withDashboardColumns(db).updateTable('accounts').set({ role }).where('id', '=', accountId).execute();
}

/**
 * Marks the account as the owner unless another account already is (false then). Run it in the transaction that
 * created the account, so a lost race leaves no account behind.
 */
export async function claimOwnership(db: Kysely<Database>, accountId: string): Promise<boolean> {
  try {
    await setRole(db, accountId, 'owner');
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}
