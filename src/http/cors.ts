// CORS for the API surfaces (/api/v1, /api/graphql, /api/mcp), one middleware for all three: a browser page on an
// origin listed in CORS_ORIGINS may call them with its bearer credential and read the answer and its headers.
// Credentials travel in the Authorization header, never in cookies, so `Access-Control-Allow-Credentials` is never
// sent. The OAuth endpoints and the discovery documents answer `*` on their own: clients find them before they
// hold anything. Requests without an Origin (servers, scripts, most MCP traffic) pass untouched.
import { isPreflightRequest, type H3, type H3Event } from 'h3';
import { addResponseHeaders } from './request-context.ts';

/** Every path the API answers on. */
export const API_PATHS = '/api/**';

/** Request headers a browser may send: the credential, the media types, the MCP transport's own headers. */
export const CORS_ALLOW_HEADERS = ['authorization', 'content-type', 'accept', 'x-request-id', 'mcp-protocol-version', 'mcp-method', 'mcp-name', 'mcp-session-id', 'last-event-id'];

/** Response headers a browser page may read beyond the safelisted ones. */
export const CORS_EXPOSE_HEADERS = ['x-request-id', 'ratelimit', 'ratelimit-policy', 'retry-after', 'cache-status', 'age', 'www-authenticate', 'mcp-protocol-version', 'mcp-session-id'];

const ALLOW_METHODS = 'GET, HEAD, POST';
const PREFLIGHT_MAX_AGE_SECONDS = '600';

/** The answer to a preflight, or undefined after recording the CORS fields the actual answer carries. */
function corsFor(event: H3Event, allowed: ReadonlySet<string>): Response | undefined {
  const origin = event.req.headers.get('origin');
  if (origin === null) return undefined;
  const permitted = allowed.has(origin);
  addResponseHeaders(event, permitted ? { 'access-control-allow-origin': origin, vary: 'origin' } : { vary: 'origin' });
  if (isPreflightRequest(event)) {
    // Refused origins get no allow-fields, so the browser stops there; the route itself is never run.
    const headers: Record<string, string> = permitted
      ? { 'access-control-allow-methods': ALLOW_METHODS, 'access-control-allow-headers': CORS_ALLOW_HEADERS.join(', '), 'access-control-max-age': PREFLIGHT_MAX_AGE_SECONDS }
      : {};
    return new Response(null, { status: 204, headers });
  }
  if (permitted) addResponseHeaders(event, { 'access-control-expose-headers': CORS_EXPOSE_HEADERS.join(', ') });
  return undefined;
}

/** Mounts the CORS middleware in front of every API route; `origins` are exact origins (setting CORS_ORIGINS). */
export function mountApiCors(app: H3, origins: readonly string[]): void {
  const allowed = new Set(origins);
  app.use(API_PATHS, (event) => corsFor(event, allowed));
}
