// Google auth clients from stored credentials (service-account JSON or OAuth refresh token), pointed at the
// configured token URL and cached per credential identity so access tokens are reused across requests.
import { createHash, createPrivateKey } from 'node:crypto';
import type { OAuth2Client } from 'google-auth-library';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { AppError } from '../errors/app-error.ts';
import type { Source } from '../domain/sources.ts';
import { SOURCE_DISPLAY_NAMES } from '../domain/sources.ts';
import type { ProviderEndpoints } from './endpoints.ts';
import { GOOGLE_TOKEN_URL } from './endpoints.ts';
import { googleAuthLibrary } from './google-libraries.ts';

export const GOOGLE_SCOPES = [
  'https://www.googleapis.com/auth/analytics.readonly',
  'https://www.googleapis.com/auth/webmasters.readonly',
];

/** `quotaProjectId`: the Cloud project billed for quota (`quota_project_id`), sent as `x-goog-user-project`. */
export type GoogleCredential =
  | { kind: 'service_account'; clientEmail: string; privateKey: string; privateKeyId?: string; quotaProjectId?: string }
  | { kind: 'oauth_refresh'; clientId: string; clientSecret: string; refreshToken: string; quotaProjectId?: string };

const serviceAccountSchema = z.object({
  type: z.literal('service_account').optional(),
  client_email: z.string().min(3),
  private_key: z.string().min(20),
  private_key_id: z.string().optional(),
  quota_project_id: z.string().min(1).optional(),
});
const refreshSchema = z.union([
  z.object({ client_id: z.string().min(1), client_secret: z.string().min(1), refresh_token: z.string().min(1), quota_project_id: z.string().min(1).optional() }),
  z.object({ clientId: z.string().min(1), clientSecret: z.string().min(1), refreshToken: z.string().min(1), quotaProjectId: z.string().min(1).optional() }),
]);

/**
 * Accepts what the store keeps: a service-account key JSON (string or object), an `authorized_user`-style
 * `{client_id, client_secret, refresh_token}`, or an already parsed GoogleCredential. A credential that cannot
 * be used is the data source's problem, not the caller's: 424, never 400/401.
 */
export function parseGoogleCredential(input: unknown, source: Source): GoogleCredential {
  let value = input;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      throw unusable(source, 'is not valid JSON');
    }
  }
  if (typeof value === 'object' && value !== null && 'kind' in value) {
    const kind = (value as { kind: unknown }).kind;
    if (kind === 'service_account' || kind === 'oauth_refresh') return value as GoogleCredential;
  }
  const sa = serviceAccountSchema.safeParse(value);
  if (sa.success) {
    return {
      kind: 'service_account',
      clientEmail: sa.data.client_email,
      privateKey: sa.data.private_key,
      privateKeyId: sa.data.private_key_id,
      ...(sa.data.quota_project_id ? { quotaProjectId: sa.data.quota_project_id } : {}),
    };
  }
  const refresh = refreshSchema.safeParse(value);
  if (refresh.success) {
    const d = refresh.data;
    const quotaProjectId = 'client_id' in d ? d.quota_project_id : d.quotaProjectId;
    const base = 'client_id' in d
      ? { kind: 'oauth_refresh' as const, clientId: d.client_id, clientSecret: d.client_secret, refreshToken: d.refresh_token }
      : { kind: 'oauth_refresh' as const, clientId: d.clientId, clientSecret: d.clientSecret, refreshToken: d.refreshToken };
    return quotaProjectId ? { ...base, quotaProjectId } : base;
  }
  throw unusable(source, 'is neither a service-account key nor an OAuth refresh token');
}

/** Checked once per credential (when its auth client is built), not per request. */
function assertUsable(credential: GoogleCredential, source: Source): void {
  if (credential.kind !== 'service_account') return;
  try {
    createPrivateKey(credential.privateKey);
  } catch {
    throw unusable(source, 'has an unreadable private key');
  }
}

