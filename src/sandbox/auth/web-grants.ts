// The sandbox's side of Google's web-server flow: authorization codes (single-use, 10 minutes, bound to client,
// redirect_uri and PKCE challenge), the refresh tokens issued for them (self-verifying HMAC tokens, so a restarted
// sandbox still honours them), and revocation (kept in memory; `revoked.oauth` revokes every grant at once).
// As at Google, one Google account's consent to one OAuth client is one grant: revoking any of its tokens revokes
// every token issued to that account and client, and an account keeps at most 100 live refresh tokens per client
// (issuing the 101st silently invalidates the oldest). Both are tracked in memory since the last restart.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SandboxCredentials } from './credentials.ts';

export const CODE_TTL_MS = 10 * 60_000;
const REFRESH_PREFIX = '1//0sbxweb.';

export interface PendingCode {
  clientId: string;
  redirectUri: string;
  codeChallenge: string | null;
  scopes: string[];
  /** The Google account that consented (its email; the subject is derived from it). */
  account: string;
  expiresAt: number;
}

/** Google keeps this many refresh tokens per Google account and OAuth client; older ones stop working. */
export const REFRESH_TOKENS_PER_ACCOUNT = 100;

export interface WebGrant {
  /** Identifies the grant in access tokens (`sub`) and in revocation. */
  grantId: string;
  clientId: string;
  scopes: string[];
  /** The consenting account's email, and the stable subject Google would put in `sub`. */
  account: string;
}

/** The stable account id the sandbox reports for an email (Google's `sub`: digits, never the email). */
export function subjectOf(account: string): string {
  return `1${BigInt(`0x${createHash('sha256').update(account.toLowerCase()).digest('hex').slice(0, 15)}`).toString().padStart(20, '0')}`;
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
  // Live tokens per account and client, oldest first: the grant Google revokes as one, and the cap's order.
  const live = new Map<string, string[]>();
  const accountKey = (grant: Pick<WebGrant, 'clientId' | 'account'>) => `${grant.clientId}\n${grant.account.toLowerCase()}`;
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
      const g = randomBytes(9).toString('base64url');
      const payload = b64(JSON.stringify({ g, c: grant.clientId, s: grant.scopes, a: grant.account }));
      const tokens = live.get(accountKey(grant)) ?? [];
      tokens.push(`web:${g}`);
      while (tokens.length > REFRESH_TOKENS_PER_ACCOUNT) revoked.add(tokens.shift()!);
      live.set(accountKey(grant), tokens);
      return `${REFRESH_PREFIX}${payload}.${sign(payload)}`;
    },
    readRefreshToken(token) {
      if (!token.startsWith(REFRESH_PREFIX)) return undefined;
      const [payload, sig] = token.slice(REFRESH_PREFIX.length).split('.');
      if (!payload || !sig) return undefined;
      const expected = Buffer.from(sign(payload));
      const given = Buffer.from(sig);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      const p = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { g: string; c: string; s: string[]; a?: string };
      return { grantId: `web:${p.g}`, clientId: p.c, scopes: p.s, account: p.a ?? '' };
    },
    revoke(grantId) {
      revoked.add(grantId);
      for (const [key, tokens] of live) {
        if (!tokens.includes(grantId)) continue;
        for (const token of tokens) revoked.add(token);
        live.delete(key);
      }
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
