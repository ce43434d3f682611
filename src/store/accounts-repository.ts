// Accounts: who owns API keys and sees projects. Emails are unique case-insensitively; passwords are scrypt hashes.
import type { Kysely, Selectable } from 'kysely';
import { AppError, invalidParameter } from '../errors/app-error.ts';
import { hashPassword, MIN_PASSWORD_LENGTH, needsRehash, verifyPassword } from '../auth/password.ts';
import { deleteSessionsOfAccount } from './account-sessions-repository.ts';
import { isUniqueViolation } from './db-errors.ts';
import { newId } from './ids.ts';
import type { AccountsTable, Database } from './schema.ts';

export interface AccountRecord {
  id: string;
  email: string;
  name: string;
  createdAt: string;
  hasPassword: boolean;
}

export interface NewAccount {
  email: string;
  name: string;
  password?: string | undefined;
  now?: Date;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function toAccount(row: Selectable<AccountsTable>): AccountRecord {
  return { id: row.id, email: row.email, name: row.name, createdAt: row.created_at, hasPassword: row.password_hash !== null };
}

function assertPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw invalidParameter('password', `The password must be at least ${MIN_PASSWORD_LENGTH} characters long.`);
  }
}

export async function createAccount(db: Kysely<Database>, input: NewAccount): Promise<AccountRecord> {
  const email = input.email.trim();
  if (email.length > 254 || !EMAIL.test(email)) throw invalidParameter('email', `'${input.email}' is not an email address.`);
  const name = input.name.trim();
  if (!name) throw invalidParameter('name', 'The account name must not be empty.');
  if (input.password !== undefined) assertPassword(input.password);
  const row = {
    id: newId('acct'),
    email,
    email_normalized: normalizeEmail(email),
    name,
    password_hash: input.password === undefined ? null : await hashPassword(input.password),
    created_at: (input.now ?? new Date()).toISOString(),
  };
  try {
    await db.insertInto('accounts').values(row).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw invalidParameter('email', `An account with the email '${email}' already exists.`);
    throw error;
  }
  return toAccount(row);
}

export async function findAccountByEmail(db: Kysely<Database>, email: string): Promise<AccountRecord | undefined> {
  const row = await db.selectFrom('accounts').selectAll().where('email_normalized', '=', normalizeEmail(email)).executeTakeFirst();
  return row && toAccount(row);
}

export async function findAccountById(db: Kysely<Database>, id: string): Promise<AccountRecord | undefined> {
  const row = await db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toAccount(row);
}

/** Like findAccountByEmail, but an unknown email is a 404 naming it. */
export async function requireAccountByEmail(db: Kysely<Database>, email: string): Promise<AccountRecord> {
  const account = await findAccountByEmail(db, email);
  if (!account) throw new AppError('not_found', `No account with the email '${email}'.`);
  return account;
}

export async function listAccounts(db: Kysely<Database>): Promise<AccountRecord[]> {
  const rows = await db.selectFrom('accounts').selectAll().orderBy('email_normalized').execute();
  return rows.map(toAccount);
}

/** Sets a new password and ends the account's browser sessions (whoever knew the old one is signed out). */
export async function setAccountPassword(db: Kysely<Database>, accountId: string, password: string): Promise<void> {
  assertPassword(password);
  const passwordHash = await hashPassword(password);
  const run = async (trx: Kysely<Database>) => {
    const result = await trx.updateTable('accounts').set({ password_hash: passwordHash }).where('id', '=', accountId).executeTakeFirst();
    if (result.numUpdatedRows === 0n) throw new AppError('not_found', `No account with the id '${accountId}'.`);
    await deleteSessionsOfAccount(trx, accountId);
  };
  await (db.isTransaction ? run(db) : db.transaction().execute(run));
}

// Verified against when the email is unknown, so both paths cost one scrypt (no account-existence timing oracle).
let dummyHash: Promise<string> | undefined;

/** The account when the email exists and the password matches; undefined otherwise (same cost either way). */
export async function verifyAccountPassword(db: Kysely<Database>, email: string, password: string): Promise<AccountRecord | undefined> {
  const row = await db.selectFrom('accounts').selectAll().where('email_normalized', '=', normalizeEmail(email)).executeTakeFirst();
  if (!row?.password_hash) {
    dummyHash ??= hashPassword('not a real password');
    await verifyPassword(password, await dummyHash);
    return undefined;
  }
  if (!(await verifyPassword(password, row.password_hash))) return undefined;
  if (needsRehash(row.password_hash)) await upgradePasswordHash(db, row.id, row.password_hash, password);
  return toAccount(row);
}

/** Stores the password at today's cost, unless it was changed meanwhile (the old hash is the condition). */
async function upgradePasswordHash(db: Kysely<Database>, accountId: string, oldHash: string, password: string): Promise<void> {
  const upgraded = await hashPassword(password);
  await db.updateTable('accounts').set({ password_hash: upgraded }).where('id', '=', accountId).where('password_hash', '=', oldHash).execute();
}
