// OAuth protocol errors (RFC 6749 §5.2, RFC 7591 §3.2.2, RFC 8707, RFC 7009) and their JSON responses.
// OAuth endpoints answer `{error, error_description}` rather than the API's problem JSON, because OAuth
// clients parse exactly that shape.

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'unsupported_token_type'
  | 'temporarily_unavailable'
  | 'server_error';

export class OAuthProtocolError extends Error {
  readonly code: OAuthErrorCode;
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(code: OAuthErrorCode, description: string, options: { status?: number; headers?: Record<string, string> } = {}) {
    super(description);
    this.name = 'OAuthProtocolError';
    this.code = code;
    this.status = options.status ?? (code === 'invalid_client' ? 401 : code === 'temporarily_unavailable' ? 429 : code === 'server_error' ? 500 : 400);
    this.headers = options.headers ?? {};
  }
}

export function isOAuthProtocolError(value: unknown): value is OAuthProtocolError {
  return value instanceof OAuthProtocolError;
}

/** Headers of every OAuth JSON answer: never cached (RFC 6749 §5.1), readable from browsers (claude.ai, Inspector). */
export const OAUTH_JSON_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  pragma: 'no-cache',
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'WWW-Authenticate',
};

export function oauthJson(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...OAUTH_JSON_HEADERS, ...headers } });
}

export function oauthErrorResponse(error: OAuthProtocolError): Response {
  return oauthJson({ error: error.code, error_description: error.message }, error.status, error.headers);
}