function unusable(source: Source, why: string): AppError {
  return new AppError(
    'upstream_credential_invalid',
    `The stored ${SOURCE_DISPLAY_NAMES[source]} credential ${why}; store a new one.`,
    { provider: source },
  );
}

/** A stable, non-secret id of a credential (hash over its secret parts): cache and breaker keys, logs. */
export function credentialIdentity(credential: GoogleCredential | { kind: 'api_key'; apiKey: string }): string {
  const parts =
    credential.kind === 'service_account'
      ? ['sa', credential.clientEmail, credential.privateKeyId ?? '', credential.privateKey]
      : credential.kind === 'oauth_refresh'
        ? ['oauth', credential.clientId, credential.clientSecret, credential.refreshToken]
        : ['key', credential.apiKey];
  // Only when set, so the identities (cache and breaker keys) of credentials without one stay as they were.
  if (credential.kind !== 'api_key' && credential.quotaProjectId) parts.push(`quota:${credential.quotaProjectId}`);
  const digest = createHash('sha256').update(parts.join('\u0000')).digest('base64url').slice(0, 22);
  return `${parts[0]}_${digest}`;
}

export interface GoogleSession {
  identity: string;
  auth: OAuth2Client;
  /** Who the provider sees, for advice such as "add … as a Viewer": the service account's e-mail, or the OAuth user. */
  account: string;
}

export interface GoogleAuthCache {
  session(credential: GoogleCredential, source: Source): GoogleSession;
  /** True when a failed request went to a token endpoint (so a 400/401/403 there means a bad credential). */
  isTokenRequest(url: unknown): boolean;
}

export function createGoogleAuthCache(
  endpoints: ProviderEndpoints,
  options: { attemptTimeoutMs: number; maxClients?: number },
): GoogleAuthCache {
  const clients = new LRUCache<string, GoogleSession>({ max: options.maxClients ?? 500 });
  const transporterOptions = {
    ...(endpoints.fetch ? { fetchImplementation: endpoints.fetch } : {}),
    // Bounds the token call too, which our per-attempt policy cannot reach.
    timeout: options.attemptTimeoutMs,
  };

  function build(credential: GoogleCredential): OAuth2Client {
    const { JWT, UserRefreshClient } = googleAuthLibrary();
    const client =
      credential.kind === 'service_account'
        ? new JWT({
            email: credential.clientEmail,
            key: credential.privateKey,
            keyId: credential.privateKeyId,
            scopes: GOOGLE_SCOPES,
            transporterOptions,
          })
        : new UserRefreshClient({
            clientId: credential.clientId,
            clientSecret: credential.clientSecret,
            refreshToken: credential.refreshToken,
            endpoints: { oauth2TokenUrl: endpoints.tokenUrl },
            transporterOptions,
          });
    // Sent as x-goog-user-project on every API call: user credentials need a quota project of their own.
    if (credential.quotaProjectId) client.quotaProjectId = credential.quotaProjectId;
    client.transporter.interceptors.request.add({
      resolved: async (request) => {
        // The JWT grant's URL is hard-coded to Google's: redirect it here.
        if (request.url.href === GOOGLE_TOKEN_URL && endpoints.tokenUrl !== GOOGLE_TOKEN_URL) {
          request.url = new URL(endpoints.tokenUrl);
        }
        // Retries are ours alone (resilience.ts); gaxios would otherwise retry token calls and API calls.
        request.retry = false;
        request.retryConfig = undefined;
        return request;
      },
    });
    return client;
  }

  return {
    session(credential, source) {
      const identity = credentialIdentity(credential);
      let session = clients.get(identity);
      if (session === undefined) {
        assertUsable(credential, source);
        const account = credential.kind === 'service_account' ? credential.clientEmail : 'the Google account that authorised the stored refresh token';
        session = { identity, auth: build(credential), account };
        clients.set(identity, session);
      }
      return session;
    },
    isTokenRequest(url) {
      const href = url instanceof URL ? url.href : typeof url === 'string' ? url : '';
      return href === endpoints.tokenUrl || href === GOOGLE_TOKEN_URL;
    },
  };
}
