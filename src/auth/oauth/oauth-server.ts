// Siteline's OAuth 2.1 authorization server for its MCP resource, as one service the routes and the
// authenticator use: metadata, registration, authorization, tokens, revocation, and access-token verification
// (→ Principal). Everything lives in the store, so any instance can serve any step of a flow.
import type { Kysely } from 'kysely';
import { AppError } from '../../errors/app-error.ts';
import type { Limits } from '../../limits/create-limits.ts';
import type { LimitPolicy } from '../../limits/limit-policy.ts';
import { deleteExpiredSessions } from '../../store/account-sessions-repository.ts';
import { deleteStaleOAuthClients } from '../../store/oauth-clients-repository.ts';
import { deleteExpiredOAuthRows, findGrant, findRefreshToken, listLiveGrantsForAccount, revokeGrant, type GrantWithClient } from '../../store/oauth-grants-repository.ts';
import type { Database } from '../../store/schema.ts';
import type { Principal } from '../principal.ts';
import type { Scope } from '../scopes.ts';
import { createAccessTokenCodec, type AccessTokenCodec } from './access-tokens.ts';
import { authorizationServerMetadata, openIdConfiguration } from './as-metadata.ts';
import { approveAuthorization, checkAuthorizationRequest, denyAuthorization, type AuthorizationCheck, type AuthorizationRequest } from './authorization-request.ts';
import { authenticateClient, registerClient } from './client-registration.ts';
import { MCP_RESOURCE_PATH, type OAuthServerConfig } from './oauth-config.ts';
import { OAuthProtocolError } from './oauth-errors.ts';
import { sha256Hex } from './secrets.ts';
import type { SigningKey } from './signing-key.ts';
import { exchangeAuthorizationCode, refreshAccessToken, type TokenResponse } from './token-grants.ts';

/** Dynamic registrations per client IP. Generous: claude.ai registers on every connect from a few shared IPs. */
export const REGISTRATION_LIMIT: LimitPolicy = { name: 'oauth_register', points: 120, windowSec: 600 };
/** Token and revocation requests per client IP (shared hosts such as claude.ai refresh for many users at once). */
export const TOKEN_LIMIT: LimitPolicy = { name: 'oauth_token', points: 300, windowSec: 60 };
const SWEEP_INTERVAL_MS = 10 * 60_000;

export interface OAuthServerDeps {
  db: Kysely<Database>;
  config: OAuthServerConfig;
  signingKey: SigningKey;
  clock: () => Date;
  limits: Pick<Limits, 'consumePolicy'>;
  logger: { warn(object: object, message?: string): void };
}

export interface OAuthServer {
  readonly config: OAuthServerConfig;
  metadata(): Record<string, unknown>;
  openIdConfiguration(): Record<string, unknown>;
  jwks(): { keys: unknown[] };
  register(body: unknown, ip: string): Promise<Record<string, unknown>>;
  checkAuthorizationRequest(params: URLSearchParams): Promise<AuthorizationCheck>;
  approve(request: AuthorizationRequest, accountId: string, projectKeys: string[] | null): Promise<string>;
  deny(request: AuthorizationRequest): string;
  token(form: URLSearchParams, authorization: string | null, ip: string): Promise<TokenResponse>;
  revoke(form: URLSearchParams, authorization: string | null, ip: string): Promise<void>;
  /** The principal of a valid access token for the requested resource; AppError 401 invalid_token otherwise. */
  verifyAccessToken(token: string, request: Request): Promise<Principal>;
  listGrants(accountId: string): Promise<GrantWithClient[]>;
  /** Revokes one of the account's grants (the "connected apps" list); false when it is not theirs or already gone. */
  revokeGrantOf(accountId: string, grantId: string): Promise<boolean>;
}

function invalidToken(detail: string): AppError {
  return new AppError('invalid_token', detail, { headers: { 'WWW-Authenticate': 'Bearer realm="siteline", error="invalid_token"' } });
}

function isForResource(request: Request): boolean {
  const path = new URL(request.url).pathname;
  return path === MCP_RESOURCE_PATH || path.startsWith(`${MCP_RESOURCE_PATH}/`);
}

/** Spends one point of `policy` for the address; 429 `temporarily_unavailable` with Retry-After when spent. */
async function assertWithinLimit(limits: OAuthServerDeps['limits'], policy: LimitPolicy, ip: string, what: string): Promise<void> {
  const state = await limits.consumePolicy(policy, ip);
  if (state.allowed) return;
  const retryAfter = String(Math.max(1, Math.ceil(state.resetMs / 1000)));
  throw new OAuthProtocolError('temporarily_unavailable', `Too many ${what} from this address; retry in ${retryAfter} s.`, {
    status: 429,
    headers: { 'Retry-After': retryAfter },
  });
}

