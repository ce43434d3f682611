// The responses of one REST operation: the body (JSON, CSV or the provider's bytes) with the contract's headers,
// and one problem+json response per status the route can answer with, listing its codes.
import type { oas31, ZodOpenApiResponseObject, ZodOpenApiResponsesObject } from 'zod-openapi';
import { ERROR_STATUS, ERROR_TITLES, type ErrorCode } from '../errors/app-error.ts';
import type { RestRoute } from '../rest/rest-route.ts';
import { GENERIC_RESPONSE, PROVIDER_RESPONSE, RESPONSE_EXAMPLES } from './response-schemas.ts';
import { ERROR_WHEN, errorResponsesOf } from './route-errors.ts';

const header = (description: string, example?: string) => ({ description, schema: { type: 'string' as const }, ...(example ? { example } : {}) });

/** Response headers, registered once under components.headers. */
export const HEADERS = {
  'X-Request-Id': header('Request id (echoed when the client sent a sane one); also request_id in problem bodies.', '01JB9Q1M6X3V8W0T2Z4R5Y7K9C'),
  'RateLimit-Policy': header('The limits that apply to this key (IETF draft shape): the quota per minute and the burst per second.', '"default";q=600;w=60, "burst";q=60;w=1'),
  RateLimit: header('Requests left in each window and seconds until it resets.', '"default";r=598;t=42, "burst";r=59;t=1'),
  'Cache-Status': header('RFC 9211 cache status of the answer (mirrors meta.cache).', 'siteline; hit'),
  Age: header('Seconds since the data was fetched from the provider.', '120'),
  'Cache-Control': header('Always private, no-store for data answers.', 'private, no-store'),
  'Retry-After': header('Seconds to wait before retrying.', '30'),
  'WWW-Authenticate': header('Bearer challenge naming the error (and the scope needed, on 403).', 'Bearer error="insufficient_scope", scope="raw"'),
  Allow: header('Methods this path accepts.', 'GET, HEAD'),
} as const;

type HeaderName = keyof typeof HEADERS;
const refs = (...names: HeaderName[]) => Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

const SUCCESS_HEADERS = refs('X-Request-Id', 'RateLimit-Policy', 'RateLimit', 'Cache-Status', 'Age', 'Cache-Control');
const ERROR_HEADERS: Record<string, HeaderName[]> = {
  '401': ['X-Request-Id', 'WWW-Authenticate'],
  '403': ['X-Request-Id', 'WWW-Authenticate', 'RateLimit-Policy', 'RateLimit'],
  '405': ['X-Request-Id', 'Allow'],
  '429': ['X-Request-Id', 'Retry-After', 'RateLimit-Policy', 'RateLimit'],
  '503': ['X-Request-Id', 'Retry-After'],
};

/** The schema component name of an operation's response body. */
export const responseComponentName = (operation: string) => `${operation}Response`;

/**
 * Problem responses are shared components named by status and codes (e.g. `401-missing_credentials-…`): most
 * routes answer the same sets, so each is written once. `components` collects the ones used.
 */
export function responsesOf(route: RestRoute, hasSchema: boolean, components: Map<string, ZodOpenApiResponseObject>): ZodOpenApiResponsesObject {
  const responses: Record<string, ZodOpenApiResponseObject | { $ref: string }> = { '200': successOf(route, hasSchema) };
  for (const [status, codes] of errorResponsesOf(route)) {
    const name = [status, ...codes].join('-');
    if (!components.has(name)) components.set(name, problemResponseOf(status, codes));
    responses[status] = { $ref: `#/components/responses/${name}` };
  }
  return responses as ZodOpenApiResponsesObject;
}

/** `hasSchema`: the operation's body schema is published as components.schemas.<Operation>Response. */
function successOf(route: RestRoute, hasSchema: boolean): ZodOpenApiResponseObject {
  const example = RESPONSE_EXAMPLES[route.operation] === undefined ? {} : { example: RESPONSE_EXAMPLES[route.operation] };
  if (route.respond !== undefined) {
    return { description: "The provider's native JSON, unchanged.", headers: SUCCESS_HEADERS, content: { 'application/json': { schema: PROVIDER_RESPONSE, ...example } } };
  }
  const schema = hasSchema ? { $ref: `#/components/schemas/${responseComponentName(route.operation)}` } : GENERIC_RESPONSE;
  const content: NonNullable<ZodOpenApiResponseObject['content']> = { 'application/json': { schema, ...example } };
  // format=csv or Accept: text/csv. A generated client picks the media type it wants (openapi-fetch:
  // createClient<paths, 'application/json'>), so declaring both does not make every answer "JSON or string".
  if (route.csvRows) content['text/csv'] = { schema: CSV_BODY };
  return { description: route.summary, headers: SUCCESS_HEADERS, content };
}

/** RFC 4180 CSV with a header row: the JSON's rows, nested values as dotted columns. */
const CSV_BODY: oas31.SchemaObject = {
  type: 'string',
  description: 'RFC 4180 CSV, UTF-8, with a header row: the rows of the JSON answer (format=csv or Accept: text/csv); nested values become dotted columns (byProvider.engine1.clicks).',
};

function problemResponseOf(status: string, codes: ErrorCode[]): ZodOpenApiResponseObject {
  const statusSchema: oas31.SchemaObject = status === '4XX' ? { type: 'integer', minimum: 400, maximum: 499 } : { const: Number(status) };
  return {
    description: codes.map((code) => `${code} (${ERROR_TITLES[code]})`).join(', '),
    headers: refs(...(ERROR_HEADERS[status] ?? ['X-Request-Id'])),
    content: {
      'application/problem+json': {
        schema: { allOf: [{ $ref: '#/components/schemas/Problem' }, { type: 'object', properties: { code: { type: 'string', enum: codes }, status: statusSchema } }] },
        example: exampleProblem(codes[0]!, status),
      },
    },
  };
}

function exampleProblem(code: ErrorCode, status: string): Record<string, unknown> {
  return {
    type: `/api/v1/errors#${code}`,
    title: ERROR_TITLES[code],
    status: status === '4XX' ? 400 : ERROR_STATUS[code],
    detail: ERROR_WHEN[code],
    code,
    request_id: '01JB9Q1M6X3V8W0T2Z4R5Y7K9C',
  };
}
