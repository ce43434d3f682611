// Builds the OpenAPI 3.1 document once at boot from the route table, the parameter catalogue, the response schemas
// and the error catalogue, so the document cannot drift from what the app serves.
import { createRequire } from 'node:module';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponseObject } from 'zod-openapi';
import type * as z from 'zod';
import { OAUTH_PATHS } from '../auth/oauth/oauth-config.ts';
import { SCOPES, type Scope } from '../auth/scopes.ts';
import { restyleJsonSchema } from '../contract/json-schema-style.ts';
import { ERROR_STATUS, ERROR_TITLES, type ErrorCode } from '../errors/app-error.ts';
import type { RestRoute } from '../rest/rest-route.ts';
import { API_DESCRIPTION } from './api-description.ts';
import { parametersOf, toOpenApiPath } from './openapi-parameters.ts';
import { HEADERS, responseComponentName, responsesOf } from './openapi-responses.ts';
import { ProblemSchema } from './problem-schema.ts';
import { GENERIC_REQUEST, REQUEST_SCHEMAS, RESPONSE_SCHEMAS, SHARED_SCHEMAS } from './response-schemas.ts';
import { ERROR_WHEN } from './route-errors.ts';

export type OpenApiDocument = ReturnType<typeof createDocument>;

export interface BuildOpenApiInput {
  routes: readonly RestRoute[];
  /** Public base URL (scheme://host[:port]); the server entry is `<publicUrl>/api/v1`. */
  publicUrl: string;
  /** Response body schemas by stored operation (default: RESPONSE_SCHEMAS). */
  responseSchemas?: Readonly<Record<string, z.ZodType>>;
  version?: string;
}

export const API_BASE_PATH = '/api/v1';

const TAG_DESCRIPTIONS: Record<string, string> = {
  projects: 'The projects your credential may read, with their data sources.',
  'site metrics': 'Web analytics (analytics): headline metrics, time series, breakdowns, realtime and metadata.',
  search: 'Search data from engine1 and engine2, alone or combined.',
  insights: 'What changed and why (drivers of a change), days that broke the pattern (anomalies), and search opportunities.',
  funnels: 'Funnel definitions and results, and the events and pages funnel steps can match.',
  raw: 'Raw provider proxies for what the endpoints above do not cover (scope raw).',
};

const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  read: 'Every GET endpoint.',
  raw: 'The raw provider proxies.',
  'mcp:write': 'Creating funnels through MCP (not used by REST).',
};

/**
 * An OAuth token with the scope, or an API key. OpenAPI can list scopes only for OAuth schemes, so the key's scope
 * is in the operation's description and `x-siteline-scope`.
 */
function securityFor(scope: Scope): { [scheme: string]: string[] }[] {
  return [{ oauth: [scope] }, { bearer: [] }];
}

export function buildOpenApiDocument(input: BuildOpenApiInput): OpenApiDocument {
  const base = input.publicUrl.replace(/\/+$/, '');
  const responseSchemas = input.responseSchemas ?? RESPONSE_SCHEMAS;
  const used = new Set(input.routes.map((route) => route.operation));
  const paths: ZodOpenApiPathsObject = {};
  const operationIds = new Set<string>();
  const problemResponses = new Map<string, ZodOpenApiResponseObject>();
  for (const route of input.routes) {
    const path = toOpenApiPath(route.path, API_BASE_PATH);
    const item = (paths[path] ??= {});
    const method = route.method === 'GET' ? 'get' : 'post';
    if (item[method]) throw new Error(`Two REST routes for ${route.method} ${route.path}`);
    item[method] = operationOf(route, uniqueId(lowerFirst(route.operation), operationIds), responseSchemas[route.operation] !== undefined, problemResponses);
  }
  const tags = [...new Set(input.routes.flatMap((route) => route.tags))].map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}) }));
  const schemas: Record<string, z.ZodType> = { Problem: ProblemSchema, ...SHARED_SCHEMAS };
  for (const [operation, schema] of Object.entries(responseSchemas)) if (used.has(operation)) schemas[responseComponentName(operation)] = schema;

  const document = createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Siteline API',
      version: input.version ?? packageVersion(),
      description: API_DESCRIPTION,
      contact: { name: 'Siteline on this instance', url: `${base}/api/v1/docs` },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: `${base}${API_BASE_PATH}`, description: 'This Siteline instance' }],
    tags,
    security: securityFor('read'),
    paths,
    components: {
      schemas,
      headers: HEADERS,
      responses: Object.fromEntries(problemResponses),
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: `An API key (sl_live_…) as Authorization: Bearer <key>. A key carries scopes (${SCOPES.join(', ')}); each operation lists the one it needs.`,
        },
        oauth: {
          type: 'oauth2',
          description: 'An access token Siteline issues through its own authorization server (authorization code with PKCE S256), as Authorization: Bearer <token>.',
          flows: { authorizationCode: { authorizationUrl: `${base}${OAUTH_PATHS.authorize}`, tokenUrl: `${base}${OAUTH_PATHS.token}`, refreshUrl: `${base}${OAUTH_PATHS.token}`, scopes: SCOPE_DESCRIPTIONS } },
        },
      },
    },
    'x-siteline-error-codes': (Object.keys(ERROR_STATUS) as ErrorCode[]).map((code) => ({ code, status: ERROR_STATUS[code], title: ERROR_TITLES[code], when: ERROR_WHEN[code] })),
  });
  return restyleJsonSchema(document, { openObjects: 'omit' });
}

function operationOf(route: RestRoute, operationId: string, hasSchema: boolean, problemResponses: Map<string, ZodOpenApiResponseObject>): ZodOpenApiOperationObject {
  const scope = route.scope ?? 'read';
  const operation: ZodOpenApiOperationObject = {
    operationId,
    summary: route.summary,
    description: `${route.description ?? route.summary}\n\nRequires scope \`${scope}\`.`,
    tags: route.tags,
    security: securityFor(scope),
    parameters: parametersOf(route),
    responses: responsesOf(route, hasSchema, problemResponses),
    'x-siteline-scope': scope,
  };
  if (route.bodyVariable !== undefined) {
    const body = REQUEST_SCHEMAS[route.operation] ?? GENERIC_REQUEST;
    operation.requestBody = { required: true, description: 'JSON, at most 64 KiB.', content: { 'application/json': { schema: body.schema, example: body.example } } };
  }
  return operation;
}

function uniqueId(base: string, taken: Set<string>): string {
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}${n}`;
  taken.add(id);
  return id;
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

function packageVersion(): string {
  return (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
}
