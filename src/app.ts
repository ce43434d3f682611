// The one h3 app: request ids, problem JSON for every failure (a page for a browser's form), CORS for the API,
// REST routes, GraphQL, MCP, the account pages and the dashboard, health; unknown paths → 404.
import { H3, type H3EventContext } from 'h3';
import type { AppDeps } from './app-deps.ts';
import { notFound } from './errors/app-error.ts';
import { appErrorFromThrown } from './http/errors-to-problems.ts';
import { runAfterEveryAnswer } from './http/every-answer.ts';
import { requestIdFrom } from './http/request-id.ts';
import { mountApiCors } from './http/cors.ts';
import { formProblemPage, isBrowserFormPost } from './account/form-problem-page.ts';
import { addResponseHeaders, applyRecordedHeaders, requestIdOf } from './http/request-context.ts';
import { problemResponse } from './http/responses.ts';
import { mountHealthRoutes } from './health/health-routes.ts';
import { mountGraphql } from './graphql/mount-graphql.ts';
import { mountMcp } from './mcp/mount-mcp.ts';
import { mountWeb } from './account/mount-web.ts';
import { mountDashboard } from './dashboard/mount-dashboard.ts';
import { mountRestRoutes } from './rest/mount-rest.ts';
import { REST_ROUTES } from './rest/route-table.ts';
import { createApiDocument } from './openapi/api-document.ts';
import { mountOpenApi } from './openapi/mount-openapi.ts';
import { mountDocs } from './docs/mount-docs.ts';
import { mountHome } from './docs/mount-home.ts';
import { mountMetrics } from './observability/mount-metrics.ts';

/** Served over https (PUBLIC_URL): every answer, redirects and problem JSON included, tells browsers to stay on https. */
const HSTS = 'max-age=31536000';

export function createApp(deps: AppDeps): H3 {
  const secure = deps.publicUrl.startsWith('https:');
  const app = new H3({
    silent: true,
    onRequest(event) {
      const requestId = requestIdFrom(event.req.headers);
      event.context.request = event.req;
      event.context.requestId = requestId;
      event.context.startedAt = performance.now();
      event.context.responseHeaders = secure ? { 'x-request-id': requestId, 'strict-transport-security': HSTS } : { 'x-request-id': requestId };
    },
    onError(thrown, event) {
      // A request h3 refuses before onRequest (unreadable URL) still gets its id, and its method in the metrics.
      event.context.request ??= event.req;
      if (event.context.requestId === undefined) addResponseHeaders(event, { 'x-request-id': (event.context.requestId = requestIdFrom(event.req.headers)) });
      const error = appErrorFromThrown(thrown);
      if (error.status >= 500 && clientHungUp(event.req)) {
        // The client left mid-request (its body or its answer cut off): nobody reads this answer and nothing broke.
        deps.logger.info({ requestId: requestIdOf(event), path: event.url.pathname }, 'client closed the connection before the answer');
      } else if (error.status >= 500) {
        deps.logger.error({ err: error.cause ?? error, requestId: requestIdOf(event), path: event.url.pathname }, error.message);
      }
      event.context.headersApplied = true;
      if (deps.web && isBrowserFormPost(event.req, event.url.pathname)) return formProblemPage(error, requestIdOf(event), deps.web.sessions.secure);
      return problemResponse(error, requestIdOf(event), event.context.responseHeaders);
    },
  });
  runAfterEveryAnswer(app, (response, context) => afterAnswer(deps, response, context));
  mountApiCors(app, deps.corsOrigins);

  mountHealthRoutes(app, deps);
  mountRestRoutes(app, deps, REST_ROUTES);
  const apiDocument = createApiDocument({ routes: REST_ROUTES, publicUrl: deps.publicUrl });
  mountOpenApi(app, apiDocument);
  mountDocs(app, apiDocument);
  if (deps.metrics && deps.metricsRoute) mountMetrics(app, deps.metrics);
  mountGraphql(app, deps);
  mountMcp(app, deps);
  if (deps.web) mountWeb(app, deps.web);
  if (deps.dashboard) mountDashboard(app, deps.dashboard);
  mountHome(app, { dashboard: Boolean(deps.dashboard) });
  app.all('/**', () => {
    throw notFound('No route matches this path. See /api/v1/docs for the endpoints.');
  });
  return app;
}

/** Recorded headers onto answers that lack them, the request metrics and the debug log line. */
function afterAnswer(deps: AppDeps, response: Response, context: H3EventContext): void {
  try {
    const requestId = context.requestId ?? 'unknown';
    if (!applyRecordedHeaders(context, response)) deps.logger.warn({ requestId, path: pathOf(context) }, 'response headers are immutable: request id and rate-limit fields not added');
    const method = context.request?.method ?? 'OTHER';
    const elapsedMs = context.startedAt === undefined ? undefined : performance.now() - context.startedAt;
    if (deps.metrics) deps.metrics.observeHttp({ method, route: context.matchedRoute?.route ?? 'unmatched', status: response.status, seconds: (elapsedMs ?? 0) / 1000 });
    if (deps.logger.isLevelEnabled('debug')) {
      deps.logger.debug({ requestId, method, path: pathOf(context), status: response.status, ms: elapsedMs === undefined ? undefined : Math.round(elapsedMs) }, 'request');
    }
  } catch (error) {
    deps.logger.error({ err: error, requestId: context.requestId }, 'bookkeeping after an answer failed');
  }
}

function pathOf(context: H3EventContext): string | undefined {
  return context.request === undefined ? undefined : new URL(context.request.url).pathname;
}

function clientHungUp(request: Request): boolean {
  try {
    return request.signal.aborted;
  } catch {
    return false;
  }
}
