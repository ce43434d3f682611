// /healthz (liveness: the process answers) and /readyz (dependencies: database, cache, providers' circuits).
import type { H3 } from 'h3';
import type { AppDeps } from '../app-deps.ts';
import { preparedResponse } from '../http/request-context.ts';
import { JSON_TYPE, jsonResponse } from '../http/responses.ts';

/** Liveness is polled constantly (orchestrators, load balancers): one prepared body, nothing built per request. */
const ALIVE = new TextEncoder().encode(JSON.stringify({ status: 'ok' }));
const ALIVE_HEADERS = { 'content-type': JSON_TYPE, 'cache-control': 'private, no-store' };

export function mountHealthRoutes(app: H3, deps: AppDeps): void {
  app.get('/healthz', (event) => preparedResponse(event, ALIVE, ALIVE_HEADERS));
  app.get('/readyz', async () => {
    const report = await deps.readiness();
    return jsonResponse(report, { status: report.status === 'down' ? 503 : 200 });
  });
}
