// Expected failures: every error a caller can cause or an upstream can produce, with its HTTP status and
// stable code. Anything that is not an AppError is unexpected and gets masked as a 500.

export const ERROR_STATUS = {
  invalid_parameter: 400,
  invalid_json: 400,
  invalid_period: 400,
  malformed_request: 400,
  missing_credentials: 401,
  invalid_api_key: 401,
  invalid_token: 401,
  insufficient_scope: 403,
  // The account's role on the project does not allow the action (src/domain/access-policy.ts).
  insufficient_role: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  source_not_connected: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  upstream_credential_invalid: 424,
  // The data source's setup is wrong in a way the provider names; each says what to change (all 424: the
  // stored connection, not the caller, is at fault).
  upstream_api_disabled: 424,
  upstream_scope_insufficient: 424,
  upstream_quota_project_required: 424,
  upstream_quota_project_denied: 424,
  upstream_permission_denied: 424,
  header_too_large: 431,
  rate_limited: 429,
  upstream_quota_exhausted: 429,
  internal_error: 500,
  upstream_error: 502,
  // Our own database (or its disk) is unreachable or full: retry shortly, nothing was written.
  dependency_unavailable: 503,
  upstream_unavailable: 503,
  upstream_timeout: 504,
  // A provider 4xx passed through by the raw proxies; the status is the provider's.
  upstream_rejected: 400,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_TITLES: Record<ErrorCode, string> = {
  invalid_parameter: 'Invalid parameter',
  invalid_json: 'Invalid JSON body',
  invalid_period: 'Invalid period',
  malformed_request: 'Malformed request',
  missing_credentials: 'Missing credentials',
  invalid_api_key: 'Invalid API key',
  invalid_token: 'Invalid token',
  insufficient_scope: 'Insufficient scope',
  insufficient_role: 'Role does not allow this',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  request_timeout: 'Request timeout',
  source_not_connected: 'Data source not connected',
  payload_too_large: 'Payload too large',
  unsupported_media_type: 'Unsupported media type',
  header_too_large: 'Request header fields too large',
  upstream_credential_invalid: 'Upstream credential invalid',
  upstream_api_disabled: 'Provider API not enabled',
  upstream_scope_insufficient: 'Credential lacks a scope',
  upstream_quota_project_required: 'Quota project required',
  upstream_quota_project_denied: 'Quota project not usable',
  upstream_permission_denied: 'No access to the property or site',
  rate_limited: 'Rate limited',
  upstream_quota_exhausted: 'Upstream quota exhausted',
  internal_error: 'Internal error',
  upstream_error: 'Upstream error',
  dependency_unavailable: 'Dependency unavailable',
  upstream_unavailable: 'Upstream unavailable',
  upstream_timeout: 'Upstream timeout',
  upstream_rejected: 'Upstream rejected the request',
};

export interface FieldError {
  param: string;
  code: string;
  message: string;
}

export interface AppErrorOptions {
  param?: string;
  errors?: FieldError[];
  /** Neutral provider word (`analytics`, `engine1`, `engine2`) when an upstream is involved. */
  provider?: string;
  /** Provider error body (`upstream_rejected`), or the provider's own status, reason and message for setup errors. */
  upstream?: unknown;
  /** Overrides the code's default status (raw proxy pass-through of provider 4xx). */
  status?: number;
  /** Extra response headers, e.g. `Retry-After`, `Allow`, `WWW-Authenticate`. */
  headers?: Record<string, string>;
  cause?: unknown;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly param?: string;
  readonly errors?: FieldError[];
  readonly provider?: string;
  readonly upstream?: unknown;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, detail: string, options: AppErrorOptions = {}) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = options.status ?? ERROR_STATUS[code];
    this.param = options.param;
    this.errors = options.errors;
    this.provider = options.provider;
    this.upstream = options.upstream;
    this.headers = options.headers ?? {};
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

/** 400 invalid_parameter naming the parameter; `message` should quote the offending input. */
export function invalidParameter(param: string, message: string, errors?: FieldError[]): AppError {
  return new AppError('invalid_parameter', message, { param, errors });
}

/** Seconds a caller should wait before retrying during a database outage (recovery takes about a second). */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 2;

/** 503 dependency_unavailable: Siteline's database is unreachable or cannot write; nothing was changed. */
export function dependencyUnavailable(detail: string, cause?: unknown): AppError {
  return new AppError('dependency_unavailable', detail, { headers: { 'Retry-After': String(DEPENDENCY_RETRY_AFTER_SECONDS) }, cause });
}

export function isDependencyUnavailable(error: unknown): boolean {
  return error instanceof AppError && error.code === 'dependency_unavailable';
}

export function notFound(detail = 'The requested resource does not exist or is not visible to you.'): AppError {
  return new AppError('not_found', detail);
}
