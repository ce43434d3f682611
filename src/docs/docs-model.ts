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
  errors: { status: string; codes: string[] }[];
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