export function createOAuthServer(deps: OAuthServerDeps): OAuthServer {
  const { db, config, clock } = deps;
  const codec: AccessTokenCodec = createAccessTokenCodec({ key: deps.signingKey, issuer: config.issuer, audience: config.resource, ttlSec: config.accessTokenTtlSec });
  const grantDeps = { db, config, codec, clock };
  let lastSweep = 0;

  function sweep(now: Date): void {
    if (now.getTime() - lastSweep < SWEEP_INTERVAL_MS) return;
    lastSweep = now.getTime();
    const unusedBefore = new Date(now.getTime() - config.unusedClientTtlSec * 1000);
    const idleBefore = new Date(now.getTime() - config.idleClientTtlSec * 1000);
    void Promise.all([deleteStaleOAuthClients(db, { unusedBefore, idleBefore, now }), deleteExpiredOAuthRows(db, now), deleteExpiredSessions(db, now)]).catch(
      (error: unknown) => deps.logger.warn({ err: error }, 'OAuth housekeeping failed'),
    );
  }

  return {
    config,
    metadata: () => authorizationServerMetadata(config),
    openIdConfiguration: () => openIdConfiguration(config),
    jwks: () => ({ keys: [deps.signingKey.publicJwk] }),

    async register(body, ip) {
      await assertWithinLimit(deps.limits, REGISTRATION_LIMIT, ip, 'client registrations');
      const now = clock();
      sweep(now);
      return registerClient(db, body, now);
    },

    checkAuthorizationRequest: (params) => checkAuthorizationRequest(db, config, params),
    approve: (request, accountId, projectKeys) => approveAuthorization(db, config, request, { accountId, projectKeys, now: clock() }),
    deny: (request) => denyAuthorization(config, request),

    async token(form, authorization, ip) {
      await assertWithinLimit(deps.limits, TOKEN_LIMIT, ip, 'token requests');
      const client = await authenticateClient(db, form, authorization);
      const grantType = form.get('grant_type');
      if (grantType === 'authorization_code') return exchangeAuthorizationCode(grantDeps, client, form);
      if (grantType === 'refresh_token') return refreshAccessToken(grantDeps, client, form);
      if (!grantType) throw new OAuthProtocolError('invalid_request', 'grant_type is required.');
      throw new OAuthProtocolError('unsupported_grant_type', `grant_type '${grantType}' is not supported; use authorization_code or refresh_token.`);
    },

    async revoke(form, authorization, ip) {
      await assertWithinLimit(deps.limits, TOKEN_LIMIT, ip, 'token requests');
      const client = await authenticateClient(db, form, authorization);
      const token = form.get('token');
      if (!token) throw new OAuthProtocolError('invalid_request', 'token is required.');
      const now = clock();
      // RFC 7009: revoking either token ends the grant (its refresh family and, at the next check, its access tokens).
      const refresh = await findRefreshToken(db, sha256Hex(token));
      const grantId = refresh?.grantId ?? (await codec.verify(token, Math.floor(now.getTime() / 1000)))?.grantId;
      if (grantId === undefined) return; // unknown or invalid tokens are answered 200 as well (RFC 7009 §2.2)
      const grant = await findGrant(db, grantId);
      if (grant && grant.clientId === client.id) await revokeGrant(db, grant.id, now, 'revoked by client');
    },

    async verifyAccessToken(token, request) {
      const now = clock();
      const claims = await codec.verify(token, Math.floor(now.getTime() / 1000));
      if (!claims) throw invalidToken('The access token is invalid, expired or not issued for this resource.');
      if (!isForResource(request)) {
        throw invalidToken(`This access token is bound to ${config.resource} and is not accepted here; use an API key for the REST API.`);
      }
      const grant = await findGrant(db, claims.grantId);
      if (!grant || grant.revokedAt !== null || Date.parse(grant.expiresAt) <= now.getTime() || grant.accountId !== claims.accountId || grant.clientId !== claims.clientId) {
        throw invalidToken('The authorization behind this access token was revoked or has expired.');
      }
      const scopes = new Set(claims.scope.split(' ').filter((s): s is Scope => s === 'read' || s === 'mcp:write'));
      return {
        kind: 'oauth',
        accountId: claims.accountId,
        credentialId: grant.id,
        scopes,
        projectKeys: grant.projectKeys === null ? null : new Set(grant.projectKeys),
        expiresAt: claims.expiresAt * 1000,
      };
    },

    listGrants: (accountId) => listLiveGrantsForAccount(db, accountId, clock()),
    async revokeGrantOf(accountId, grantId) {
      const grant = await findGrant(db, grantId);
      if (!grant || grant.accountId !== accountId) return false;
      return revokeGrant(db, grant.id, clock(), 'revoked by user');
    },
  };
}
