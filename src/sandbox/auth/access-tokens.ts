// Self-verifying access tokens (HMAC over kind, scopes and expiry), so a restarted sandbox still honours the
// tokens its clients hold; plus self-signed service-account JWTs, which Google also accepts as Bearer tokens.
import { createHmac, timingSafeEqual, verify } from 'node:crypto';
import type { SandboxCredentials } from './credentials.ts';

export type CredentialKind = 'oauth' | 'serviceAccount';

export interface TokenClaims {
  kind: CredentialKind;
  scopes: string[];
  /** Expiry in epoch seconds. */
  exp: number;
  /** Who the token was issued to (project identity for quotas). */
  sub: string;
}

const PREFIX = 'ya29.sbx.';
const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64url');

export function issueAccessToken(creds: SandboxCredentials, claims: TokenClaims): string {
  const payload = b64(JSON.stringify({ k: claims.kind, s: claims.scopes, e: claims.exp, u: claims.sub }));
  const sig = createHmac('sha256', creds.tokenSecret).update(payload).digest('base64url');
  return `${PREFIX}${payload}.${sig}`;
}

export type VerifyResult = { ok: true; claims: TokenClaims } | { ok: false; reason: 'invalid' | 'expired' };

export function verifyAccessToken(creds: SandboxCredentials, token: string, nowSeconds: number): VerifyResult {
  if (token.startsWith(PREFIX)) {
    const [payload, sig] = token.slice(PREFIX.length).split('.');
    if (!payload || !sig) return { ok: false, reason: 'invalid' };
    const expected = createHmac('sha256', creds.tokenSecret).update(payload).digest();
    const given = Buffer.from(sig, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' };
    const p = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { k: CredentialKind; s: string[]; e: number; u: string };
    if (p.e <= nowSeconds) return { ok: false, reason: 'expired' };
    return { ok: true, claims: { kind: p.k, scopes: p.s, exp: p.e, sub: p.u } };
  }
  const jwt = verifyServiceJwt(creds, token);
  if (!jwt.ok) return { ok: false, reason: 'invalid' };
  const { claims } = jwt;
  if (typeof claims.exp !== 'number' || claims.exp <= nowSeconds) return { ok: false, reason: 'expired' };
  // A self-signed JWT carries either scopes or the API's audience (https://analyticsdata.googleapis.com/).
  const scopes = typeof claims.scope === 'string' ? claims.scope.split(/\s+/) : audienceScopes(String(claims.aud ?? ''));
  return { ok: true, claims: { kind: 'serviceAccount', scopes, exp: claims.exp, sub: creds.serviceAccount.client_email } };
}

function audienceScopes(aud: string): string[] {
  if (aud.includes('analyticsdata')) return ['https://www.googleapis.com/auth/analytics.readonly'];
  if (aud.includes('searchconsole') || aud.includes('webmasters')) return ['https://www.googleapis.com/auth/webmasters.readonly'];
  return [];
}

export type JwtResult = { ok: true; claims: Record<string, unknown> } | { ok: false; reason: 'invalid' | 'signature' };

/** Verifies an RS256 JWT against the sandbox's service-account key and checks the issuer. */
export function verifyServiceJwt(creds: SandboxCredentials, token: string): JwtResult {
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'invalid' };
  const [h, p, s] = parts as [string, string, string];
  let header: Record<string, unknown>;
  let claims: Record<string, unknown>;
  try {
    header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as Record<string, unknown>;
    claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (header.alg !== 'RS256') return { ok: false, reason: 'invalid' };
  const good = verify('RSA-SHA256', Buffer.from(`${h}.${p}`), creds.servicePublicKey, Buffer.from(s, 'base64url'));
  if (!good) return { ok: false, reason: 'signature' };
  if (claims.iss !== creds.serviceAccount.client_email) return { ok: false, reason: 'invalid' };
  return { ok: true, claims };
}

export const ANALYTICS_SCOPES = ['https://www.googleapis.com/auth/analytics.readonly', 'https://www.googleapis.com/auth/analytics'];
export const WEBMASTERS_SCOPES = ['https://www.googleapis.com/auth/webmasters.readonly', 'https://www.googleapis.com/auth/webmasters'];
