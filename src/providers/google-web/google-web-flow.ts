// Google's OAuth 2.0 web-server flow for "Connect Google": the consent URL (code + PKCE S256, offline access,
// incremental scopes), the code exchange, revocation, and the two lists a user picks from right after consent —
// GA4 properties (Admin API v1beta accountSummaries.list) and Search Console sites (sites.list). All of it
// through google-auth-library and the official API clients, pointed at production or the sandbox.
import type { analyticsadmin } from '@googleapis/analyticsadmin';
import type { OAuth2Client } from 'google-auth-library';
import { GOOGLE_SCOPES } from '../google-auth.ts';
import { GOOGLE_TOKEN_URL } from '../endpoints.ts';
import { analyticsAdminLibrary, googleAuthLibrary, searchConsoleLibrary } from '../google-libraries.ts';
import type { GoogleWebEndpoints } from './google-web-endpoints.ts';

export interface GoogleWebClientConfig {
  clientId: string;
  clientSecret: string;
}

export interface GoogleTokens {
  refreshToken: string;
  accessToken: string;
  scope: string;
  /** Who consented (the id_token's `sub` and `email`), when Google returned an id_token. */
  subject?: string;
  email?: string;
}

/** Scopes that make Google say who consented (an id_token with `sub` and `email`): one grant per account. */
const IDENTITY_SCOPES = ['openid', 'email'];

/**
 * The account in an id_token. It came straight from Google's token endpoint over TLS, which Google documents as
 * enough to trust it without checking the signature.
 */
function identityOf(idToken: string | null | undefined): { subject?: string; email?: string } {
  const payload = idToken?.split('.')[1];
  if (!payload) return {};
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: unknown; email?: unknown };
    return { ...(typeof claims.sub === 'string' ? { subject: claims.sub } : {}), ...(typeof claims.email === 'string' ? { email: claims.email } : {}) };
  } catch {
    return {};
  }
}

export interface GaProperty {
  /** Digits only. */
  propertyId: string;
  displayName: string;
  accountName: string;
}

export interface GoogleWebFlow {
  readonly authOrigin: string;
  /** A fresh PKCE verifier and the consent URL for it. */
  start(input: { state: string; redirectUri: string; loginHint?: string }): Promise<{ url: string; verifier: string }>;
  exchange(input: { code: string; verifier: string; redirectUri: string }): Promise<GoogleTokens>;
  /** Revokes the grant at Google (the refresh token and its access tokens). */
  revoke(refreshToken: string): Promise<void>;
  listProperties(tokens: GoogleTokens): Promise<GaProperty[]>;
  listSites(tokens: GoogleTokens): Promise<{ siteUrl: string; permissionLevel: string }[]>;
}

export function createGoogleWebFlow(config: GoogleWebClientConfig, endpoints: GoogleWebEndpoints, timeoutMs = 15_000): GoogleWebFlow {
  const transporterOptions = { ...(endpoints.fetch ? { fetchImplementation: endpoints.fetch } : {}), timeout: timeoutMs };

  function client(): OAuth2Client {
    const oauth = new (googleAuthLibrary().OAuth2Client)({
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      endpoints: { oauth2AuthBaseUrl: endpoints.authUrl, oauth2TokenUrl: endpoints.tokenUrl, oauth2RevokeUrl: endpoints.revokeUrl },
      transporterOptions,
    });
    oauth.transporter.interceptors.request.add({
      resolved: async (request) => {
        if (request.url.href === GOOGLE_TOKEN_URL && endpoints.tokenUrl !== GOOGLE_TOKEN_URL) request.url = new URL(endpoints.tokenUrl);
        // A consent code is single-use and a revocation is idempotent: a retry could only confuse the answer.
        request.retry = false;
        request.retryConfig = undefined;
        return request;
      },
    });
    return oauth;
  }

  function authorized(tokens: GoogleTokens): OAuth2Client {
    const oauth = client();
    oauth.setCredentials({ access_token: tokens.accessToken, refresh_token: tokens.refreshToken });
    return oauth;
  }

  const apiOptions = { retry: false, ...(endpoints.fetch ? { fetchImplementation: endpoints.fetch } : {}) };

  return {
    authOrigin: new URL(endpoints.authUrl).origin,
    async start({ state, redirectUri, loginHint }) {
      const oauth = client();
      const { codeVerifier, codeChallenge } = await oauth.generateCodeVerifierAsync();
      const url = oauth.generateAuthUrl({
        access_type: 'offline',
        prompt: 'consent',
        include_granted_scopes: true,
        scope: [...GOOGLE_SCOPES, ...IDENTITY_SCOPES],
        state,
        redirect_uri: redirectUri,
        code_challenge: codeChallenge,
        code_challenge_method: googleAuthLibrary().CodeChallengeMethod.S256,
        ...(loginHint ? { login_hint: loginHint } : {}),
      });
      return { url, verifier: codeVerifier };
    },
    async exchange({ code, verifier, redirectUri }) {
      const { tokens } = await client().getToken({ code, codeVerifier: verifier, redirect_uri: redirectUri });
      if (!tokens.refresh_token || !tokens.access_token) throw new GoogleFlowError('no_refresh_token', 'Google did not return a refresh token.');
      return { refreshToken: tokens.refresh_token, accessToken: tokens.access_token, scope: tokens.scope ?? '', ...identityOf(tokens.id_token) };
    },
    async revoke(refreshToken) {
      await client().revokeToken(refreshToken);
    },
    async listProperties(tokens) {
      // The Admin client pins an older google-auth-library major; its request() contract is the same one.
      const auth = authorized(tokens) as unknown as Parameters<typeof analyticsadmin>[0] extends { auth?: infer A } ? A : never;
      const admin = analyticsAdminLibrary().analyticsadmin({ version: 'v1beta', auth, rootUrl: endpoints.adminRoot, ...apiOptions });
      const properties: GaProperty[] = [];
      let pageToken: string | undefined;
      for (let page = 0; page < 20; page += 1) {
        const res = await admin.accountSummaries.list({ pageSize: 200, ...(pageToken ? { pageToken } : {}) });
        for (const account of res.data.accountSummaries ?? []) {
          for (const property of account.propertySummaries ?? []) {
            const propertyId = (property.property ?? '').replace(/^properties\//, '');
            if (/^\d+$/.test(propertyId)) properties.push({ propertyId, displayName: property.displayName ?? propertyId, accountName: account.displayName ?? '' });
          }
        }
        pageToken = res.data.nextPageToken ?? undefined;
        if (!pageToken) break;
      }
      return properties;
    },
    async listSites(tokens) {
      const api = searchConsoleLibrary().searchconsole({ version: 'v1', auth: authorized(tokens), rootUrl: endpoints.searchConsoleRoot, ...apiOptions });
      const res = await api.sites.list({});
      return (res.data.siteEntry ?? []).flatMap((s) => (s.siteUrl ? [{ siteUrl: s.siteUrl, permissionLevel: s.permissionLevel ?? '' }] : []));
    },
  };
}

export class GoogleFlowError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'GoogleFlowError';
    this.code = code;
  }
}

/** Google's OAuth error code from a failed token or revoke call (`invalid_grant`, `invalid_client`, …). */
export function googleErrorCode(error: unknown): string | undefined {
  if (error instanceof GoogleFlowError) return error.code;
  const data = (error as { response?: { data?: unknown } })?.response?.data;
  if (data && typeof data === 'object' && typeof (data as { error?: unknown }).error === 'string') return (data as { error: string }).error;
  const nested = (data as { error?: { status?: unknown } } | undefined)?.error?.status;
  return typeof nested === 'string' ? nested : undefined;
}
