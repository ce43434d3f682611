// Which problem codes a REST route can answer with, derived from the route table entry and the error catalogue,
// so a new route gets its errors documented without anyone listing them by hand.
import { ERROR_STATUS, type ErrorCode } from '../errors/app-error.ts';
import type { RestRoute } from '../rest/rest-route.ts';

/**
 * Operations that read only Siteline's own store. Every other operation is assumed to reach a provider, so a
 * new route documents the upstream errors (409, 424, 429 quota, 502–504) until it is listed here.
 */
const STORE_ONLY_OPERATIONS: ReadonlySet<string> = new Set(['ProjectsList', 'Project', 'FunnelsList']);

/** Every route: bad input, authentication, scope, unknown resources, an oversize head, our limit, masked failures. */
const ALWAYS: readonly ErrorCode[] = [
  'invalid_parameter',
  'missing_credentials',
  'invalid_api_key',
  'invalid_token',
  'insufficient_scope',
  'not_found',
  // Any other method on the operation's path; Allow lists the ones it takes.
  'method_not_allowed',
  'header_too_large',
  'rate_limited',
  'internal_error',
  'dependency_unavailable',
];
const UPSTREAM: readonly ErrorCode[] = ['source_not_connected', 'upstream_credential_invalid', 'upstream_api_disabled', 'upstream_scope_insufficient', 'upstream_quota_project_required', 'upstream_quota_project_denied', 'upstream_permission_denied', 'upstream_quota_exhausted', 'upstream_error', 'upstream_unavailable', 'upstream_timeout'];
const BODY: readonly ErrorCode[] = ['invalid_json', 'payload_too_large', 'unsupported_media_type'];

export function readsUpstream(route: RestRoute): boolean {
  return !STORE_ONLY_OPERATIONS.has(route.operation);
}

/** The codes of one route, in catalogue order. `upstream_rejected` (raw proxies) carries the provider's own 4xx status. */
export function errorCodesOf(route: RestRoute): ErrorCode[] {
  const codes = new Set<ErrorCode>(ALWAYS);
  if (route.query.includes('period')) codes.add('invalid_period');
  // force=1 refreshes for everyone on the project: editors and admins only.
  if (route.query.includes('force')) codes.add('insufficient_role');
  if (readsUpstream(route)) for (const code of UPSTREAM) codes.add(code);
  if (route.bodyVariable !== undefined) for (const code of BODY) codes.add(code);
  if (route.respond !== undefined && route.method === 'POST') codes.add('upstream_rejected');
  return (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((code) => codes.has(code));
}

/**
 * Codes grouped by the response key they appear under: the status. A provider pass-through (`upstream_rejected`)
 * keeps the provider's status, so it is listed under 400 (the usual one) and under `4XX` for the others.
 */
export function errorResponsesOf(route: RestRoute): Map<string, ErrorCode[]> {
  const byStatus = new Map<string, ErrorCode[]>();
  for (const code of errorCodesOf(route)) {
    const keys = code === 'upstream_rejected' ? ['400', '4XX'] : [String(ERROR_STATUS[code])];
    for (const key of keys) byStatus.set(key, [...(byStatus.get(key) ?? []), code]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a.localeCompare(b)));
}

/** When each code is answered, for the problem schema and the docs page. Complete by type. */
export const ERROR_WHEN: Readonly<Record<ErrorCode, string>> = {
  invalid_parameter: 'A bad or unknown parameter value, unknown metric or dimension, bad filter or unknown query parameter; `param` names it.',
  invalid_json: 'The request body is not valid JSON.',
  invalid_period: 'A bad period or custom range (START after END, END after today, START before 2015-08-14, span over 5 years).',
  malformed_request: "The request is not well-formed HTTP (an unknown method, a broken request or header line); answered before any route is chosen.",
  missing_credentials: 'No Authorization: Bearer credential was sent.',
  invalid_api_key: 'The API key is unknown, malformed (bad checksum), revoked or expired.',
  invalid_token: 'The OAuth access token is invalid, expired or issued for another resource.',
  insufficient_scope: 'The key or token lacks the scope the endpoint needs (WWW-Authenticate names it).',
  insufficient_role: "The account's role on the project does not allow the action (force=1 needs editor or admin; see the role table in docs/account-security.md).",
  not_found: 'Unknown path, project or funnel — or one the caller may not see (the same body either way).',
  method_not_allowed: 'The path exists but not for this method; Allow lists the methods.',
  request_timeout: 'The request head or body did not arrive in time (the server\'s request timeout); answered before any route is chosen.',
  source_not_connected: 'The provider asked for (or the endpoint needs) is not connected to the project.',
  payload_too_large: 'The request body exceeds 64 KiB.',
  unsupported_media_type: 'The request body is not Content-Type application/json.',
  header_too_large: 'The request line and headers together exceed 16 KB; answered before any route is chosen.',
  upstream_credential_invalid: "The project's stored provider credential was rejected (the provider's reason is in `upstream`); the data source shows status error.",
  upstream_api_disabled: "The provider API is not enabled in the credential's Google Cloud project; enable it (the message names it).",
  upstream_scope_insufficient: 'The stored credential was granted without the read-only scope the provider needs; reconnect and grant it.',
  upstream_quota_project_required: 'A user credential without a quota project; add quota_project_id to it and store it again.',
  upstream_quota_project_denied: "The credential's quota project may not be used by its account; grant Service Usage Consumer or change quota_project_id.",
  upstream_permission_denied: 'The credential is not a user of the analytics property, search property or verified site; add it there.',
  rate_limited: 'Our limit: requests per key, force=1 refreshes per project, or failed authentications per address (Retry-After).',
  upstream_quota_exhausted: "The provider's quota for the property or site is spent.",
  internal_error: 'An unexpected failure; it is logged, quote request_id when reporting it.',
  upstream_error: 'The provider failed (5xx or a malformed answer) and no stale copy was available.',
  dependency_unavailable: "Siteline's own database is unreachable or its disk is full (Retry-After); reads it can serve from memory keep working, writes are refused and nothing is half-written.",
  upstream_unavailable: 'The provider is failing repeatedly (circuit open) or load is being shed (Retry-After).',
  upstream_timeout: 'The provider did not answer within the deadline.',
  upstream_rejected: "Raw proxies: the provider refused the request; its status and error body (`upstream`) are passed through.",
};
