// What the account pages and the OAuth endpoints need, created once by the runtime.
import type { Kysely } from 'kysely';
import type { ApiKeyService } from '../auth/api-keys.ts';
import type { OAuthServer } from '../auth/oauth/oauth-server.ts';
import type { Limits } from '../limits/create-limits.ts';
import type { LimitPolicy } from '../limits/limit-policy.ts';
import type { Database } from '../store/schema.ts';
import type { SessionManager } from './sessions.ts';

export interface WebDeps {
  db: Kysely<Database>;
  clock: () => Date;
  logger: { error(object: object, message?: string): void; warn(object: object, message?: string): void };
  oauth: OAuthServer;
  sessions: SessionManager;
  apiKeys: ApiKeyService;
  limits: Pick<Limits, 'consumePolicy' | 'peekPolicy' | 'refundPolicy'>;
}

/**
 * Sign-in attempts per client IP and per account *at that IP*, each over 15 minutes. There is deliberately no
 * limit per account alone: anyone could then lock the owner out by typing wrong passwords from elsewhere.
 */
export const SIGN_IN_LIMITS: { ip: LimitPolicy; accountAtIp: LimitPolicy } = {
  ip: { name: 'signin_ip', points: 20, windowSec: 900 },
  accountAtIp: { name: 'signin_account_ip', points: 10, windowSec: 900 },
};

/** The (policy, key) pairs one sign-in attempt counts against. */
export function signInLimitKeys(ip: string, accountKey: string): Array<[LimitPolicy, string]> {
  return [
    [SIGN_IN_LIMITS.ip, ip],
    [SIGN_IN_LIMITS.accountAtIp, `${accountKey}|${ip}`],
  ];
}

/** Control characters, space, DEL and the backslash: browsers drop or reinterpret them in a Location. */
function isUnsafeInPath(char: string): boolean {
  const code = char.charCodeAt(0);
  return code <= 0x20 || code === 0x7f || char === '\\';
}

/**
 * A local path to return to after sign-in, or /account. Control characters and backslashes are refused (browsers
 * drop tabs and newlines, so `/\t/evil.example` would become `//evil.example`), and the result must stay on
 * this origin once resolved as a browser would — including after dot segments are removed.
 */
export function safeReturnTo(value: string | null | undefined): string {
  if (!value || value.length > 4000 || !value.startsWith('/') || [...value].some(isUnsafeInPath)) return '/account';
  const base = 'http://siteline.invalid';
  const url = new URL(value, base);
  const target = `${url.pathname}${url.search}`;
  // Dot segments can normalise to `//host/…` (`/.//evil.example`), which a browser reads as another origin.
  return url.origin === base && !target.startsWith('//') ? target : '/account';
}
