// Which redirect URIs a client may register, and whether a presented one matches a registered one.
// Allowed: https anywhere (claude.ai, chatgpt.com, vscode.dev, …); http only on loopback (127.0.0.1, [::1],
// localhost — native apps, RFC 8252 §7.3); private-use schemes of native apps (cursor://, vscode://, …).
// Refused: http elsewhere, script/data-like schemes, fragments, credentials in the URI.
import { OAuthProtocolError } from './oauth-errors.ts';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
// Schemes that would run or embed content in the browser, or that name no app.
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'about:', 'blob:', 'filesystem:', 'ftp:', 'ws:', 'wss:', 'mailto:', 'tel:']);
const SCHEME = /^[a-z][a-z0-9+.-]*:$/;
/** Short private-use schemes of MCP clients we know (RFC 8252 prefers reverse-domain ones). */
const NATIVE_APP_SCHEMES = new Set(['cursor', 'vscode', 'vscode-insiders', 'windsurf', 'zed']);
export const MAX_REDIRECT_URIS = 20;

export function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

/** Why the URI may not be registered, or undefined when it may. */
export function redirectUriProblem(uri: string): string | undefined {
  if (uri.length > 2000) return 'is longer than 2000 characters';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not an absolute URI';
  }
  if (uri.includes('#')) return 'must not contain a fragment';
  if (url.username !== '' || url.password !== '') return 'must not contain credentials';
  if (!SCHEME.test(url.protocol) || FORBIDDEN_SCHEMES.has(url.protocol)) return `uses the scheme '${url.protocol}', which is not allowed`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') return isLoopbackHttp(url) ? undefined : 'uses http on a non-loopback host; use https (http is allowed for 127.0.0.1, [::1] and localhost only)';
  // A private-use scheme of a native app (RFC 8252 §7.1): reverse-domain (`com.example.app:`), or one of the
  // editors that use short schemes. Anything else could launch an arbitrary OS protocol handler (search-ms:, …).
  const scheme = url.protocol.slice(0, -1);
  if (scheme.includes('.') || NATIVE_APP_SCHEMES.has(scheme)) return undefined;
  return `uses the scheme '${url.protocol}', which is neither reverse-domain (com.example.app:) nor a known editor's`;
}

/** Throws 400 invalid_redirect_uri naming the first bad URI. */
export function assertRedirectUris(uris: readonly string[]): void {
  if (uris.length === 0) throw new OAuthProtocolError('invalid_redirect_uri', 'redirect_uris must list at least one URI.');
  if (uris.length > MAX_REDIRECT_URIS) throw new OAuthProtocolError('invalid_redirect_uri', `redirect_uris may list at most ${MAX_REDIRECT_URIS} URIs.`);
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthProtocolError('invalid_redirect_uri', `The redirect URI '${uri.slice(0, 200)}' ${problem}.`);
  }
}

/**
 * The presented redirect URI when it matches a registered one: exactly, or — for loopback http — on everything
 * but the port (RFC 8252 §7.3: native apps pick a free port at run time). Undefined otherwise.
 */
export function matchRedirectUri(registered: readonly string[], presented: string): string | undefined {
  if (registered.includes(presented)) return presented;
  let url: URL;
  try {
    url = new URL(presented);
  } catch {
    return undefined;
  }
  if (!isLoopbackHttp(url) || presented.includes('#')) return undefined;
  const withoutPort = (u: URL) => `${u.protocol}//${u.hostname}${u.pathname}${u.search}`;
  const key = withoutPort(url);
  for (const candidate of registered) {
    try {
      const registeredUrl = new URL(candidate);
      if (isLoopbackHttp(registeredUrl) && withoutPort(registeredUrl) === key) return presented;
    } catch {
      // registered URIs were validated at registration; ignore anything unparsable
    }
  }
  return undefined;
}

/** What the consent screen names as the place the user returns to: a host, or a private scheme. */
export function redirectTargetLabel(uri: string): string {
  const url = new URL(uri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.host : `${url.protocol}//${url.host}`;
}

/** CSP `form-action` source allowing the consent form's post-submit redirect to this URI (Chromium enforces it). */
export function formActionSourceOf(uri: string): string {
  const url = new URL(uri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
}
