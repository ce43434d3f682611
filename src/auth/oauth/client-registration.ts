// Dynamic client registration (RFC 7591) and client authentication at the token and revocation endpoints
// (RFC 6749 §2.3: `none` for public clients, client_secret_basic / client_secret_post for confidential ones).
import type { Kysely } from 'kysely';
import { findOAuthClient, insertOAuthClient, type OAuthClientRecord } from '../../store/oauth-clients-repository.ts';
import type { Database } from '../../store/schema.ts';
import { parseClientMetadata } from './client-metadata.ts';
import { OAuthProtocolError } from './oauth-errors.ts';
import { newClientId, newSecret, sameDigest, sha256Hex } from './secrets.ts';

/** The RFC 7591 §3.2.1 response body: registered metadata plus client_id (and the secret, shown only here). */
export async function registerClient(db: Kysely<Database>, input: unknown, now: Date): Promise<Record<string, unknown>> {
  const metadata = parseClientMetadata(input);
  const secret = metadata.tokenEndpointAuthMethod === 'none' ? undefined : newSecret();
  const client = await insertOAuthClient(db, {
    id: newClientId(),
    secretDigest: secret === undefined ? null : sha256Hex(secret),
    name: metadata.name,
    redirectUris: metadata.redirectUris,
    grantTypes: metadata.grantTypes,
    tokenEndpointAuthMethod: metadata.tokenEndpointAuthMethod,
    scope: metadata.scope,
    metadata: metadata.extra,
    createdAt: now.toISOString(),
  });
  return {
    client_id: client.id,
    client_id_issued_at: Math.floor(now.getTime() / 1000),
    ...(secret === undefined ? {} : { client_secret: secret, client_secret_expires_at: 0 }),
    client_name: client.name,
    redirect_uris: client.redirectUris,
    grant_types: client.grantTypes,
    response_types: ['code'],
    token_endpoint_auth_method: client.tokenEndpointAuthMethod,
    ...(client.scope === null ? {} : { scope: client.scope }),
    ...client.metadata,
  };
}

function invalidClient(description: string, basic: boolean): OAuthProtocolError {
  // RFC 6749 §5.2: a client that tried Basic authentication gets a matching challenge.
  return new OAuthProtocolError('invalid_client', description, basic ? { headers: { 'WWW-Authenticate': 'Basic realm="siteline"' } } : {});
}

function parseBasic(header: string): { id: string; secret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  try {
    // RFC 6749 §2.3.1: both halves are form-urlencoded before being joined.
    const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
  } catch {
    return undefined;
  }
}

/** The client a token/revocation request comes from; 401 invalid_client for unknown or deleted clients and bad secrets. */
export async function authenticateClient(db: Kysely<Database>, form: URLSearchParams, authorization: string | null): Promise<OAuthClientRecord> {
  const basic = authorization !== null && /^Basic\s/i.test(authorization);
  let id = form.get('client_id') ?? undefined;
  let secret = form.get('client_secret') ?? undefined;
  if (basic) {
    const credentials = parseBasic(authorization ?? '');
    if (!credentials) throw invalidClient('The Basic authorization header is malformed.', true);
    if (id !== undefined && id !== credentials.id) throw invalidClient('client_id differs from the authenticated client.', true);
    ({ id, secret } = credentials);
  }
  if (!id) throw invalidClient('client_id is required (in the body for public clients).', basic);
  const client = await findOAuthClient(db, id);
  if (!client) throw invalidClient('Unknown client_id; the client may have expired. Register again.', basic);
  if (client.secretDigest !== null) {
    if (secret === undefined || !sameDigest(sha256Hex(secret), client.secretDigest)) throw invalidClient('Client authentication failed.', basic);
  }
  return client;
}
