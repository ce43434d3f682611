// The sandbox's own endpoints under /__sandbox/: fault switches (GET/POST/DELETE), call stats and reset.
import { jsonResponse } from '../http.ts';
import { describeCatalogue } from '../auth/credentials.ts';
import type { DemoSite } from '../catalogue.ts';
import { faultPatchSchema } from './fault-settings.ts';
import type { FaultController } from './faults.ts';
import type { StatsCounter } from './stats.ts';

export interface ControlDeps {
  faults: FaultController;
  stats: StatsCounter;
  catalogue: readonly DemoSite[];
}

export async function handleControl(request: Request, path: string, deps: ControlDeps): Promise<Response> {
  const { method } = request;
  if (path === '/__sandbox/faults') {
    if (method === 'GET') return jsonResponse(deps.faults.settings());
    if (method === 'DELETE') {
      deps.faults.clear();
      return jsonResponse(deps.faults.settings());
    }
    if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
      let body: unknown;
      try {
        body = JSON.parse((await request.text()) || '{}');
      } catch {
        return jsonResponse({ error: 'invalid_json', message: 'The body must be a JSON object.' }, 400);
      }
      const parsed = faultPatchSchema.safeParse(body);
      if (!parsed.success) return jsonResponse({ error: 'invalid_faults', issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) }, 400);
      deps.faults.set(parsed.data);
      return jsonResponse(deps.faults.settings());
    }
    return jsonResponse({ error: 'method_not_allowed' }, 405, { allow: 'GET, POST, DELETE' });
  }
  if (path === '/__sandbox/stats' && method === 'GET') return jsonResponse(deps.stats.snapshot());
  if (path === '/__sandbox/stats/reset' && method === 'POST') {
    deps.stats.reset();
    return jsonResponse(deps.stats.snapshot());
  }
  if (path === '/__sandbox/catalogue' && method === 'GET') return jsonResponse(describeCatalogue(deps.catalogue));
  return jsonResponse({ error: 'not_found', message: `No sandbox control endpoint ${method} ${path}.` }, 404);
}
