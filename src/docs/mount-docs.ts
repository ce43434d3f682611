// GET /api/v1/docs: the human API reference, rendered once from the OpenAPI document, under a strict CSP.
import { FastResponse } from 'srvx';
import type { H3 } from 'h3';
import type { ApiDocument } from '../openapi/api-document.ts';
import { assertReadMethod } from '../openapi/mount-openapi.ts';
import { DOCS_CSP } from './docs-styles.ts';
import { renderDocsPage } from './render-docs-page.ts';

export const DOCS_PATH = '/api/v1/docs';
/** Problem JSON `type` is `/api/v1/errors#<code>`; the browser keeps the fragment through the redirect. */
export const ERRORS_PATH = '/api/v1/errors';

export function mountDocs(app: H3, api: ApiDocument): void {
  app.all(ERRORS_PATH, (event) => {
    assertReadMethod(event.req.method);
    return new FastResponse(null, { status: 302, headers: { location: DOCS_PATH, 'cache-control': 'public, max-age=300' } });
  });
  let html: string | undefined;
  app.all(DOCS_PATH, (event) => {
    assertReadMethod(event.req.method);
    html ??= renderDocsPage(api.document());
    return new FastResponse(event.req.method === 'HEAD' ? null : html, {
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'public, max-age=300',
        'content-security-policy': DOCS_CSP,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cross-origin-opener-policy': 'same-origin',
      },
    });
  });
}
