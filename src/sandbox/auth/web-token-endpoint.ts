// POST /token for the web-server flow (authorization_code with PKCE, and refresh_token for tokens issued by it)
// and POST /revoke. Other grants (the demo's static refresh token, service-account JWTs) stay with
// token-endpoint.ts: `handleWebToken` answers undefined for them.
import { jsonResponse, ProviderError } from '../http.ts';
import { issueAccessToken, verifyAccessToken } from './access-tokens.ts';
import type { SandboxCredentials } from './credentials.ts';
import { pkceMatches, subjectOf, type WebGrant, type WebGrants } from './web-grants.ts';

const LIFETIME = 3599;
const oauthError = (status: number, error: string, description: string) => new ProviderError(status, { error, error_description: description });

function clientOf(request: Request, form: URLSearchParams): { id: string | null; secret: string | null } {
  const basic = /^Basic (.+)$/.exec(request.headers.get('authorization') ?? '');
  if (basic) {
    const [id, secret] = Buffer.from(basic[1]!, 'base64').toString('utf8').split(':');
    return { id: id ?? null, secret: secret ?? null };
  }
  return { id: form.get('client_id'), secret: form.get('client_secret') };
}

function accessTokenFor(creds: SandboxCredentials, grant: WebGrant, nowSeconds: number): string {
  return issueAccessToken(creds, { kind: 'oauth', scopes: grant.scopes, exp: nowSeconds + LIFETIME, sub: grant.grantId });
}

/**
 * The OpenID id_token Google adds when `openid` was granted: who consented (`sub`, and `email` with the email
 * scope). Signed with the sandbox's secret; the app reads it straight from the token endpoint, so it only decodes.
 */
function idTokenFor(grant: WebGrant, nowSeconds: number): string | undefined {
  if (!grant.scopes.includes('openid')) return undefined;
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const claims = { iss: 'https://accounts.google.com', aud: grant.clientId, sub: subjectOf(grant.account), iat: nowSeconds, exp: nowSeconds + LIFETIME, ...(grant.scopes.includes('email') ? { email: grant.account, email_verified: true } : {}) };
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.sandbox`;
}

export async function handleWebToken(request: Request, creds: SandboxCredentials, grants: WebGrants, allRevoked: boolean, now: Date): Promise<Response | undefined> {
  if (request.method !== 'POST' || (request.headers.get('content-type') ?? '').includes('application/json')) return undefined;
  const form = new URLSearchParams(await request.clone().text());
  const grantType = form.get('grant_type');
  const refresh = grantType === 'refresh_token' ? grants.readRefreshToken(form.get('refresh_token') ?? '') : undefined;
  if (grantType !== 'authorization_code' && !refresh) return undefined;
  const client = clientOf(request, form);
  if (client.id !== creds.oauthClient.client_id || client.secret !== creds.oauthClient.client_secret) throw oauthError(401, 'invalid_client', 'Unauthorized');
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (refresh) {
    if (allRevoked || grants.isRevoked(refresh.grantId) || refresh.clientId !== client.id) throw oauthError(400, 'invalid_grant', 'Token has been expired or revoked.');
    return jsonResponse({ access_token: accessTokenFor(creds, refresh, nowSeconds), expires_in: LIFETIME, scope: refresh.scopes.join(' '), token_type: 'Bearer' });
  }
  const pending = grants.takeCode(form.get('code') ?? '', now.getTime());
  if (!pending || pending.clientId !== client.id) throw oauthError(400, 'invalid_grant', 'Malformed auth code.');
  if (form.get('redirect_uri') !== pending.redirectUri) throw oauthError(400, 'redirect_uri_mismatch', 'Bad Request');
  if (pending.codeChallenge !== null && !pkceMatches(form.get('code_verifier') ?? '', pending.codeChallenge)) throw oauthError(400, 'invalid_grant', 'Invalid code verifier.');
  const refreshToken = grants.issueRefreshToken({ clientId: pending.clientId, scopes: pending.scopes, account: pending.account });
  const grant = grants.readRefreshToken(refreshToken)!;
  const idToken = idTokenFor(grant, nowSeconds);
  return jsonResponse({
    ...(idToken ? { id_token: idToken } : {}),
    access_token: accessTokenFor(creds, grant, nowSeconds),
    expires_in: LIFETIME,
    refresh_token: refreshToken,
    scope: pending.scopes.join(' '),
    token_type: 'Bearer',
  });
}

/** POST /revoke?token=… (or in the form body): a refresh token or one of its access tokens revokes the grant. */
export async function handleRevoke(request: Request, url: URL, creds: SandboxCredentials, grants: WebGrants, now: Date): Promise<Response> {
  if (request.method !== 'POST') throw oauthError(405, 'invalid_request', 'Only POST is supported.');
  const token = url.searchParams.get('token') ?? new URLSearchParams(await request.text()).get('token') ?? '';
  const grantId = grants.readRefreshToken(token)?.grantId ?? accessTokenGrant(creds, token, now);
  if (!grantId) throw oauthError(400, 'invalid_token', 'Token expired or revoked');
  grants.revoke(grantId);
  return jsonResponse({});
}

function accessTokenGrant(creds: SandboxCredentials, token: string, now: Date): string | undefined {
  // Web grants only issue the sandbox's own HMAC tokens; service-account JWTs are never theirs.
  if (!token.startsWith('ya29.sbx.')) return undefined;
  const result = verifyAccessToken(creds, token, Math.floor(now.getTime() / 1000));
  return result.ok && result.claims.sub.startsWith('web:') ? result.claims.sub : undefined;
}

/** Access tokens of a revoked web grant stop working at once, as Google's do. */
export function assertGrantNotRevoked(request: Request, creds: SandboxCredentials, grants: WebGrants, now: Date): void {
  const token = /^Bearer\s+(.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]?.trim() ?? '';
  const grantId = token ? accessTokenGrant(creds, token, now) : undefined;
  if (grantId && grants.isRevoked(grantId)) {
    throw new ProviderError(401, { error: { code: 401, message: 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.', status: 'UNAUTHENTICATED' } }, {
      'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"',
    });
  }
}
