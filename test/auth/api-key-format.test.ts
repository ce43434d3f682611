import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BASE62 } from '../../src/store/ids.ts';
import { checksumOf, digestOf, displayPrefixOf, generateApiKey, hasValidChecksum, KEY_LENGTH, last4Of } from '../../src/auth/api-key-format.ts';

describe('API key format', () => {
  it('is sl_live_ + 32 base62 + 6 base62 checksum characters', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^sl_live_[0-9A-Za-z]{38}$/);
    expect(key.length).toBe(KEY_LENGTH);
    expect(key.slice(-6)).toBe(checksumOf(key.slice(0, -6)));
  });

  it('every generated key validates', () => {
    fc.assert(fc.property(fc.constant(null), () => hasValidChecksum(generateApiKey())), { numRuns: 500 });
  });

  it('any single-character change fails the checksum', () => {
    fc.assert(
      fc.property(fc.integer({ min: 8, max: KEY_LENGTH - 1 }), fc.integer({ min: 1, max: 61 }), (position, shift) => {
        const key = generateApiKey();
        const original = key[position] ?? '0';
        const replacement = BASE62[(BASE62.indexOf(original) + shift) % 62] ?? '0';
        const mutated = key.slice(0, position) + replacement + key.slice(position + 1);
        return mutated !== key && !hasValidChecksum(mutated);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses a character outside base62 even when the checksum matches it', () => {
    const body = `sl_live_${'A'.repeat(31)}-`;
    expect(hasValidChecksum(body + checksumOf(body))).toBe(false);
    const good = `sl_live_${'A'.repeat(32)}`;
    expect(hasValidChecksum(good + checksumOf(good))).toBe(true);
  });

  it('rejects wrong shapes', () => {
    const key = generateApiKey();
    for (const bad of ['', 'sl_live_', key.slice(0, -1), `${key}0`, key.replace('sl_live_', 'sl_test_'), key.replace('sl_live_', 'SL_LIVE_'), `${key.slice(0, 20)}-${key.slice(21)}`]) {
      expect(hasValidChecksum(bad)).toBe(false);
    }
  });

  it('draws random characters without bias across the whole alphabet', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 2000; i += 1) for (const c of generateApiKey().slice(8, 40)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    const expected = (2000 * 32) / 62; // ≈ 1032
    for (const n of counts.values()) expect(Math.abs(n - expected)).toBeLessThan(expected * 0.2);
  });

  it('derives digest, display prefix and last 4', () => {
    const key = 'sl_live_AbCdEFGHIJKLMNOPQRSTUVWXYZ012345' + checksumOf('sl_live_AbCdEFGHIJKLMNOPQRSTUVWXYZ012345');
    expect(digestOf(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(displayPrefixOf(key)).toBe('sl_live_AbCd');
    expect(last4Of(key)).toBe(key.slice(-4));
  });
});
