// The authorization server's fixed facts, derived from PUBLIC_URL: issuer, the one protected resource
// (`<PUBLIC_URL>/api/mcp`), endpoint URLs, OAuth scopes and lifetimes.

/** Scopes a client may ask for. `offline_access` only signals a wish for a refresh token (MCP grants get one anyway). */
export const OAUTH_SCOPES = ['read', 'mcp:write', 'offline_access'] as const;
export type OAuthScope = (typeof OAUTH_SCOPES)[number];
/** Granted when a client asks for no scope (or only for scopes we do not know). */
export const DEFAULT_OAUTH_SCOPE: OAuthScope = 'read';

export const OAUTH_PATHS = {
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
  revoke: '/oauth/revoke',
  jwks: '/oauth/jwks',
} as const;

export const MCP_RESOURCE_PATH = '/api/mcp';

export interface OAuthServerConfig {
  /** = PUBLIC_URL without a trailing slash. */
  issuer: string;
  /** The only resource tokens are issued for (RFC 8707) and their `aud`. */
  resource: string;
  endpoints: { [K in keyof typeof OAUTH_PATHS]: string };
  accessTokenTtlSec: number;
  /** Idle lifetime of a refresh token; each rotation starts a new one (bounded by the grant's lifetime). */
  refreshTokenTtlSec: number;
  /** Absolute lifetime of a grant (the user signs in and approves again after it). */
  grantTtlSec: number;
  codeTtlSec: number;
  /** How long a rotated refresh token may be presented again without revoking its grant (concurrent refreshes). */
  refreshReuseWindowSec: number;
  /** Never-used clients are deleted after this long; idle clients without a live grant after `idleClientTtlSec`. */
  unusedClientTtlSec: number;
  idleClientTtlSec: number;
}

export function defineOAuthServer(publicUrl: string, overrides: Partial<Omit<OAuthServerConfig, 'issuer' | 'resource' | 'endpoints'>> = {}): OAuthServerConfig {
  const issuer = publicUrl.replace(/\/+$/, '');
  const endpoints = Object.fromEntries(Object.entries(OAUTH_PATHS).map(([name, path]) => [name, `${issuer}${path}`])) as OAuthServerConfig['endpoints'];
  return {
    issuer,
    resource: `${issuer}${MCP_RESOURCE_PATH}`,
    endpoints,
    accessTokenTtlSec: 3600,
    refreshTokenTtlSec: 30 * 86_400,
    grantTtlSec: 180 * 86_400,
    codeTtlSec: 300,
    refreshReuseWindowSec: 30,
    unusedClientTtlSec: 86_400,
    idleClientTtlSec: 90 * 86_400,
    ...overrides,
  };
}

/**
 * The requested scopes we know, in canonical order; unknown words are dropped (RFC 6749 §3.3 lets the server
 * ignore them, and clients send e.g. `openid profile` by habit). Nothing known left → the default scope.
 */
export function parseOAuthScope(requested: string | null | undefined): OAuthScope[] {
  const words = new Set((requested ?? '').split(' ').filter(Boolean));
  const known = OAUTH_SCOPES.filter((scope) => words.has(scope));
  return known.some((scope) => scope !== 'offline_access') ? known : [DEFAULT_OAUTH_SCOPE, ...known];
}

export function formatOAuthScope(scopes: Iterable<string>): string {
  const set = new Set(scopes);
  return OAUTH_SCOPES.filter((scope) => set.has(scope)).join(' ');
}

/**
 * RFC 8707 resource comparison: scheme and host case-insensitive, no fragment, one trailing slash ignored.
 * Undefined when `value` is no absolute URL.
 */
export function sameResource(value: string, resource: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.hash !== '' || value.includes('#')) return false;
  const normal = (u: URL) => `${u.origin}${u.pathname.replace(/\/$/, '')}${u.search}`;
  return normal(url) === normal(new URL(resource));
}
