// Identifiers: prefixed random ids (`acct_…`, `key_…`) and unbiased base62 randomness shared with API keys.
import { randomBytes } from 'node:crypto';

export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` crypto-random base62 characters, by rejection sampling (bytes >= 248 are discarded, so no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(Math.ceil((length - out.length) * 1.1) + 4)) {
      if (byte >= 248) continue; // 248 = 62 * 4
      out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function newId(prefix: 'acct' | 'key' | 'prj' | 'fnl' | 'ggr' | 'sub' | 'rcp' | 'whk' | 'job'): string {
  return `${prefix}_${randomBase62(16)}`;
}

let lastAuditMs = 0;
let auditSeq = 0;

/** Audit ids sort by time, then by creation order within this process. */
export function newAuditId(nowMs: number): string {
  auditSeq = nowMs === lastAuditMs ? auditSeq + 1 : 0;
  lastAuditMs = nowMs;
  return `aud_${nowMs.toString(36).padStart(9, '0')}${auditSeq.toString(36).padStart(3, '0')}${randomBase62(6)}`;
}
