// Dynamic client registration input (RFC 7591 §2): validated into what we store, or a 400 with
// `invalid_redirect_uri` / `invalid_client_metadata` naming the field.
import { OAuthProtocolError } from './oauth-errors.ts';
import { assertRedirectUris } from './redirect-uris.ts';

export const TOKEN_ENDPOINT_AUTH_METHODS = ['none', 'client_secret_post', 'client_secret_basic'] as const;
export type TokenEndpointAuthMethod = (typeof TOKEN_ENDPOINT_AUTH_METHODS)[number];
export const CLIENT_GRANT_TYPES = ['authorization_code', 'refresh_token'] as const;

export interface ValidClientMetadata {
  redirectUris: string[];
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  grantTypes: string[];
  name: string;
  scope: string | null;
  /** Echoed, informational fields (client_uri, logo_uri, software_id, …). */
  extra: Record<string, unknown>;
}

const ECHOED_STRINGS = ['client_uri', 'logo_uri', 'tos_uri', 'policy_uri', 'software_id', 'software_version', 'application_type'] as const;

function metadataError(description: string): OAuthProtocolError {
  return new OAuthProtocolError('invalid_client_metadata', description);
}

function optionalString(body: Record<string, unknown>, field: string, max: number): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw metadataError(`${field} must be a string.`);
  if (value.length > max) throw metadataError(`${field} must be at most ${max} characters.`);
  return value;
}

/** How many entries, and how long each, the list fields may hold (everything registered is stored and echoed). */
export const LIST_BOUNDS: Record<string, { items: number; length: number } | undefined> = {
  grant_types: { items: 10, length: 64 },
  response_types: { items: 10, length: 64 },
  contacts: { items: 10, length: 320 },
};

/** redirect_uris are bounded by assertRedirectUris, which names the URI at fault. */
function stringList(body: Record<string, unknown>, field: string): string[] | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw metadataError(`${field} must be an array of strings.`);
  const bounds = LIST_BOUNDS[field];
  if (bounds === undefined) return value as string[];
  if (value.length > bounds.items) throw metadataError(`${field} may list at most ${bounds.items} entries.`);
  if (value.some((v: string) => v.length > bounds.length)) throw metadataError(`Each entry of ${field} must be at most ${bounds.length} characters.`);
  return value as string[];
}

export function parseClientMetadata(input: unknown): ValidClientMetadata {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw metadataError('The registration request must be a JSON object.');
  const body = input as Record<string, unknown>;

  const redirectUris = stringList(body, 'redirect_uris');
  if (redirectUris === undefined) throw new OAuthProtocolError('invalid_redirect_uri', 'redirect_uris is required.');
  assertRedirectUris(redirectUris);

  const method = optionalString(body, 'token_endpoint_auth_method', 64) ?? 'client_secret_basic'; // RFC 7591 §2 default
  if (!(TOKEN_ENDPOINT_AUTH_METHODS as readonly string[]).includes(method)) {
    throw metadataError(`token_endpoint_auth_method '${method}' is not supported; use ${TOKEN_ENDPOINT_AUTH_METHODS.join(', ')}.`);
  }

  const grantTypes = stringList(body, 'grant_types') ?? ['authorization_code'];
  const badGrant = grantTypes.find((g) => !(CLIENT_GRANT_TYPES as readonly string[]).includes(g));
  if (badGrant !== undefined) throw metadataError(`grant_types '${badGrant}' is not supported; use ${CLIENT_GRANT_TYPES.join(', ')}.`);
  if (!grantTypes.includes('authorization_code')) throw metadataError('grant_types must include authorization_code.');

  const responseTypes = stringList(body, 'response_types') ?? ['code'];
  if (responseTypes.length === 0 || responseTypes.some((t) => t !== 'code')) throw metadataError("response_types supports only 'code'.");

  const extra: Record<string, unknown> = {};
  for (const field of ECHOED_STRINGS) {
    const value = optionalString(body, field, 2000);
    if (value !== undefined) extra[field] = value;
  }
  const contacts = stringList(body, 'contacts');
  if (contacts !== undefined) extra.contacts = contacts;

  const name = (optionalString(body, 'client_name', 200) ?? '').trim();
  return {
    redirectUris: [...new Set(redirectUris)],
    tokenEndpointAuthMethod: method as TokenEndpointAuthMethod,
    grantTypes: [...new Set(grantTypes)],
    name: name || 'Unnamed client',
    scope: optionalString(body, 'scope', 500) ?? null,
    extra,
  };
}
