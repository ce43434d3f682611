import { scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, verifyPassword } from '../../src/auth/password.ts';

describe('password hashing', () => {
  it('hashes with scrypt and a random salt, and verifies only the right password', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse batterY', a)).toBe(false);
  });

  it('treats malformed stored hashes as a mismatch', async () => {
    expect(await verifyPassword('x', 'plain-text')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$16384$8$1$c2FsdA==$')).toBe(false);
  });

  it('still verifies hashes made at the old cost, and says they need re-hashing', async () => {
    const old = await hashPassword('correct horse battery', { N: 16_384, r: 8, p: 1 });
    expect(await verifyPassword('correct horse battery', old)).toBe(true);
    expect(needsRehash(old)).toBe(true);
    expect(needsRehash(await hashPassword('x'.repeat(8)))).toBe(false);
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
    expect(needsRehash('scrypt$131072$8$1$s$h')).toBe(false);
    expect(needsRehash('scrypt$65536$8$1$s$h')).toBe(true);
    expect(needsRehash('scrypt$131072$4$1$s$h')).toBe(true);
    expect(needsRehash('scrypt$131072$8$0$s$h')).toBe(true);
  });
});

