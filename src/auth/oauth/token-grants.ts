// The token endpoint's grants: authorization_code (PKCE S256, single use; a replayed code revokes what it
// issued) and refresh_token (rotation; a rotated token presented again revokes the whole grant — RFC 9700 §4.14).
// Every MCP code grant gets a refresh token, with or without offline_access (clients forget to ask).
import type { Kysely } from 'kysely';
import type { OAuthClientRecord } from '../../store/oauth-clients-repository.ts';
import {
  findGrant,
  findRefreshToken,
  insertGrant,
  insertRefreshToken,
  linkCodeToGrant,
  revokeGrant,
  touchGrant,
  useAuthorizationCode,
  useRefreshToken,
  type GrantRecord,
} from '../../store/oauth-grants-repository.ts';
import { touchOAuthClient } from '../../store/oauth-clients-repository.ts';
import type { Database } from '../../store/schema.ts';
import type { AccessTokenCodec } from './access-tokens.ts';
import { formatOAuthScope, sameResource, type OAuthServerConfig } from './oauth-config.ts';
import { OAuthProtocolError } from './oauth-errors.ts';
import { newGrantId, newSecret, s256, sha256Hex } from './secrets.ts';

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

export interface TokenGrantDeps {
  db: Kysely<Database>;
  config: OAuthServerConfig;
  codec: AccessTokenCodec;
  clock: () => Date;
}

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
const invalidGrant = (description: string) => new OAuthProtocolError('invalid_grant', description);

function required(form: URLSearchParams, name: string): string {
  const value = form.get(name);
  if (!value) throw new OAuthProtocolError('invalid_request', `${name} is required.`);
  return value;
}

function assertResource(form: URLSearchParams, grantResource: string, config: OAuthServerConfig): void {
  const resource = form.get('resource');
  if (resource !== null && !(sameResource(resource, config.resource) && sameResource(resource, grantResource))) {
    throw new OAuthProtocolError('invalid_target', `Tokens are issued only for the resource ${config.resource}.`);
  }
}

async function issueTokens(deps: TokenGrantDeps, grant: GrantRecord, scope: string, now: Date): Promise<TokenResponse> {
  const resourceScope = scope.split(' ').filter((s) => s !== 'offline_access').join(' ');
  const { token, expiresIn } = await deps.codec.issue(
    { accountId: grant.accountId, clientId: grant.clientId, grantId: grant.id, scope: resourceScope },
    Math.floor(now.getTime() / 1000),
  );
  const refreshToken = newSecret();
  const refreshExpiry = Math.min(now.getTime() + deps.config.refreshTokenTtlSec * 1000, Date.parse(grant.expiresAt));
  await insertRefreshToken(deps.db, {
    digest: sha256Hex(refreshToken),
    grantId: grant.id,
    createdAt: now.toISOString(),
    expiresAt: new Date(refreshExpiry).toISOString(),
  });
  return { access_token: token, token_type: 'Bearer', expires_in: expiresIn, refresh_token: refreshToken, scope };
}

export async function exchangeAuthorizationCode(deps: TokenGrantDeps, client: OAuthClientRecord, form: URLSearchParams): Promise<TokenResponse> {
  const code = required(form, 'code');
  const verifier = form.get('code_verifier');
  if (!verifier) throw new OAuthProtocolError('invalid_request', 'code_verifier is required (PKCE).');
  const now = deps.clock();
  const used = await useAuthorizationCode(deps.db, sha256Hex(code), now);
  if (!used || used.record.clientId !== client.id) throw invalidGrant('The authorization code is invalid.');
  const record = used.record;
  if (used.status === 'reused') {
    // OAuth 2.1 §4.1.3: a code used twice may have been stolen; what it issued is revoked.
    if (record.grantId !== null) await revokeGrant(deps.db, record.grantId, now, 'authorization code reused');
    throw invalidGrant('The authorization code was already used.');
  }
  if (Date.parse(record.expiresAt) <= now.getTime()) throw invalidGrant('The authorization code has expired.');
  const redirectUri = form.get('redirect_uri');
  if (redirectUri !== null && redirectUri !== record.redirectUri) throw invalidGrant('redirect_uri differs from the authorization request.');
  if (!VERIFIER.test(verifier) || s256(verifier) !== record.codeChallenge) throw invalidGrant('The code_verifier does not match the code_challenge.');
  assertResource(form, record.resource, deps.config);

  const grant = await insertGrant(deps.db, {
    id: newGrantId(),
    accountId: record.accountId,
    clientId: client.id,
    scope: record.scope,
    resource: record.resource,
    projectKeys: record.projectKeys,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + deps.config.grantTtlSec * 1000).toISOString(),
  });
  await linkCodeToGrant(deps.db, record.digest, grant.id);
  await touchOAuthClient(deps.db, client.id, now);
  return issueTokens(deps, grant, grant.scope, now);
}

async function reuseDetected(deps: TokenGrantDeps, grant: GrantRecord, now: Date): Promise<never> {
  await revokeGrant(deps.db, grant.id, now, 'refresh token reused');
  throw invalidGrant('The refresh token was already used; the authorization has been revoked. Authorize again.');
}

export async function refreshAccessToken(deps: TokenGrantDeps, client: OAuthClientRecord, form: URLSearchParams): Promise<TokenResponse> {
  const digest = sha256Hex(required(form, 'refresh_token'));
  const now = deps.clock();
  const token = await findRefreshToken(deps.db, digest);
  const grant = token && (await findGrant(deps.db, token.grantId));
  if (!token || !grant || grant.clientId !== client.id) throw invalidGrant('The refresh token is invalid.');
  if (grant.revokedAt !== null || Date.parse(grant.expiresAt) <= now.getTime()) throw invalidGrant('The authorization was revoked or has expired; authorize again.');
  if (token.usedAt !== null) return reuseDetected(deps, grant, now);
  if (Date.parse(token.expiresAt) <= now.getTime()) throw invalidGrant('The refresh token has expired; authorize again.');
  // Request errors are answered before the token is spent, so a client can correct them and retry.
  assertResource(form, grant.resource, deps.config);
  const granted = grant.scope.split(' ');
  const requested = form.get('scope');
  let scope = grant.scope;
  if (requested !== null) {
    const words = requested.split(' ').filter(Boolean);
    const extra = words.filter((w) => !granted.includes(w));
    if (extra.length > 0) throw new OAuthProtocolError('invalid_scope', `The refresh token does not cover ${extra.join(', ')}; authorize again for more scopes.`);
    scope = formatOAuthScope(words);
  }
  const used = await useRefreshToken(deps.db, digest, now);
  if (used?.status !== 'fresh') return reuseDetected(deps, grant, now); // a concurrent request rotated it first
  await touchGrant(deps.db, grant.id, now);
  await touchOAuthClient(deps.db, client.id, now);
  return issueTokens(deps, grant, scope, now);
}
