// Where the browser-facing Google OAuth flow and the Admin API live: Google's own hosts in production, or the
// sandbox's root (which serves the consent page, token, revoke and Admin API on one origin).
import { GOOGLE_TOKEN_URL, type ProviderEndpoints } from '../endpoints.ts';

export interface GoogleWebEndpoints {
  /** The consent page the browser is sent to. */
  authUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  /** Analytics Admin API root, with a trailing slash. */
  adminRoot: string;
  searchConsoleRoot: string;
  fetch?: typeof fetch;
}

export const GOOGLE_WEB_ENDPOINTS: Readonly<GoogleWebEndpoints> = Object.freeze({
  authUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
  tokenUrl: GOOGLE_TOKEN_URL,
  revokeUrl: 'https://oauth2.googleapis.com/revoke',
  adminRoot: 'https://analyticsadmin.googleapis.com/',
  searchConsoleRoot: 'https://searchconsole.googleapis.com/',
});

/** Production hosts for production endpoints; otherwise everything at the token URL's origin (the sandbox). */
export function googleWebEndpointsOf(endpoints: ProviderEndpoints): GoogleWebEndpoints {
  const fetchPart = endpoints.fetch ? { fetch: endpoints.fetch } : {};
  if (endpoints.tokenUrl === GOOGLE_TOKEN_URL) return { ...GOOGLE_WEB_ENDPOINTS, searchConsoleRoot: endpoints.searchConsoleRoot, ...fetchPart };
  const root = `${new URL(endpoints.tokenUrl).origin}/`;
  return {
    authUrl: `${root}o/oauth2/v2/auth`,
    tokenUrl: endpoints.tokenUrl,
    revokeUrl: `${root}revoke`,
    adminRoot: root,
    searchConsoleRoot: endpoints.searchConsoleRoot,
    ...fetchPart,
  };
}
