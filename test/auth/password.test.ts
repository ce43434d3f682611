import { scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, passwordCost, SCRYPT_PARAMS, verifyPassword } from '../../src/auth/password.ts';
import { TEST_PASSWORD_COST } from '../helpers/password-cost.ts';

describe('password hashing at the production cost', () => {
  // The only hashes the suite makes at production's cost (the test setup lowers it everywhere else).
  it('the production parameters are OWASP’s scrypt minimum: N = 2^17, r = 8, p = 1', () => {
    expect(SCRYPT_PARAMS).toEqual({ N: 131_072, r: 8, p: 1 });
  });

  it('a hash made with them verifies the right password only, and an independent scrypt derives it', async () => {
    const stored = await hashPassword('correct horse battery', SCRYPT_PARAMS);
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
    expect(needsRehash(stored, SCRYPT_PARAMS)).toBe(false);
    const [, , , , salt, hash] = stored.split('$');
    const derived = scryptSync('correct horse battery', Buffer.from(salt!, 'base64'), 32, { ...SCRYPT_PARAMS, maxmem: 256 * 1024 * 1024 });
    expect(derived.toString('base64')).toBe(hash);
  });
});

describe('password hashing at the current cost', () => {
  it('new hashes take the current cost, which the test setup lowered', async () => {
    expect(passwordCost()).toEqual(TEST_PASSWORD_COST);
    const stored = await hashPassword('correct horse battery');
    expect(stored.startsWith(`scrypt$${TEST_PASSWORD_COST.N}$${TEST_PASSWORD_COST.r}$${TEST_PASSWORD_COST.p}$`)).toBe(true);
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(needsRehash(stored)).toBe(false);
    expect(await hashPassword('correct horse battery')).not.toBe(stored); // a random salt each time
  });

  it('a hash at the test cost needs re-hashing against production’s', async () => {
    expect(needsRehash(await hashPassword('correct horse battery'), SCRYPT_PARAMS)).toBe(true);
  });

  it('treats malformed stored hashes as a mismatch', async () => {
    expect(await verifyPassword('x', 'plain-text')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$16384$8$1$c2FsdA==$')).toBe(false);
  });

  it('still verifies hashes made at the old cost, and says they need re-hashing', async () => {
    const old = await hashPassword('correct horse battery', { N: 16_384, r: 8, p: 1 });
    expect(await verifyPassword('correct horse battery', old)).toBe(true);
    expect(needsRehash(old, SCRYPT_PARAMS)).toBe(true);
  });
});

describe('stored hashes that must never verify', () => {
  // A low cost keeps these fast; the format and the checks are the same at any cost.
  const LOW = { N: 1_024, r: 8, p: 1 };

  it('derives with the parameters written in the hash (an independent scrypt agrees)', async () => {
    const stored = await hashPassword('correct horse battery', LOW);
    const [, n, r, p, salt, hash] = stored.split('$');
    expect([n, r, p]).toEqual(['1024', '8', '1']);
    expect(scryptSync('correct horse battery', Buffer.from(salt!, 'base64'), 32, LOW).toString('base64')).toBe(hash);
  });

  it('refuses another scheme, missing or zero parameters and an empty hash, without throwing', async () => {
    const stored = await hashPassword('pw-12345', LOW);
    const [, n, r, p, salt, hash] = stored.split('$');
    const variants = [
      ['bcrypt', n, r, p, salt, hash],
      ['scrypt', '', r, p, salt, hash],
      ['scrypt', n, '', p, salt, hash],
      ['scrypt', n, r, '', salt, hash],
      ['scrypt', n, r, p, salt, '!!!!'], // decodes to no bytes: an empty comparison must not count as a match
      // Parameters scrypt refuses: a hand-edited or corrupted row is a mismatch, not a failed sign-in (500).
      ['scrypt', '0', r, p, salt, hash],
      ['scrypt', 'abc', r, p, salt, hash],
      ['scrypt', String(2 ** 40), r, p, salt, hash],
    ];
    for (const variant of variants) expect(await verifyPassword('pw-12345', variant.join('$')), variant.join('$')).toBe(false);
    expect(await verifyPassword('pw-12345', stored)).toBe(true);
  });

  it('asks for a re-hash when any one parameter is below today’s', () => {
    expect(needsRehash('scrypt$131072$8$1$s$h', SCRYPT_PARAMS)).toBe(false);
    expect(needsRehash('scrypt$65536$8$1$s$h', SCRYPT_PARAMS)).toBe(true);
    expect(needsRehash('scrypt$131072$4$1$s$h', SCRYPT_PARAMS)).toBe(true);
    expect(needsRehash('scrypt$131072$8$0$s$h', SCRYPT_PARAMS)).toBe(true);
  });
});

