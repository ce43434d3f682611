// Password hashing with scrypt (node:crypto): `scrypt$<N>$<r>$<p>$<salt b64>$<hash b64>`, parameters stored
// with the hash so they can be raised later without invalidating existing passwords: older hashes still verify,
// and `needsRehash` tells the sign-in to store a new one at the current cost.
// The current cost is the production one unless the test setup lowers it with `setPasswordCost` (nothing in src/
// calls it): a few hundred ms per hash is the point in production and most of a test pass's CPU in tests.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { ScryptOptions } from 'node:crypto';

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** OWASP Password Storage Cheat Sheet: N = 2^17, r = 8, p = 1 (128 MiB and a few hundred ms per hash). */
export const SCRYPT_PARAMS: Readonly<ScryptCost> = Object.freeze({ N: 131_072, r: 8, p: 1 });
let currentCost: Readonly<ScryptCost> = SCRYPT_PARAMS;

/** The cost new hashes get and older hashes are upgraded to: SCRYPT_PARAMS unless `setPasswordCost` changed it. */
export function passwordCost(): Readonly<ScryptCost> {
  return currentCost;
}

/** Test setup only: hash at a lower cost in this process (the stored format and every check stay the same). */
export function setPasswordCost(cost: ScryptCost): void {
  currentCost = Object.freeze({ ...cost });
}
const KEY_LENGTH = 32;
export const MIN_PASSWORD_LENGTH = 8;
// 128 · N · r bytes for the current parameters, with room to spare.
const MAX_MEMORY = 256 * 1024 * 1024;

function derive(password: string, salt: Buffer, options: ScryptOptions, keyLength: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, keyLength, { ...options, maxmem: MAX_MEMORY }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** Hashes at the current cost; `params` lets tests write hashes the way older versions did. */
export async function hashPassword(password: string, params: ScryptCost = currentCost): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, params, KEY_LENGTH);
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/** False for a wrong password and for a malformed stored hash; comparison is constant-time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  if (expected.length === 0) return false;
  let actual: Buffer;
  try {
    actual = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) }, expected.length);
  } catch {
    // Parameters scrypt refuses (zero, not a number, beyond the memory bound): a corrupted row is a mismatch.
    return false;
  }
  return timingSafeEqual(actual, expected);
}

/** True when a stored hash was made at a lower cost than today's (re-hash it after a successful sign-in). */
export function needsRehash(stored: string, current: ScryptCost = currentCost): boolean {
  const [, n, r, p] = stored.split('$');
  return Number(n) < current.N || Number(r) < current.r || Number(p) < current.p;
}
