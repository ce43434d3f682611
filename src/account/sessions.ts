// Browser sessions and CSRF protection for the account pages. The session cookie holds a random value whose
// digest names a server-side row (sign-out and expiry hold on every instance). Forms carry a synchronizer
// token: an HMAC of the session (or, before sign-in, of a pre-session cookie), checked on every POST together
// with the Origin header, which must be one of the site's origins (the host the server is reached at).
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { findAccountById, type AccountRecord } from '../store/accounts-repository.ts';
import { deleteSession, findLiveSession, insertSession } from '../store/account-sessions-repository.ts';
import type { Database } from '../store/schema.ts';
import { newSecret, sha256Hex } from '../auth/oauth/secrets.ts';
import { cookieName, readCookie, serializeCookie } from './cookies.ts';

export const SESSION_TTL_SEC = 12 * 3600;
const SIGN_IN_COOKIE_TTL_SEC = 3600;

export interface Session {
  account: AccountRecord;
  digest: string;
  /** The token this session's forms must send back. */
  csrf: string;
}

export interface SessionManager {
  readonly secure: boolean;
  read(request: Request): Promise<Session | undefined>;
  /** Starts a session; returns the Set-Cookie header value. */
  start(accountId: string): Promise<string>;
  /** Ends the request's session (if any); returns the Set-Cookie header value that clears the cookie. */
  end(request: Request): Promise<string>;
  checkCsrf(session: Session, token: string | null): boolean;
  /** Pre-session CSRF for the sign-in form: the cookie to set (when missing) and the form's token. */
  signInToken(request: Request): { token: string; setCookie?: string };
  checkSignInToken(request: Request, token: string | null): boolean;
  /** False when a browser says the request comes from another site (Origin / Sec-Fetch-Site). */
  sameOrigin(request: Request): boolean;
  /**
   * The site origin this request was sent to (e.g. http://localhost:3000 next to http://127.0.0.1:3000), for
   * redirects the browser must follow back to the same host and its cookies; the public origin otherwise.
   */
  originOf(request: Request): string;
}

export interface SessionManagerOptions {
  db: Kysely<Database>;
  clock: () => Date;
  publicUrl: string;
  /** Every origin a browser may reach the server at (siteOriginsOf); default: the public URL's alone. */
  siteOrigins?: readonly string[];
  /** HMAC key for CSRF tokens (derived from the master secret). */
  csrfKey: Buffer;
}

export function createSessionManager(options: SessionManagerOptions): SessionManager {
  const { db, clock, csrfKey } = options;
  const publicOrigin = new URL(options.publicUrl).origin;
  const siteOrigins = new Set([publicOrigin, ...(options.siteOrigins ?? [])]);
  const secure = publicOrigin.startsWith('https:');
  const sessionCookie = cookieName('siteline_session', secure);
  const signInCookie = cookieName('siteline_signin', secure);
  const mac = (label: string, value: string) => createHmac('sha256', csrfKey).update(`${label}:${value}`).digest('base64url');
  const equal = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

  return {
    secure,
    async read(request) {
      const value = readCookie(request, sessionCookie);
      if (!value || value.length > 100) return undefined;
      const digest = sha256Hex(value);
      const session = await findLiveSession(db, digest, clock());
      if (!session) return undefined;
      const account = await findAccountById(db, session.accountId);
      return account && { account, digest, csrf: mac('session', digest) };
    },
    async start(accountId) {
      const value = newSecret();
      const now = clock();
      await insertSession(db, {
        digest: sha256Hex(value),
        accountId,
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + SESSION_TTL_SEC * 1000).toISOString(),
      });
      return serializeCookie(sessionCookie, value, { secure, maxAgeSec: SESSION_TTL_SEC });
    },
    async end(request) {
      const value = readCookie(request, sessionCookie);
      if (value) await deleteSession(db, sha256Hex(value));
      return serializeCookie(sessionCookie, '', { secure, maxAgeSec: 0 });
    },
    checkCsrf(session, token) {
      return token !== null && equal(token, session.csrf);
    },
    signInToken(request) {
      const existing = readCookie(request, signInCookie);
      if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return { token: mac('sign-in', existing) };
      const value = newSecret();
      return { token: mac('sign-in', value), setCookie: serializeCookie(signInCookie, value, { secure, maxAgeSec: SIGN_IN_COOKIE_TTL_SEC }) };
    },
    checkSignInToken(request, token) {
      const value = readCookie(request, signInCookie);
      return value !== undefined && token !== null && equal(token, mac('sign-in', value));
    },
    sameOrigin(request) {
      const origin = request.headers.get('origin');
      if (origin !== null) return siteOrigins.has(origin);
      const site = request.headers.get('sec-fetch-site');
      return site === null || site === 'same-origin' || site === 'none';
    },
    originOf(request) {
      const origin = new URL(request.url).origin;
      return siteOrigins.has(origin) ? origin : publicOrigin;
    },
  };
}
