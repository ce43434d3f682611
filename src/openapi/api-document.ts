// The app's OpenAPI document, built once at boot (a route the builder cannot describe stops the process, not a
// request; ~10–40 ms) and held with its serialised JSON for the life of the process.
import { buildOpenApiDocument, type BuildOpenApiInput, type OpenApiDocument } from './build-document.ts';

export interface ApiDocument {
  document(): OpenApiDocument;
  json(): string;
}

export function createApiDocument(input: BuildOpenApiInput): ApiDocument {
  const document = buildOpenApiDocument(input);
  let json: string | undefined;
  return { document: () => document, json: () => (json ??= JSON.stringify(document)) };
}
