// The authorization endpoint's request checks (OAuth 2.1 §4.1.1, RFC 7636, RFC 8707) and its answers.
// Until client and redirect URI are known good, problems are shown on an error page and never redirected
// (no open redirector); after that they go back to the client with `error`, `state` and `iss` (RFC 9207).
import type { Kysely } from 'kysely';
import { findOAuthClient, touchOAuthClient, type OAuthClientRecord } from '../../store/oauth-clients-repository.ts';
import { insertAuthorizationCode } from '../../store/oauth-grants-repository.ts';
import type { Database } from '../../store/schema.ts';
import { formatOAuthScope, parseOAuthScope, sameResource, type OAuthScope, type OAuthServerConfig } from './oauth-config.ts';
import type { OAuthErrorCode } from './oauth-errors.ts';
import { matchRedirectUri } from './redirect-uris.ts';
import { newSecret, sha256Hex } from './secrets.ts';

export interface AuthorizationRequest {
  client: OAuthClientRecord;
  redirectUri: string;
  state: string | undefined;
  codeChallenge: string;
  scopes: OAuthScope[];
  /**
   * Requested scopes the client did not register. Not refused: MCP clients register the scope of their first
   * challenge and step up on the same registration (the MCP SDK does), so the consent screen marks them instead.
   */
  beyondRegistration: OAuthScope[];
  resource: string;
}

export type AuthorizationCheck =
  | { ok: true; request: AuthorizationRequest }
  /** Client or redirect URI unusable: show `message` to the user, do not redirect. */
  | { ok: false; kind: 'page'; message: string }
  /** A valid client made a bad request: send the user back with the error. */
  | { ok: false; kind: 'redirect'; location: string };

/** The parameters the consent form carries back (the request is checked again on submission). */
export const AUTHORIZATION_PARAMS = ['response_type', 'client_id', 'redirect_uri', 'state', 'scope', 'code_challenge', 'code_challenge_method', 'resource'] as const;
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.href;
}

export async function checkAuthorizationRequest(db: Kysely<Database>, config: OAuthServerConfig, params: URLSearchParams): Promise<AuthorizationCheck> {
  const page = (message: string): AuthorizationCheck => ({ ok: false, kind: 'page', message });
  const clientIds = params.getAll('client_id');
  if (clientIds.length !== 1 || !clientIds[0]) return page('The request names no client (client_id is missing or repeated). Start the connection again from your app.');
  const client = await findOAuthClient(db, clientIds[0]);
  if (!client) return page('This app is not registered here (unknown or expired client_id). Remove the connection in your app and add it again.');

  const redirectUris = params.getAll('redirect_uri');
  if (redirectUris.length > 1) return page('The request repeats redirect_uri.');
  const presented = redirectUris[0];
  const redirectUri =
    presented === undefined ? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined) : matchRedirectUri(client.redirectUris, presented);
  if (redirectUri === undefined) {
    return page(presented === undefined ? 'The request names no redirect_uri, and the app registered several.' : 'The redirect_uri is not one this app registered, so Siteline will not send you there.');
  }

  const state = params.get('state') ?? undefined;
  // Clients register themselves without authenticating, so a malformed request is shown on a page instead of
  // being redirected: otherwise anyone could register a redirect URI and use Siteline as a redirector
  // (RFC 9700 §4.11.2). Redirects carry only outcomes the signed-in user chose (a code, or access_denied).
  const fail = (error: OAuthErrorCode, description: string): AuthorizationCheck => ({ ok: false, kind: 'page', message: `${error}: ${description}` });
  for (const name of AUTHORIZATION_PARAMS) if (params.getAll(name).length > 1) return fail('invalid_request', `The parameter ${name} is repeated.`);
  if (params.get('response_type') !== 'code') return fail('unsupported_response_type', "Only response_type=code is supported.");
  const challenge = params.get('code_challenge');
  if (!challenge) return fail('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256.');
  if (params.get('code_challenge_method') !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256 (plain is not allowed).');
  if (!S256_CHALLENGE.test(challenge)) return fail('invalid_request', 'code_challenge must be the 43-character base64url SHA-256 of the verifier.');
  const resource = params.get('resource');
  if (resource !== null && !sameResource(resource, config.resource)) {
    return fail('invalid_target', `This server issues tokens only for the resource ${config.resource}.`);
  }
  const scopes = parseOAuthScope(params.get('scope'));
  const request = { client, redirectUri, state, codeChallenge: challenge, scopes, resource: config.resource };
  return { ok: true, request: { ...request, beyondRegistration: scopesBeyondRegistration(client, scopes) } };
}

/** Requested scopes the client did not register (RFC 7591 `scope`); offline_access only asks for a refresh token. */
function scopesBeyondRegistration(client: OAuthClientRecord, scopes: readonly OAuthScope[]): OAuthScope[] {
  if (client.scope === null) return [];
  const registered = new Set(parseOAuthScope(client.scope));
  return scopes.filter((scope) => scope !== 'offline_access' && !registered.has(scope));
}

/** Stores a single-use code for the approved request and returns where to send the browser. */
export async function approveAuthorization(
  db: Kysely<Database>,
  config: OAuthServerConfig,
  request: AuthorizationRequest,
  approval: { accountId: string; projectKeys: string[] | null; now: Date },
): Promise<string> {
  const code = newSecret();
  const { now } = approval;
  await insertAuthorizationCode(db, {
    digest: sha256Hex(code),
    clientId: request.client.id,
    accountId: approval.accountId,
    redirectUri: request.redirectUri,
    codeChallenge: request.codeChallenge,
    scope: formatOAuthScope(request.scopes),
    resource: request.resource,
    projectKeys: approval.projectKeys,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + config.codeTtlSec * 1000).toISOString(),
  });
  await touchOAuthClient(db, request.client.id, now);
  return redirectWith(request.redirectUri, { code, state: request.state, iss: config.issuer });
}

export function denyAuthorization(config: OAuthServerConfig, request: AuthorizationRequest): string {
  return redirectWith(request.redirectUri, { error: 'access_denied', error_description: 'The user denied access.', state: request.state, iss: config.issuer });
}
