// Mounts the route table on the h3 app: one handler per path, so a known path with the wrong method is a 405
// with `Allow` rather than a 404.
import type { H3 } from 'h3';
import type { AppDeps } from '../app-deps.ts';
import { AppError } from '../errors/app-error.ts';
import { requestIdOf } from '../http/request-context.ts';
import type { RestRoute } from './rest-route.ts';
import { runRestRoute } from './run-rest-route.ts';

export function mountRestRoutes(app: H3, deps: AppDeps, routes: readonly RestRoute[]): void {
  const byPath = new Map<string, RestRoute[]>();
  for (const route of routes) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route]);
  for (const [path, variants] of byPath) {
    const allow = [...new Set(variants.flatMap((r) => (r.method === 'GET' ? ['GET', 'HEAD'] : [r.method])))].join(', ');
    // Not async: the route's own promise is returned as it is (an async wrapper costs two more microtask turns on
    // every request); h3 turns a thrown 405 into the same problem answer.
    app.all(path, (event) => {
      const method = event.req.method === 'HEAD' ? 'GET' : event.req.method;
      const route = variants.find((r) => r.method === method);
      if (!route) {
        throw new AppError('method_not_allowed', `${event.req.method} is not allowed here. Allowed: ${allow}.`, { headers: { allow } });
      }
      return runRestRoute(route, event, deps, requestIdOf(event));
    });
  }
}
