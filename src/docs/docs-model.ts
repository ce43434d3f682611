// Reads what the docs page shows out of the OpenAPI document (never out of the route table), so the page and the
// document cannot disagree: operations grouped by tag, their parameters, scope, media types and problem codes.
import type { oas31 } from 'zod-openapi';
import type { OpenApiDocument } from '../openapi/build-document.ts';

export interface DocsParameter {
  name: string;
  in: string;
  required: boolean;
  type: string;
  enum?: readonly unknown[];
  default?: unknown;
  example?: unknown;
  description: string;
}

export interface DocsOperation {
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  scope: string;
  parameters: DocsParameter[];
  requestExample?: unknown;
  mediaTypes: string[];
  /** The 200 body's fields, flattened (`rows[].clicks`), from its schema. */
  responseFields: DocsField[];
  /** A real answer recorded from the demo. */
  responseExample?: unknown;
  errors: { status: string; codes: string[] }[];
}

export interface DocsField {
  path: string;
  type: string;
  required: boolean;
  description: string;
}

export interface DocsErrorCode {
  code: string;
  status: number;
  title: string;
  when: string;
}

export interface DocsModel {
  title: string;
  version: string;
  server: string;
  description: string;
  tags: { name: string; description?: string; operations: DocsOperation[] }[];
  /** Types several bodies share (components.schemas other than the per-operation bodies), with their fields. */
  sharedTypes: { name: string; description: string; fields: DocsField[] }[];
  errorCodes: DocsErrorCode[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export function toDocsModel(input: OpenApiDocument): DocsModel {
  // zod-openapi types its result for every OpenAPI version it can emit; ours is always 3.1.
  const document = input as unknown as oas31.OpenAPIObject;
  const tags = new Map<string, { name: string; description?: string; operations: DocsOperation[] }>();
  for (const tag of document.tags ?? []) tags.set(tag.name, { name: tag.name, ...(tag.description ? { description: tag.description } : {}), operations: [] });
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const view = toOperation(document, method, path, operation);
      const tag = operation.tags?.[0] ?? 'other';
      if (!tags.has(tag)) tags.set(tag, { name: tag, operations: [] });
      tags.get(tag)!.operations.push(view);
    }
  }
  return {
    title: document.info.title,
    version: document.info.version,
    server: document.servers?.[0]?.url ?? '/api/v1',
    description: document.info.description ?? '',
    tags: [...tags.values()].filter((tag) => tag.operations.length > 0),
    sharedTypes: Object.entries(document.components?.schemas ?? {})
      .filter(([name]) => !name.endsWith('Response'))
      .map(([name, schema]) => ({ name, description: (schema as oas31.SchemaObject).description ?? '', fields: fieldsOf(document, schema, '', 0) })),
    errorCodes: (document['x-siteline-error-codes'] as DocsErrorCode[] | undefined) ?? [],
  };
}

function toOperation(document: oas31.OpenAPIObject, method: string, path: string, operation: oas31.OperationObject): DocsOperation {
  const success = resolve<oas31.ResponseObject>(document, operation.responses?.['200']);
  const body = resolve<oas31.RequestBodyObject>(document, operation.requestBody);
  const errors = Object.entries(operation.responses ?? {})
    .filter(([status]) => /^[45]/.test(status))
    .map(([status, response]) => ({ status, codes: problemCodes(document, resolve<oas31.ResponseObject>(document, response)) }));
  return {
    id: operation.operationId ?? `${method}-${path}`,
    method: method.toUpperCase(),
    path,
    summary: operation.summary ?? '',
    description: operation.description ?? '',
    scope: String(operation['x-siteline-scope'] ?? Object.values(operation.security?.[0] ?? {})[0]?.[0] ?? 'read'),
    parameters: (operation.parameters ?? []).map((p) => toParameter(resolve<oas31.ParameterObject>(document, p))),
    ...(body?.content['application/json']?.example === undefined ? {} : { requestExample: body.content['application/json'].example }),
    mediaTypes: Object.keys(success?.content ?? {}),
    responseFields: fieldsOf(document, success?.content?.['application/json']?.schema, '', 0),
    ...(success?.content?.['application/json']?.example === undefined ? {} : { responseExample: success.content['application/json'].example }),
    errors,
  };
}

