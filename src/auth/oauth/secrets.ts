// Random secrets (codes, refresh tokens, client secrets, session ids) and the digests we store instead.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { randomBase62 } from '../../store/ids.ts';

/** 256 bits, base64url (43 characters). */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** base64url(SHA-256(value)): the PKCE S256 transform (RFC 7636 §4.2). */
export function s256(value: string): string {
  return createHash('sha256').update(value, 'ascii').digest('base64url');
}

export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

export function newClientId(): string {
  return `slc_${randomBase62(24)}`;
}

export function newGrantId(): string {
  return `grt_${randomBase62(20)}`;
}
