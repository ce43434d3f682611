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
