// The OpenAPI 3.1 document: served without a credential, structurally valid, complete for every route of the
// table, and drift-free (built from the table, so a new route appears with its parameters and errors).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { PARAMETERS, PATH_PARAMETER_NAMES } from '../../src/contract/parameters.ts';
import { ERROR_STATUS, type ErrorCode } from '../../src/errors/app-error.ts';
import { buildOpenApiDocument } from '../../src/openapi/build-document.ts';
import { errorCodesOf } from '../../src/openapi/route-errors.ts';
import { defineRestRoute, type RestRoute } from '../../src/rest/rest-route.ts';
import { REST_ROUTES } from '../../src/rest/route-table.ts';
import { createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';
import { expectEvery } from '../helpers/expect-every.ts';

type Json = any;
const build = (routes: readonly RestRoute[] = REST_ROUTES): Json => buildOpenApiDocument({ routes, publicUrl: 'https://siteline.example/', version: '9.9.9' });
const toPath = (route: RestRoute) => route.path.replace('/api/v1', '').replace(/:([A-Za-z]+)/g, '{$1}');
const operationOf = (doc: Json, route: RestRoute) => doc.paths[toPath(route)]?.[route.method.toLowerCase()];

/** Every `$ref` in the document, with where it occurs. */
function refsOf(node: unknown, at = '#', out: { ref: string; at: string }[] = []): { ref: string; at: string }[] {
  if (Array.isArray(node)) node.forEach((item, i) => refsOf(item, `${at}/${i}`, out));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.push({ ref: value, at });
      else refsOf(value, `${at}/${key}`, out);
    }
  }
  return out;
}

function resolvePointer(doc: Json, ref: string): unknown {
  return ref
    .slice(2)
    .split('/')
    .reduce<any>((node, key) => node?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], doc);
}

const deref = (doc: Json, value: Json): Json => (value?.$ref ? deref(doc, resolvePointer(doc, value.$ref)) : value);

/** The `code` enum of a route's problem response for one status. */
const codesAt = (doc: Json, operation: Json, status: string): string[] => deref(doc, operation.responses[status]).content['application/problem+json'].schema.allOf[1].properties.code.enum;

