// POST /token: Google's OAuth token endpoint for the refresh_token grant and the service-account
// JWT-bearer grant, with Google's bare {error, error_description} bodies.
import { jsonResponse, ProviderError } from '../http.ts';
import { issueAccessToken, verifyServiceJwt, ANALYTICS_SCOPES, WEBMASTERS_SCOPES } from './access-tokens.ts';
import type { SandboxCredentials } from './credentials.ts';
import type { FaultSettings } from '../control/fault-settings.ts';

const JWT_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const LIFETIME = 3599;

const oauthError = (status: number, error: string, description: string) => new ProviderError(status, { error, error_description: description });

/** Google expires refresh tokens of OAuth apps whose consent screen is in "Testing" after 7 days. */
const TESTING_REFRESH_TOKEN_MS = 7 * 86_400_000;

export async function handleTokenRequest(
  request: Request,
  creds: SandboxCredentials,
  revoked: FaultSettings['revoked'],
  now: Date,
  testingApp: FaultSettings['oauthTestingApp'] = null,
): Promise<Response> {
  if (request.method !== 'POST') throw oauthError(405, 'invalid_request', 'Only POST is supported.');
  const type = request.headers.get('content-type') ?? '';
  const text = await request.text();
  const form = type.includes('application/json')
    ? new URLSearchParams(Object.entries(JSON.parse(text || '{}') as Record<string, string>))
    : new URLSearchParams(text);
  const grant = form.get('grant_type');
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (grant === 'refresh_token') {
    // google-auth-library sends the secret in the body; Basic auth is accepted too.
    let clientId = form.get('client_id');
    let clientSecret = form.get('client_secret');
    const basic = /^Basic (.+)$/.exec(request.headers.get('authorization') ?? '');
    if (basic) [clientId, clientSecret] = Buffer.from(basic[1]!, 'base64').toString('utf8').split(':') as [string, string];
    const c = creds.oauthClient;
    if (clientId !== c.client_id || clientSecret !== c.client_secret) throw oauthError(401, 'invalid_client', 'Unauthorized');
    const expired = testingApp !== null && now.getTime() - Date.parse(testingApp.refreshTokenIssuedAt) >= TESTING_REFRESH_TOKEN_MS;
    if (form.get('refresh_token') !== c.refresh_token || revoked.oauth || expired) throw oauthError(400, 'invalid_grant', 'Token has been expired or revoked.');
    const scopes = [ANALYTICS_SCOPES[0]!, WEBMASTERS_SCOPES[0]!];
    const access = issueAccessToken(creds, { kind: 'oauth', scopes, exp: nowSeconds + LIFETIME, sub: c.client_id });
    return jsonResponse({ access_token: access, expires_in: LIFETIME, scope: scopes.join(' '), token_type: 'Bearer' });
  }
  if (grant === JWT_GRANT) {
    const assertion = form.get('assertion') ?? '';
    const result = verifyServiceJwt(creds, assertion);
    if (!result.ok) {
      if (result.reason === 'signature') throw oauthError(400, 'invalid_grant', 'Invalid JWT Signature.');
      throw oauthError(400, 'invalid_grant', 'Invalid grant: account not found');
    }
    const { iat, exp, scope } = result.claims as { iat?: number; exp?: number; scope?: string };
    // Google's own audience is expected here (the Node library hard-codes it); the sandbox does not check it.
    if (typeof iat !== 'number' || typeof exp !== 'number' || exp - iat > 3600 || exp <= nowSeconds || iat > nowSeconds + 300) {
      throw oauthError(400, 'invalid_grant', 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.');
    }
    if (revoked.serviceAccount) throw oauthError(400, 'invalid_grant', 'Token has been expired or revoked.');
    if (!scope) throw oauthError(400, 'invalid_scope', 'Invalid OAuth scope or ID token audience provided.');
    const access = issueAccessToken(creds, { kind: 'serviceAccount', scopes: scope.split(/\s+/), exp: Math.min(exp, nowSeconds + LIFETIME), sub: creds.serviceAccount.client_email });
    return jsonResponse({ access_token: access, expires_in: LIFETIME, token_type: 'Bearer' });
  }
  throw oauthError(400, 'unsupported_grant_type', `Invalid grant_type: ${grant ?? ''}`);
}
