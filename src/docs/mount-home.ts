// GET /: where a newcomer lands. A browser goes on to the dashboard (or the API reference when the dashboard is
// off); a script gets a small JSON index of the surfaces, so `curl localhost:3000` says where to go next.
import type { H3 } from 'h3';
import { FastResponse } from 'srvx';
import { jsonResponse } from '../http/responses.ts';
import { OPENAPI_PATH, assertReadMethod } from '../openapi/mount-openapi.ts';
import { DOCS_PATH } from './mount-docs.ts';

export function mountHome(app: H3, options: { dashboard: boolean }): void {
  const index = {
    name: 'Siteline',
    links: {
      docs: DOCS_PATH,
      openapi: OPENAPI_PATH,
      rest: '/api/v1',
      mcp: '/api/mcp',
      graphql: '/api/graphql',
      ...(options.dashboard ? { dashboard: '/dashboard' } : {}),
      health: '/healthz',
    },
  };
  app.all('/', (event) => {
    assertReadMethod(event.req.method);
    if (!(event.req.headers.get('accept') ?? '').includes('text/html')) return jsonResponse(index);
    return new FastResponse(null, { status: 302, headers: { location: options.dashboard ? '/dashboard' : DOCS_PATH } });
  });
}
