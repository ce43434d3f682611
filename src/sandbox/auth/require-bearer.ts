// The check every Google surface runs first: a valid, unexpired, unrevoked Bearer token with the API's scope,
// else Google's 401 UNAUTHENTICATED / 403 ACCESS_TOKEN_SCOPE_INSUFFICIENT bodies.
import { googleError, type ProviderError } from '../http.ts';
import type { FaultSettings } from '../control/fault-settings.ts';
import { verifyAccessToken, type TokenClaims } from './access-tokens.ts';
import type { SandboxCredentials } from './credentials.ts';

const HELP = 'See https://developers.google.com/identity/sign-in/web/devconsole-project.';
const CHALLENGE = { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' };

function unauthenticated(message: string, legacy: boolean): ProviderError {
  const error = googleError(401, message, legacy ? { errors: [{ message, domain: 'global', reason: 'unauthorized' }] } : {});
  Object.assign(error.headers, CHALLENGE);
  return error;
}

export interface BearerCheck {
  creds: SandboxCredentials;
  revoked: FaultSettings['revoked'];
  now: Date;
  /** Any one of these scopes grants access. */
  scopes: readonly string[];
  service: string;
  /** Search Console's legacy surface adds an `errors` array. */
  legacy: boolean;
}

export function requireBearer(request: Request, url: URL, check: BearerCheck): TokenClaims {
  const header = request.headers.get('authorization') ?? '';
  const token = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim() ?? url.searchParams.get('access_token') ?? '';
  if (!token) {
    throw unauthenticated(`Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. ${HELP}`, check.legacy);
  }
  const result = verifyAccessToken(check.creds, token, Math.floor(check.now.getTime() / 1000));
  const revoked = result.ok && ((result.claims.kind === 'oauth' && check.revoked.oauth) || (result.claims.kind === 'serviceAccount' && check.revoked.serviceAccount));
  if (!result.ok || revoked) {
    throw unauthenticated(`Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. ${HELP}`, check.legacy);
  }
  if (!result.claims.scopes.some((s) => check.scopes.includes(s))) {
    throw googleError(403, 'Request had insufficient authentication scopes.', {
      details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT', domain: 'googleapis.com', metadata: { service: check.service } }],
    });
  }
  return result.claims;
}
