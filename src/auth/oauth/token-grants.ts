// The token endpoint's grants: authorization_code (PKCE S256, single use; a replayed code revokes what it
// issued) and refresh_token (rotation; a rotated token presented again after the reuse window revokes the whole
// grant — RFC 9700 §4.14). Every code grant of a client registered for refresh_token gets a refresh token, with
// or without offline_access (clients forget to ask).
import type { Kysely } from 'kysely';
import type { OAuthClientRecord } from '../../store/oauth-clients-repository.ts';
import {
  findAuthorizationCode,
  findGrant,
  findRefreshToken,
  insertGrant,
  insertRefreshToken,
  linkCodeToGrant,
  revokeGrant,
  spendAuthorizationCode,
  touchGrant,
  useRefreshToken,
  type AuthorizationCodeRecord,
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
  /** Only for clients registered with the refresh_token grant type. */
  refresh_token?: string;
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

/** Clients get refresh tokens only when they registered the refresh_token grant type (RFC 7591 §2). */
function allowsRefresh(client: OAuthClientRecord): boolean {
  return client.grantTypes.includes('refresh_token');
}

/** Stores the grant's next refresh token (bounded by the grant's lifetime) and returns it. */
async function insertNextRefreshToken(deps: TokenGrantDeps, grant: GrantRecord, now: Date): Promise<string> {
  const refreshToken = newSecret();
  const refreshExpiry = Math.min(now.getTime() + deps.config.refreshTokenTtlSec * 1000, Date.parse(grant.expiresAt));
  await insertRefreshToken(deps.db, {
    digest: sha256Hex(refreshToken),
    grantId: grant.id,
    createdAt: now.toISOString(),
    expiresAt: new Date(refreshExpiry).toISOString(),
  });
  return refreshToken;
}

async function issueTokens(deps: TokenGrantDeps, grant: GrantRecord, scope: string, refreshToken: string | undefined, now: Date): Promise<TokenResponse> {
  const resourceScope = scope.split(' ').filter((s) => s !== 'offline_access').join(' ');
  const { token, expiresIn } = await deps.codec.issue(
    { accountId: grant.accountId, clientId: grant.clientId, grantId: grant.id, scope: resourceScope },
    Math.floor(now.getTime() / 1000),
  );
  return { access_token: token, token_type: 'Bearer', expires_in: expiresIn, ...(refreshToken === undefined ? {} : { refresh_token: refreshToken }), scope };
}

export async function exchangeAuthorizationCode(deps: TokenGrantDeps, client: OAuthClientRecord, form: URLSearchParams): Promise<TokenResponse> {
  const code = required(form, 'code');
  const verifier = form.get('code_verifier');
  if (!verifier) throw new OAuthProtocolError('invalid_request', 'code_verifier is required (PKCE).');
  const now = deps.clock();
  const digest = sha256Hex(code);
  const record = await findAuthorizationCode(deps.db, digest);
  if (!record || record.clientId !== client.id) throw invalidGrant('The authorization code is invalid.');
  if (record.usedAt !== null) return codeReused(deps, record, now);
  // Everything the request itself can get wrong is checked before the code is spent: a client that sends a
  // wrong verifier or redirect_uri cannot burn a code it does not own the secret of.
  if (Date.parse(record.expiresAt) <= now.getTime()) throw invalidGrant('The authorization code has expired.');
  const redirectUri = form.get('redirect_uri');
  if (redirectUri !== null && redirectUri !== record.redirectUri) throw invalidGrant('redirect_uri differs from the authorization request.');
  if (!VERIFIER.test(verifier) || s256(verifier) !== record.codeChallenge) throw invalidGrant('The code_verifier does not match the code_challenge.');
  assertResource(form, record.resource, deps.config);

  // Spending the code, creating its grant and linking the two happen in one transaction: whoever sees the code
  // used also sees the grant it issued, so a replay racing the first exchange always finds (and revokes) it.
  const issued = await deps.db.transaction().execute(async (trx) => {
    if (!(await spendAuthorizationCode(trx, digest, now))) return undefined;
    const grant = await insertGrant(trx, {
      id: newGrantId(),
      accountId: record.accountId,
      clientId: client.id,
      scope: record.scope,
      resource: record.resource,
      projectKeys: record.projectKeys,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + deps.config.grantTtlSec * 1000).toISOString(),
    });
    await linkCodeToGrant(trx, digest, grant.id);
    return { grant, refreshToken: allowsRefresh(client) ? await insertNextRefreshToken({ ...deps, db: trx }, grant, now) : undefined };
  });
  if (!issued) return codeReused(deps, (await findAuthorizationCode(deps.db, digest)) ?? record, now);
  await touchOAuthClient(deps.db, client.id, now);
  return issueTokens(deps, issued.grant, issued.grant.scope, issued.refreshToken, now);
}

async function codeReused(deps: TokenGrantDeps, record: AuthorizationCodeRecord, now: Date): Promise<never> {
  // OAuth 2.1 §4.1.3: a code used twice may have been stolen; what it issued is revoked.
  if (record.grantId !== null) await revokeGrant(deps.db, record.grantId, now, 'authorization code reused');
  throw invalidGrant('The authorization code was already used.');
}

async function reuseDetected(deps: TokenGrantDeps, grant: GrantRecord, now: Date): Promise<never> {
  await revokeGrant(deps.db, grant.id, now, 'refresh token reused');
  throw invalidGrant('The refresh token was already used; the authorization has been revoked. Authorize again.');
}

/**
 * RFC 9700 §4.14.2: a rotated refresh token presented again within the reuse window is a legitimate client's
 * concurrent or retried refresh (two tabs, a lost response), not theft; it gets tokens of its own instead of
 * revoking the grant. `usedAt` null means a concurrent request spent it just now.
 */
function withinReuseWindow(usedAt: string | null, now: Date, config: OAuthServerConfig): boolean {
  return usedAt === null || now.getTime() - Date.parse(usedAt) <= config.refreshReuseWindowSec * 1000;
}

export async function refreshAccessToken(deps: TokenGrantDeps, client: OAuthClientRecord, form: URLSearchParams): Promise<TokenResponse> {
  const digest = sha256Hex(required(form, 'refresh_token'));
  if (!allowsRefresh(client)) throw new OAuthProtocolError('unauthorized_client', "This client did not register the refresh_token grant type; register with grant_types ['authorization_code', 'refresh_token'].");
  const now = deps.clock();
  const token = await findRefreshToken(deps.db, digest);
  const grant = token && (await findGrant(deps.db, token.grantId));
  if (!token || !grant || grant.clientId !== client.id) throw invalidGrant('The refresh token is invalid.');
  if (grant.revokedAt !== null || Date.parse(grant.expiresAt) <= now.getTime()) throw invalidGrant('The authorization was revoked or has expired; authorize again.');
  if (token.usedAt !== null && !withinReuseWindow(token.usedAt, now, deps.config)) return reuseDetected(deps, grant, now);
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
  if (used === undefined) throw invalidGrant('The refresh token is invalid.');
  if (used.status === 'reused' && !withinReuseWindow(used.record.usedAt, now, deps.config)) return reuseDetected(deps, grant, now);
  await touchGrant(deps.db, grant.id, now);
  await touchOAuthClient(deps.db, client.id, now);
  return issueTokens(deps, grant, scope, await insertNextRefreshToken(deps, grant, now), now);
}