function toParameter(parameter: oas31.ParameterObject | undefined): DocsParameter {
  const schema = (parameter?.schema ?? {}) as oas31.SchemaObject;
  return {
    name: parameter?.name ?? '?',
    in: parameter?.in ?? 'query',
    required: parameter?.required === true,
    type: typeof schema.type === 'string' ? schema.type : 'string',
    ...(schema.enum ? { enum: schema.enum } : {}),
    ...(schema.default === undefined ? {} : { default: schema.default }),
    ...(parameter?.example === undefined ? {} : { example: parameter.example }),
    description: parameter?.description ?? '',
  };
}

/** The `code` enum of a problem response (`allOf: [Problem, {properties: {code: {enum}}}]`). */
function problemCodes(document: oas31.OpenAPIObject, response: oas31.ResponseObject | undefined): string[] {
  const schema = resolve<oas31.SchemaObject>(document, response?.content?.['application/problem+json']?.schema);
  // The route's own narrowing comes after the shared Problem schema, whose enum lists every code.
  for (const part of [...(schema?.allOf ?? [schema])].reverse()) {
    const code = (resolve<oas31.SchemaObject>(document, part)?.properties?.code ?? {}) as oas31.SchemaObject;
    if (Array.isArray(code.enum)) return code.enum.map(String);
  }
  return [];
}

/** Follows a local `#/components/...` reference. */
function resolve<T>(document: oas31.OpenAPIObject, value: unknown): T | undefined {
  let current = value;
  for (let hops = 0; hops < 5 && typeof current === 'object' && current !== null && '$ref' in current; hops++) {
    const ref = String((current as { $ref: unknown }).$ref);
    if (!ref.startsWith('#/')) return undefined;
    current = ref
      .slice(2)
      .split('/')
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], document);
  }
  return current as T | undefined;
}

const MAX_FIELD_DEPTH = 4;

/** The fields of a body schema, depth first, each with its dotted path (`[]` for list items, `{key}` for maps). */
function fieldsOf(document: oas31.OpenAPIObject, value: unknown, prefix: string, depth: number): DocsField[] {
  const schema = resolve<oas31.SchemaObject>(document, value);
  if (!schema || depth > MAX_FIELD_DEPTH) return [];
  const required = new Set(schema.required ?? []);
  const fields: DocsField[] = [];
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    const resolved = resolve<oas31.SchemaObject>(document, child) ?? {};
    const shared = refName(child);
    fields.push({ path, type: shared ?? typeName(document, resolved), required: required.has(name), description: resolved.description ?? (child as oas31.SchemaObject).description ?? '' });
    // A shared type (Period, Meta, Compared…) is described once in the page's shared types, not at every use.
    if (shared === undefined) fields.push(...nestedFields(document, resolved, path, depth + 1));
  }
  return fields;
}

function nestedFields(document: oas31.OpenAPIObject, schema: oas31.SchemaObject, path: string, depth: number): DocsField[] {
  if (schema.type === 'array') return refName(schema.items) === undefined ? fieldsOf(document, schema.items, `${path}[]`, depth) : [];
  if (typeof schema.additionalProperties === 'object' && refName(schema.additionalProperties) === undefined) {
    return fieldsOf(document, schema.additionalProperties, `${path}{key}`, depth);
  }
  return fieldsOf(document, schema, path, depth);
}

/** A short type label: `string`, `number or null`, `list of object`, `Compared`, `map of number or Compared`. */
function typeName(document: oas31.OpenAPIObject, schema: oas31.SchemaObject): string {
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return branches.map((branch) => refName(branch) ?? typeName(document, resolve<oas31.SchemaObject>(document, branch) ?? {})).join(' or ');
  if (schema.type === 'array') return `list of ${refName(schema.items) ?? typeName(document, resolve<oas31.SchemaObject>(document, schema.items) ?? {})}`;
  if (schema.type === 'object' && typeof schema.additionalProperties === 'object' && !schema.properties) {
    return `map of ${refName(schema.additionalProperties) ?? typeName(document, resolve<oas31.SchemaObject>(document, schema.additionalProperties) ?? {})}`;
  }
  return typeof schema.type === 'string' ? schema.type : 'any';
}

function refName(value: unknown): string | undefined {
  const ref = typeof value === 'object' && value !== null && '$ref' in value ? String((value as { $ref: unknown }).$ref) : undefined;
  return ref?.split('/').pop();
}
