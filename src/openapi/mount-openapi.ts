// GET /api/v1/openapi.json: the OpenAPI 3.1 document, public (no credential), readable by browser-based tools.
import { FastResponse } from 'srvx';
import type { H3 } from 'h3';
import { AppError } from '../errors/app-error.ts';
import { JSON_TYPE } from '../http/responses.ts';
import type { ApiDocument } from './api-document.ts';

export const OPENAPI_PATH = '/api/v1/openapi.json';

export function mountOpenApi(app: H3, api: ApiDocument): void {
  app.all(OPENAPI_PATH, (event) => {
    assertReadMethod(event.req.method);
    return new FastResponse(event.req.method === 'HEAD' ? null : api.json(), {
      headers: {
        'content-type': JSON_TYPE,
        // The document only changes with a deploy; it holds nothing private, so any origin may read it.
        'cache-control': 'public, max-age=300',
        'access-control-allow-origin': '*',
        'x-content-type-options': 'nosniff',
      },
    });
  });
}

/** Documents are read-only: anything but GET/HEAD is a 405 with `Allow`. */
export function assertReadMethod(method: string): void {
  if (method !== 'GET' && method !== 'HEAD') {
    throw new AppError('method_not_allowed', `${method} is not allowed here. Allowed: GET, HEAD.`, { headers: { allow: 'GET, HEAD' } });
  }
}
