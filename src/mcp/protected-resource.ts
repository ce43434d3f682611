// RFC 9728 protected-resource metadata for /api/mcp, at the path-inserted URL clients try first and at the
// root URL: where to get a token (Siteline's own authorization server, issuer = PUBLIC_URL) and which scopes
// exist. Public, cacheable, CORS `*` (browser-based clients read it before they have a token).
import type { H3 } from 'h3';
import { jsonResponse } from '../http/responses.ts';

export const PRM_PATH = '/.well-known/oauth-protected-resource';
export const MCP_SCOPES = ['read', 'mcp:write'] as const;

export function protectedResourceMetadata(resource: URL, issuer: string): Record<string, unknown> {
  return {
    resource: resource.href,
    authorization_servers: [issuer],
    scopes_supported: [...MCP_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Siteline',
    resource_documentation: `${issuer}/api/v1/docs`,
  };
}

export function mountProtectedResourceMetadata(app: H3, resource: URL, issuer: string): void {
  const body = JSON.stringify(protectedResourceMetadata(resource, issuer));
  const cors = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, OPTIONS', 'access-control-allow-headers': '*' };
  const handler = ({ req }: { req: Request }) => {
    if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: { ...cors, 'access-control-max-age': '86400' } });
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return jsonResponse({ error: 'method_not_allowed' }, { status: 405, headers: { ...cors, allow: 'GET, HEAD, OPTIONS' } });
    }
    return new Response(req.method === 'HEAD' ? null : body, {
      headers: { ...cors, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=3600' },
    });
  };
  app.all(PRM_PATH, handler);
  app.all(`${PRM_PATH}${resource.pathname}`, handler);
}
