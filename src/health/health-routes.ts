// /healthz (liveness: the process answers) and /readyz (dependencies: database, cache, providers' circuits).
import type { H3 } from 'h3';
import type { AppDeps } from '../app-deps.ts';
import { jsonResponse } from '../http/responses.ts';

export function mountHealthRoutes(app: H3, deps: AppDeps): void {
  app.get('/healthz', () => jsonResponse({ status: 'ok' }));
  app.get('/readyz', async () => {
    const report = await deps.readiness();
    return jsonResponse(report, { status: report.status === 'down' ? 503 : 200 });
  });
}
