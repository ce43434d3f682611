// The API key format: `sl_live_` + 32 random base62 characters + 6 base62 characters of the CRC32 of
// everything before them. The checksum lets malformed or mistyped keys be rejected without a database lookup.
import { hash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { BASE62, randomBase62 } from '../store/ids.ts';

export const KEY_PREFIX = 'sl_live_';
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6; // 62^6 > 2^32
export const KEY_LENGTH = KEY_PREFIX.length + RANDOM_LENGTH + CHECKSUM_LENGTH;
const KEY_SHAPE = /^sl_live_[0-9A-Za-z]{38}$/;

/** Fixed-width base62 of a non-negative integer below 62^width. */
function toBase62(value: number, width: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < width; i += 1) {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

export function checksumOf(body: string): string {
  return toBase62(crc32(body), CHECKSUM_LENGTH);
}

export function generateApiKey(): string {
  const body = KEY_PREFIX + randomBase62(RANDOM_LENGTH);
  return body + checksumOf(body);
}

/** Shape and checksum only; no I/O. */
export function hasValidChecksum(key: string): boolean {
  if (key.length !== KEY_LENGTH || !KEY_SHAPE.test(key)) return false;
  return checksumOf(key.slice(0, -CHECKSUM_LENGTH)) === key.slice(-CHECKSUM_LENGTH);
}

/** SHA-256 hex: what the database stores and looks keys up by. One-shot `hash` runs on every request: no Hash object. */
export function digestOf(key: string): string {
  return hash('sha256', key, 'hex');
}

/** `sl_live_` + the first 4 random characters, safe to display and to use as a handle in the CLI. */
export function displayPrefixOf(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 4);
}

export function last4Of(key: string): string {
  return key.slice(-4);
}

export function looksLikeApiKey(token: string): boolean {
  return token.startsWith(KEY_PREFIX);
}
