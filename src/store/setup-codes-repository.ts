// First-run setup codes: while the installation has no owner, each instance that starts prints a fresh code in its
// log, and /setup needs one of them, so whoever reaches a new server first cannot claim it without the log. Only
// digests are kept; creating the owner deletes them all.
import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import { sameDigest, sha256Hex } from '../auth/oauth/secrets.ts';
import type { Database } from './schema.ts';

/** No 0/O, 1/I: the code is read from a log and typed. 16 characters of 32 kinds: 80 bits. */
const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const GROUPS = 4;
/** Codes kept at most (the newest): restarts in a loop do not grow the table. */
const KEPT = 20;

/** Upper-case, without spaces and dashes: how a code is compared however it was typed. */
export function normalizeSetupCode(input: string): string {
  return input.toUpperCase().replace(/[\s-]+/g, '');
}

export async function issueSetupCode(db: Kysely<Database>, now: Date): Promise<string> {
  const groups = Array.from({ length: GROUPS }, () => Array.from({ length: 4 }, () => ALPHABET[randomInt(ALPHABET.length)]).join(''));
  const code = groups.join('-');
  await db.insertInto('setup_codes').values({ digest: sha256Hex(normalizeSetupCode(code)), created_at: now.toISOString() }).execute();
  const stale = await db.selectFrom('setup_codes').select('digest').orderBy('created_at', 'desc').offset(KEPT).limit(1000).execute();
  if (stale.length > 0) await db.deleteFrom('setup_codes').where('digest', 'in', stale.map((r) => r.digest)).execute();
  return code;
}

export async function setupCodeMatches(db: Kysely<Database>, input: string): Promise<boolean> {
  const normalized = normalizeSetupCode(input);
  if (normalized.length !== GROUPS * 4) return false;
  const digest = sha256Hex(normalized);
  const rows = await db.selectFrom('setup_codes').select('digest').execute();
  return rows.some((row) => sameDigest(row.digest, digest));
}

export async function clearSetupCodes(db: Kysely<Database>): Promise<void> {
  await db.deleteFrom('setup_codes').execute();
}
