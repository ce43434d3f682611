// REST route → OpenAPI parameter objects, from the contract's parameter catalogue (src/contract/parameters.ts).
import { PARAMETERS, PATH_PARAMETER_NAMES, type ParameterInfo, type ParameterName } from '../contract/parameters.ts';
import type { oas31 } from 'zod-openapi';
import type { RestRoute } from '../rest/rest-route.ts';

export type ParameterObject = oas31.ParameterObject & { in: 'query' | 'path'; required: boolean; description: string; schema: oas31.SchemaObject };

/** Query parameters without which the endpoint answers 400 (the breakdowns need a dimension). */
const REQUIRED_QUERY: ReadonlySet<ParameterName> = new Set(['dimension']);

export const FORMAT_PARAMETER: ParameterObject = {
  name: 'format',
  in: 'query',
  required: false,
  description:
    'json (the default) returns the JSON body described below. csv returns the same rows as RFC 4180 CSV with a header row instead, as Content-Type text/csv; charset=utf-8 (as does Accept: text/csv); nested values become dotted columns.',
  schema: { type: 'string', enum: ['json', 'csv'], default: 'json' },
};

/** `/api/v1/projects/:projectKey` → `/projects/{projectKey}` (paths are relative to the server `…/api/v1`). */
export function toOpenApiPath(path: string, basePath: string): string {
  if (!path.startsWith(`${basePath}/`)) throw new Error(`REST route ${path} is not under ${basePath}`);
  return path.slice(basePath.length).replace(/:([A-Za-z][A-Za-z0-9_]*)/g, '{$1}');
}

export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z][A-Za-z0-9_]*)/g)].map((m) => m[1]!);
}

export function parametersOf(route: RestRoute): ParameterObject[] {
  const path = pathParameterNames(route.path).map((name): ParameterObject => {
    const catalogueName = PATH_PARAMETER_NAMES[name];
    if (catalogueName === undefined) throw new Error(`REST route ${route.path}: path parameter :${name} is not in PATH_PARAMETER_NAMES`);
    return { ...toParameter(name, PARAMETERS[catalogueName], undefined), in: 'path', required: true };
  });
  const query = route.query.map((name) => {
    const info: ParameterInfo = PARAMETERS[name];
    return { ...toParameter(name, info, name === 'compare' ? compareDefaultOf(route) : info.default), required: REQUIRED_QUERY.has(name) };
  });
  return [...path, ...query, ...(route.csvRows ? [FORMAT_PARAMETER] : [])];
}

/** `compare` defaults to `previous` on summaries and `none` elsewhere. */
function compareDefaultOf(route: RestRoute): string {
  return route.path.endsWith('/summary') ? 'previous' : 'none';
}

function toParameter(name: string, info: ParameterInfo, defaultValue: ParameterInfo['default']): ParameterObject {
  const schema: oas31.SchemaObject = { type: info.type };
  if (info.enum) schema.enum = [...info.enum];
  if (info.minimum !== undefined) schema.minimum = info.minimum;
  if (info.maximum !== undefined) schema.maximum = info.maximum;
  if (defaultValue !== undefined) schema.default = defaultValue;
  return { name, in: 'query', required: false, description: info.description, schema, ...(info.example === undefined ? {} : { example: info.example }) };
}
