// The app's OpenAPI document, built on first use (the build takes ~100 ms; tests that never ask for it skip it)
// and then held with its serialised JSON for the life of the process.
import { buildOpenApiDocument, type BuildOpenApiInput, type OpenApiDocument } from './build-document.ts';

export interface ApiDocument {
  document(): OpenApiDocument;
  json(): string;
}

export function createApiDocument(input: BuildOpenApiInput): ApiDocument {
  let document: OpenApiDocument | undefined;
  let json: string | undefined;
  const get = () => (document ??= buildOpenApiDocument(input));
  return { document: get, json: () => (json ??= JSON.stringify(get())) };
}
