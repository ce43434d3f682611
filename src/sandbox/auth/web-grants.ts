// The sandbox's side of Google's web-server flow: authorization codes (single-use, 10 minutes, bound to client,
// redirect_uri and PKCE challenge), the refresh tokens issued for them (self-verifying HMAC tokens, so a restarted
// sandbox still honours them), and revocation (kept in memory; `revoked.oauth` revokes every grant at once).
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SandboxCredentials } from './credentials.ts';

export const CODE_TTL_MS = 10 * 60_000;
const REFRESH_PREFIX = '1//0sbxweb.';

export interface PendingCode {
  clientId: string;
  redirectUri: string;
  codeChallenge: string | null;
  scopes: string[];
  expiresAt: number;
}

export interface WebGrant {
  /** Identifies the grant in access tokens (`sub`) and in revocation. */
  grantId: string;
  clientId: string;
  scopes: string[];
}

export interface WebGrants {
  issueCode(code: Omit<PendingCode, 'expiresAt'>, nowMs: number): string;
  /** Takes the code (single use); undefined when unknown, used or expired. */
  takeCode(code: string, nowMs: number): PendingCode | undefined;
  issueRefreshToken(grant: Omit<WebGrant, 'grantId'>): string;
  /** The grant of a refresh token issued here (revoked ones included: check `isRevoked`). */
  readRefreshToken(token: string): WebGrant | undefined;
  revoke(grantId: string): void;
  isRevoked(grantId: string): boolean;
}

const b64 = (value: string) => Buffer.from(value).toString('base64url');

export function createWebGrants(creds: Pick<SandboxCredentials, 'tokenSecret'>): WebGrants {
  const codes = new Map<string, PendingCode>();
  const revoked = new Set<string>();
  const sign = (payload: string) => createHmac('sha256', creds.tokenSecret).update(`web-refresh:${payload}`).digest('base64url');

  return {
    issueCode(code, nowMs) {
      for (const [key, pending] of codes) if (pending.expiresAt <= nowMs) codes.delete(key);
      const value = `4/0sbx${randomBytes(24).toString('base64url')}`;
      codes.set(value, { ...code, expiresAt: nowMs + CODE_TTL_MS });
      return value;
    },
    takeCode(code, nowMs) {
      const pending = codes.get(code);
      codes.delete(code);
      return pending && pending.expiresAt > nowMs ? pending : undefined;
    },
    issueRefreshToken(grant) {
      const payload = b64(JSON.stringify({ g: randomBytes(9).toString('base64url'), c: grant.clientId, s: grant.scopes }));
      return `${REFRESH_PREFIX}${payload}.${sign(payload)}`;
    },
    readRefreshToken(token) {
      if (!token.startsWith(REFRESH_PREFIX)) return undefined;
      const [payload, sig] = token.slice(REFRESH_PREFIX.length).split('.');
      if (!payload || !sig) return undefined;
      const expected = Buffer.from(sign(payload));
      const given = Buffer.from(sig);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      const p = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { g: string; c: string; s: string[] };
      return { grantId: `web:${p.g}`, clientId: p.c, scopes: p.s };
    },
    revoke(grantId) {
      revoked.add(grantId);
    },
    isRevoked(grantId) {
      return revoked.has(grantId);
    },
  };
}

/** PKCE S256: base64url(SHA-256(verifier)) must equal the challenge. */
export function pkceMatches(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
