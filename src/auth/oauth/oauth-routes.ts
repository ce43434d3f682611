// The authorization server's machine-facing endpoints: metadata (RFC 8414 + the OpenID discovery path), JWKS,
// registration (RFC 7591), token and revocation (RFC 7009). All answer OAuth JSON with CORS `*` (browser-based
// clients such as claude.ai and the Inspector call them cross-origin) and never set cookies.
// The browser-facing /oauth/authorize lives with the account pages (src/account/authorize-routes.ts).
import type { H3 } from 'h3';
import { clientIpOf } from '../../http/client-ip.ts';
import { isAppError } from '../../errors/app-error.ts';
import { BODY_LIMITS, hasMediaType, readFormBody, readJsonBody } from '../../http/read-body.ts';
import { OAUTH_PATHS } from './oauth-config.ts';
import { isOAuthProtocolError, oauthErrorResponse, oauthJson, OAuthProtocolError } from './oauth-errors.ts';
import type { OAuthServer } from './oauth-server.ts';

const PREFLIGHT_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type, mcp-protocol-version',
  'access-control-max-age': '86400',
};

type Handler = (request: Request, ip: string) => Promise<Response> | Response;

/** One path, its methods; OPTIONS preflight and 405 handled; OAuth errors turned into OAuth JSON. */
function endpoint(app: H3, path: string, methods: Record<string, Handler>, logger: OAuthRoutesLogger): void {
  const allow = [...Object.keys(methods), 'OPTIONS'].join(', ');
  app.all(path, async (event) => {
    const request = event.req;
    if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: PREFLIGHT_HEADERS });
    const handler = methods[request.method === 'HEAD' ? 'GET' : request.method];
    if (!handler) return oauthJson({ error: 'invalid_request', error_description: `${request.method} is not allowed here.` }, 405, { allow });
    try {
      return await handler(request, clientIpOf(event));
    } catch (error) {
      if (isOAuthProtocolError(error)) return oauthErrorResponse(error);
      if (isAppError(error) && error.code === 'payload_too_large') return oauthErrorResponse(new OAuthProtocolError('invalid_request', error.message, { status: 413 }));
      logger.error({ err: error, path }, 'OAuth endpoint failed');
      return oauthErrorResponse(new OAuthProtocolError('server_error', 'An unexpected error occurred.'));
    }
  });
}

export interface OAuthRoutesLogger {
  error(object: object, message?: string): void;
}

async function requireForm(request: Request): Promise<URLSearchParams> {
  const form = await readFormBody(request);
  if (!form) throw new OAuthProtocolError('invalid_request', 'Send the parameters as application/x-www-form-urlencoded.');
  return form;
}

export function mountOAuthRoutes(app: H3, oauth: OAuthServer, logger: OAuthRoutesLogger): void {
  const metadata = JSON.stringify(oauth.metadata());
  const openId = JSON.stringify(oauth.openIdConfiguration());
  const jwks = JSON.stringify(oauth.jwks());
  const publicJson = (body: string) => () =>
    new Response(body, { headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=3600', 'access-control-allow-origin': '*' } });

  endpoint(app, '/.well-known/oauth-authorization-server', { GET: publicJson(metadata) }, logger);
  endpoint(app, '/.well-known/openid-configuration', { GET: publicJson(openId) }, logger);
  endpoint(app, OAUTH_PATHS.jwks, { GET: publicJson(jwks) }, logger);

  endpoint(
    app,
    OAUTH_PATHS.register,
    {
      async POST(request, ip) {
        if (!hasMediaType(request, 'application/json')) throw new OAuthProtocolError('invalid_client_metadata', 'Send the client metadata as application/json.');
        const body = await readJsonBody(request, BODY_LIMITS.json).catch((error: unknown) => {
          if (isAppError(error) && error.code === 'invalid_json') throw new OAuthProtocolError('invalid_client_metadata', `The registration request is not valid JSON: ${error.message}`);
          throw error;
        });
        return oauthJson(await oauth.register(body, ip), 201);
      },
    },
    logger,
  );

  endpoint(app, OAUTH_PATHS.token, { POST: async (request, ip) => oauthJson(await oauth.token(await requireForm(request), request.headers.get('authorization'), ip)) }, logger);

  endpoint(
    app,
    OAUTH_PATHS.revoke,
    {
      async POST(request, ip) {
        await oauth.revoke(await requireForm(request), request.headers.get('authorization'), ip);
        return new Response(null, { status: 200, headers: { 'cache-control': 'no-store', 'access-control-allow-origin': '*' } });
      },
    },
    logger,
  );
}
