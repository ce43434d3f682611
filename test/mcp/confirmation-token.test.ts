// Confirmation tokens: bound to credential and payload, expire after 10 minutes, tamper-evident.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createConfirmationTokens, payloadHash } from '../../src/mcp/confirmation-token.ts';
import { expectAppError } from '../domain/expect-app-error.ts';

const refused = (text: string) => ({ code: 'invalid_parameter', param: 'confirmation_token', includes: [text] }) as const;

const key = randomBytes(32);

describe('confirmation tokens', () => {
  it('verifies for the same credential and payload within 10 minutes, and returns the token id', () => {
    let now = new Date('2026-11-22T10:00:00Z');
    const tokens = createConfirmationTokens(key, () => now);
    const hash = payloadHash(['shop', 'Checkout', []]);
    const { token, id, expiresAt } = tokens.mint('key_1', hash);
    expect(expiresAt).toBe('2026-11-22T10:10:00.000Z');
    now = new Date('2026-11-22T10:09:59Z');
    expect(tokens.verify(token, 'key_1', hash)).toBe(id);
    now = new Date('2026-11-22T10:10:00Z');
    expectAppError(() => tokens.verify(token, 'key_1', hash), refused('expired'));
  });

  it('refuses another credential, another payload, another signing key and malformed input', () => {
    const tokens = createConfirmationTokens(key, () => new Date());
    const hash = payloadHash(['shop', 'Checkout', []]);
    const { token } = tokens.mint('key_1', hash);
    expectAppError(() => tokens.verify(token, 'key_2', hash), refused('another API key'));
    expectAppError(() => tokens.verify(token, 'key_1', payloadHash(['shop', 'Checkout!', []])), refused('different funnel'));
    expectAppError(() => createConfirmationTokens(randomBytes(32), () => new Date()).verify(token, 'key_1', hash), refused('not valid'));
    for (const bad of ['', 'slc1', 'slc1.e30.', `${token}.x`, token.replace('slc1', 'slc2')]) expectAppError(() => tokens.verify(bad, 'key_1', hash), refused('not valid'));
  });

  it('does not carry the credential id in the readable payload', () => {
    const { token } = createConfirmationTokens(key, () => new Date()).mint('key_secret_id', 'h');
    expect(Buffer.from(token.split('.')[1]!, 'base64url').toString()).not.toContain('key_secret_id');
  });
});
