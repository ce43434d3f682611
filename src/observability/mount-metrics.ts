// GET /metrics in the Prometheus text format: on the API app, or alone on its own app for METRICS_PORT.
import { FastResponse } from 'srvx';
import { H3 } from 'h3';
import { notFound } from '../errors/app-error.ts';
import { requestIdFrom } from '../http/request-id.ts';
import { problemResponse } from '../http/responses.ts';
import { appErrorFromThrown } from '../http/errors-to-problems.ts';
import { assertReadMethod } from '../openapi/mount-openapi.ts';
import type { Metrics } from './metrics.ts';

export const METRICS_PATH = '/metrics';

export function mountMetrics(app: H3, metrics: Metrics): void {
  app.all(METRICS_PATH, async (event) => {
    assertReadMethod(event.req.method);
    const text = await metrics.render();
    return new FastResponse(event.req.method === 'HEAD' ? null : text, { headers: { 'content-type': metrics.contentType, 'cache-control': 'no-store' } });
  });
}

/** The app of the separate metrics port: /metrics and nothing else. */
export function createMetricsApp(metrics: Metrics): H3 {
  const app = new H3({
    silent: true,
    onError: (thrown, event) => problemResponse(appErrorFromThrown(thrown), requestIdFrom(event.req.headers)),
  });
  mountMetrics(app, metrics);
  app.all('/**', () => {
    throw notFound('This port serves /metrics only.');
  });
  return app;
}
