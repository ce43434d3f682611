// Turns a request's `Authorization: Bearer <token>` into a Principal: `sl_live_` tokens go to the API key
// service, other bearer tokens to the OAuth verifier (when one is plugged in). Keys are never read from the URL.
// Failed attempts are limited per IP by the app's limits (src/limits/), so keys cannot be guessed at speed.
import { AppError, isAppError } from '../errors/app-error.ts';
import { looksLikeApiKey } from './api-key-format.ts';
import type { ApiKeyService } from './api-keys.ts';
import type { Principal } from './principal.ts';

/** The per-IP failed-authentication limit as the authenticator uses it: the app's `Limits` (src/limits/create-limits.ts). */
export interface FailedAuthGuard {
  /** Throws AppError 429 `rate_limited` (with Retry-After) when the IP is over its limit. */
  assertAuthAllowed(ip: string): Promise<void>;
  /** Counts one failed authentication of the IP. */
  recordAuthFailure(ip: string): Promise<unknown>;
}

export interface AuthenticatorOptions {
  /** `recognise`, when given, answers for keys verified lately without a promise. */
  apiKeys: Pick<ApiKeyService, 'verify'> & Partial<Pick<ApiKeyService, 'recognise'>>;
  /** The failure limit: the app's shared, Redis-aware limits. */
  failures: FailedAuthGuard;
  /**
   * Verifies an OAuth access token (the OAuth server's); without it such tokens are `invalid_token`. It gets the
   * request too, because a token is only good for the resource it was issued for (its audience).
   */
  verifyAccessToken?: (token: string, request: Request) => Promise<Principal>;
}

/** At once for an API key this process verified lately, else a promise; every refusal is a rejection. */
export type Authenticate = (request: Request, ip: string) => Principal | Promise<Principal>;

const REALM = 'Bearer realm="siteline"';
const MISSING_DETAIL = 'Send your API key as `Authorization: Bearer <key>`.';
// RFC 6750 b64token, one of them, after the case-insensitive scheme.
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
/** How the header of nearly every request starts; any other spelling takes the full parse. */
const BEARER_PREFIX = 'Bearer ';

function missingCredentials(detail: string): AppError {
  return new AppError('missing_credentials', detail, { headers: { 'WWW-Authenticate': REALM } });
}

function invalidToken(): AppError {
  return new AppError('invalid_token', 'The bearer token is invalid or expired.', {
    headers: { 'WWW-Authenticate': `${REALM}, error="invalid_token"` },
  });
}

/** The bearer token of an Authorization header value; throws the 401 for a missing or unusable header. */
export function parseBearer(header: string | null): string {
  if (header === null || header.trim() === '') {
    throw missingCredentials(MISSING_DETAIL);
  }
  const match = BEARER.exec(header.trim());
  if (!match?.[1]) {
    if (!/^Bearer(\s|$)/i.test(header.trim())) {
      throw missingCredentials('Only Bearer authentication is supported: `Authorization: Bearer <key>`.');
    }
    throw invalidToken();
  }
  return match[1];
}

export function createAuthenticator(options: AuthenticatorOptions): Authenticate {
  const guard = options.failures;

  // Not async: it hands on the verifier's promise (an async wrapper adds two microtask turns to every request).
  function verify(token: string, request: Request): Promise<Principal> {
    if (looksLikeApiKey(token)) return options.apiKeys.verify(token);
    if (options.verifyAccessToken) return options.verifyAccessToken(token, request);
    throw invalidToken();
  }

  /** A verified key's principal straight from the header, or undefined when anything needs a closer look. */
  function recognised(header: string | null): Principal | undefined {
    if (options.apiKeys.recognise === undefined || header === null || !header.startsWith(BEARER_PREFIX)) return undefined;
    return options.apiKeys.recognise(header.slice(BEARER_PREFIX.length));
  }

  async function authenticateAfresh(header: string | null, request: Request, ip: string): Promise<Principal> {
    // A request without any credentials is not a guess: answered without counting against the IP.
    if (header === null || header.trim() === '') throw missingCredentials(MISSING_DETAIL);
    // The credential is checked first: a valid one is never refused, so callers sharing an address (NAT, hosted
    // MCP clients) cannot be locked out by someone else's failures. Keys carry ~190 random bits, so refusing
    // only the failures of an IP over its limit loses nothing against guessing.
    try {
      return await verify(parseBearer(header), request);
    } catch (error) {
      if (isAppError(error) && error.status === 401) {
        await guard.assertAuthAllowed(ip);
        await guard.recordAuthFailure(ip);
      }
      throw error;
    }
  }

  return function authenticate(request, ip) {
    const header = request.headers.get('authorization');
    return recognised(header) ?? authenticateAfresh(header, request, ip);
  };
}