describe('GET /api/v1/openapi.json', () => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await createTestRuntime();
  });
  afterAll(() => rt.dispose());

  it('serves the document without a credential, as JSON', async () => {
    const res = await rt.request('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const doc = await res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers[0].url).toBe('http://siteline.test/api/v1');
    expect(Object.keys(doc.paths)).toHaveLength(new Set(REST_ROUTES.map((r) => r.path)).size);
  });

  it('answers another method with 405 and Allow', async () => {
    const res = await rt.request('/api/v1/openapi.json', { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect((await res.json()).code).toBe('method_not_allowed');
  });
});

describe('the document built from the route table', () => {
  const doc = build();

  it('has the required OpenAPI 3.1 fields', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toMatchObject({ title: expect.any(String), version: '9.9.9' });
    expect(doc.servers).toEqual([expect.objectContaining({ url: 'https://siteline.example/api/v1' })]);
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      expect(path.startsWith('/'), path).toBe(true);
      for (const operation of Object.values<Json>(item)) {
        expect(Object.keys(operation.responses).length, path).toBeGreaterThan(0);
        for (const response of Object.values<Json>(operation.responses)) expect(typeof deref(doc, response).description, path).toBe('string');
      }
    }
  });

  it('puts every route of the table in, with its method', () => {
    for (const route of REST_ROUTES) expect(operationOf(doc, route), `${route.method} ${route.path}`).toBeDefined();
  });

  it('resolves every $ref', () => {
    const refs = refsOf(doc);
    expect(refs.length).toBeGreaterThan(20);
    for (const { ref, at } of refs) {
      expect(ref, at).toMatch(/^#\//);
      expect(resolvePointer(doc, ref), `${ref} at ${at}`).toBeDefined();
    }
  });

  it('has unique operationIds', () => {
    const ids = REST_ROUTES.map((route) => operationOf(doc, route).operationId);
    expectEvery(ids, (id) => typeof id === 'string' && id !== '');
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('documents every parameter of every route from the catalogue, and nothing else', () => {
    for (const route of REST_ROUTES) {
      const operation = operationOf(doc, route);
      const params: Json[] = operation.parameters.map((p: Json) => deref(doc, p));
      const pathNames = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]);
      const expected = [...pathNames, ...route.query, ...(route.csvRows ? ['format'] : [])];
      expect(params.map((p) => p.name).sort(), route.path).toEqual([...expected].sort());
      for (const param of params) {
        expect(param.description, `${route.path} ${param.name}`).toBeTruthy();
        expect(param.schema.type, `${route.path} ${param.name}`).toBeTruthy();
        if (param.in === 'path') {
          expect(param.required).toBe(true);
          expect(toPath(route)).toContain(`{${param.name}}`);
          expect(param.description).toBe(PARAMETERS[PATH_PARAMETER_NAMES[param.name]!].description);
          continue;
        }
        if (param.name === 'format') continue;
        const info: Json = PARAMETERS[param.name as keyof typeof PARAMETERS];
        expect(param.in).toBe('query');
        expect(param.description).toBe(info.description);
        expect(param.schema.type).toBe(info.type);
        expect(param.schema.enum).toEqual(info.enum ? [...info.enum] : undefined);
        if (info.default !== undefined) expect(param.schema.default).toBe(info.default);
        if (info.example !== undefined) expect(param.example).toBe(info.example);
      }
    }
  });

  it('defaults compare to previous on summaries and none elsewhere, and requires dimension', () => {
    const param = (path: string, name: string) => operationOf(doc, REST_ROUTES.find((r) => r.path === path)!).parameters.find((p: Json) => p.name === name);
    expect(param('/api/v1/metrics/:projectKey/summary', 'compare').schema.default).toBe('previous');
    expect(param('/api/v1/metrics/:projectKey/search/summary', 'compare').schema.default).toBe('previous');
    expect(param('/api/v1/metrics/:projectKey/timeseries', 'compare').schema.default).toBe('none');
    expect(param('/api/v1/metrics/:projectKey/dimension', 'dimension').required).toBe(true);
    expect(param('/api/v1/metrics/:projectKey/search/dimension', 'dimension').required).toBe(true);
    expect(param('/api/v1/metrics/:projectKey/dimension', 'period').required).toBe(false);
  });

  it('offers format=csv exactly where the route has csvRows, and declares the text/csv answer there', () => {
    for (const route of REST_ROUTES) {
      const operation = operationOf(doc, route);
      const media = route.respond ? ['application/json'] : route.csvRows ? ['application/json', 'text/csv'] : ['application/json'];
      expect(Object.keys(operation.responses['200'].content), route.path).toEqual(media);
      if (route.csvRows) expect(operation.responses['200'].content['text/csv'].schema.type).toBe('string');
      const format = operation.parameters.find((p: Json) => p.name === 'format');
      expect(format !== undefined, route.path).toBe(route.csvRows !== undefined);
      if (route.csvRows) expect(format.schema.enum).toEqual(['json', 'csv']);
      if (route.csvRows) expect(format.description).toContain('text/csv');
    }
  });

  it('leaves no open-ended object in the document but the providers\' own JSON (raw proxies)', () => {
    const text = JSON.stringify(doc);
    expect(text).not.toContain('"additionalProperties":{}');
    // The raw proxies' request body and answer: 3 routes × (request body + response).
    expect(text.split('"additionalProperties":true').length - 1).toBe(6);
    expect(text).not.toMatch(/"type":\[/);
  });

  it('declares the bearer scheme and the scope each route needs', () => {
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.bearer.description).toMatch(/sl_live_/);
    for (const route of REST_ROUTES) {
      expect(operationOf(doc, route).security, route.path).toEqual([{ oauth: [route.scope ?? 'read'] }, { bearer: [] }]);
      expect(operationOf(doc, route)['x-siteline-scope'], route.path).toBe(route.scope ?? 'read');
    }
    expect(operationOf(doc, REST_ROUTES.find((r) => r.path === '/api/v1/raw/analytics/proxy')!).security).toEqual([{ oauth: ['raw'] }, { bearer: [] }]);
    expect(Object.keys(doc.components.securitySchemes.oauth.flows.authorizationCode.scopes)).toEqual(['read', 'raw', 'mcp:write']);
  });

  it('references a response schema wherever the contract has one', () => {
    for (const route of REST_ROUTES.filter((r) => !r.respond)) {
      const schema = operationOf(doc, route).responses['200'].content['application/json'].schema;
      if (doc.components.schemas[`${route.operation}Response`]) expect(schema, route.path).toEqual({ $ref: `#/components/schemas/${route.operation}Response` });
      else expect(schema.type, route.path).toBe('object');
    }
    expect(doc.components.schemas.SiteSummaryResponse.properties.period).toEqual({ $ref: '#/components/schemas/Period' });
  });

  it('documents the problem responses each route can produce, as application/problem+json', () => {
    for (const route of REST_ROUTES) {
      const operation = operationOf(doc, route);
      for (const status of ['400', '401', '403', '404', '429', '500', '503']) {
        const response = deref(doc, operation.responses[status]);
        expect(response, `${route.path} ${status}`).toBeDefined();
        const media = response.content['application/problem+json'];
        expect(media.schema.allOf[0]).toEqual({ $ref: '#/components/schemas/Problem' });
        for (const code of codesAt(doc, operation, status)) expect(String(ERROR_STATUS[code as ErrorCode])).toBe(status);
      }
      const upstream = !['ProjectsList', 'Project', 'FunnelsList'].includes(route.operation);
      expect(codesAt(doc, operation, '503')).toContain('dependency_unavailable');
      expect(codesAt(doc, operation, '503').includes('upstream_unavailable')).toBe(upstream);
      for (const status of ['409', '424', '502', '504']) expect(operation.responses[status] !== undefined, `${route.path} ${status}`).toBe(upstream);
      for (const status of ['413', '415']) expect(operation.responses[status] !== undefined, `${route.path} ${status}`).toBe(route.method === 'POST');
      expect(codesAt(doc, operation, '401')).toEqual(['missing_credentials', 'invalid_api_key', 'invalid_token']);
      expect(codesAt(doc, operation, '400').includes('invalid_period')).toBe(route.query.includes('period'));
    }
    for (const route of REST_ROUTES.filter((r) => r.path.startsWith('/api/v1/raw/'))) {
      expect(codesAt(doc, operationOf(doc, route), '4XX')).toEqual(['upstream_rejected']);
      expect(codesAt(doc, operationOf(doc, route), '400')).toContain('upstream_rejected');
    }
  });

  it('mentions every error code of the catalogue somewhere (parser errors in the description: they belong to no operation)', () => {
    const used = new Set(REST_ROUTES.flatMap(errorCodesOf));
    const missing = (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((code) => !used.has(code));
    expect(missing).toEqual(['malformed_request', 'request_timeout']);
    for (const text of ['405', 'malformed_request', 'request_timeout']) expect(doc.info.description).toContain(text);
    expect(doc['x-siteline-error-codes'].map((e: Json) => e.code)).toEqual(Object.keys(ERROR_STATUS));
    expect(doc.components.schemas.Problem.properties.code.enum).toEqual(Object.keys(ERROR_STATUS));
  });

  it('declares every tag it uses', () => {
    const declared = doc.tags.map((t: Json) => t.name);
    for (const route of REST_ROUTES) for (const tag of route.tags) expect(declared).toContain(tag);
  });

  it('states the decisions a caller needs in its description', () => {
    for (const word of ['custom_START_END', 'time zone', 'compare', 'meta.cache', 'RateLimit-Policy', 'Retry-After', 'analytics', 'engine1', 'engine2', '/api/v1', 'force=1', 'text/csv']) {
      expect(doc.info.description, word).toContain(word);
    }
  });

  it('never names a provider outside human text (and the allowed sp aliases)', () => {
    const { info, paths, ...rest } = doc;
    const { description, ...infoRest } = info;
    // displayName is human text; the raw proxies' example answers are the providers' own JSON, unchanged.
    const human = new Set(['description', 'summary', 'when', 'title', 'displayName']);
    const ownPaths = structuredClone(paths as Json);
    for (const [path, item] of Object.entries(ownPaths as Json)) if (path.startsWith('/raw/')) delete (item as Json).post.responses['200'].content['application/json'].example;
    const isSpEnum = (value: unknown) => Array.isArray(value) && value.includes('engine1') && value.includes('google');
    const machine = JSON.stringify({ ...rest, paths: ownPaths, info: infoRest }, (key, value) => (human.has(key) || isSpEnum(value) ? undefined : value));
    expect(machine).not.toMatch(/google|bing|search console/i);
    expect(description).toContain('Google Analytics 4');
  });
});

describe('drift: the document follows the table', () => {
  const widgets = defineRestRoute({
    method: 'GET',
    path: '/api/v1/metrics/:projectKey/widgets',
    operation: 'Widgets',
    query: ['period', 'limit', 'filter'],
    csvRows: () => [],
    summary: 'Widgets per page',
    tags: ['widgets'],
  });

  it('adds a new route with its parameters, CSV, scope, errors and a generic body schema', () => {
    const doc = build([...REST_ROUTES, widgets]);
    const operation = operationOf(doc, widgets);
    expect(operation).toMatchObject({ operationId: 'widgets', summary: 'Widgets per page', tags: ['widgets'], security: [{ oauth: ['read'] }, { bearer: [] }] });
    expect(operation.parameters.map((p: Json) => p.name)).toEqual(['projectKey', 'period', 'limit', 'filter', 'format']);
    expect(operation.responses['200'].content['application/json'].schema).toMatchObject({ type: 'object' });
    expect(operation.parameters.find((p: Json) => p.name === 'format')).toBeDefined();
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['400', '401', '403', '404', '409', '429', '500', '502', '503', '504']));
    expect(doc.tags.map((t: Json) => t.name)).toContain('widgets');
    expect(Object.keys(build().paths)).not.toContain('/metrics/{projectKey}/widgets');
  });

  it('publishes a response schema under the operation name and a POST body with 413/415', () => {
    const post = defineRestRoute({ method: 'POST', path: '/api/v1/raw/widgets/proxy', operation: 'RawWidgets', query: [], scope: 'raw', bodyVariable: 'request', summary: 'Raw widgets', tags: ['raw'] });
    const doc = buildOpenApiDocument({ routes: [widgets, post], publicUrl: 'http://x.test', responseSchemas: { Widgets: z.object({ widgets: z.array(z.string()) }) } });
    expect((operationOf(doc, widgets) as Json).responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/WidgetsResponse' });
    expect((doc.components as Json).schemas.WidgetsResponse.properties.widgets.type).toBe('array');
    const operation: Json = operationOf(doc, post);
    expect(operation.security).toEqual([{ oauth: ['raw'] }, { bearer: [] }]);
    expect(operation.requestBody.content['application/json']).toBeDefined();
    expect(operation.responses['413']).toBeDefined();
    expect(operation.responses['415']).toBeDefined();
  });

  it('refuses routes it could not describe truthfully', () => {
    const base = { method: 'GET' as const, operation: 'X', query: [], summary: 'x', tags: ['x'] };
    expect(() => build([defineRestRoute({ ...base, path: '/api/v1/things/:thingKey' })])).toThrow(/thingKey/);
    expect(() => build([defineRestRoute({ ...base, path: '/api/v2/things' })])).toThrow(/not under \/api\/v1/);
    expect(() => build([widgets, widgets])).toThrow(/Two REST routes/);
  });
});
