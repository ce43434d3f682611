// The sandbox's own endpoints under /__sandbox/: fault switches and planted scenarios (GET/POST/DELETE), call
// stats and reset.
import { jsonResponse } from '../http.ts';
import { describeCatalogue } from '../auth/credentials.ts';
import type { DemoSite } from '../catalogue.ts';
import { faultPatchSchema } from './fault-settings.ts';
import type { FaultController } from './faults.ts';
import type { StatsCounter } from './stats.ts';
import { scenarioPostSchema } from '../scenarios/scenario-events.ts';
import type { ScenarioStore } from '../scenarios/scenario-store.ts';

export interface ControlDeps {
  faults: FaultController;
  stats: StatsCounter;
  scenarios: ScenarioStore;
  catalogue: readonly DemoSite[];
}

type Issue = { path: string; message: string };
const issuesOf = (error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): Issue[] =>
  error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));

/** A JSON body, or the 400 that says it is not one. */
async function readJson(request: Request): Promise<{ body: unknown } | { error: Response }> {
  try {
    return { body: JSON.parse((await request.text()) || '{}') };
  } catch {
    return { error: jsonResponse({ error: 'invalid_json', message: 'The body must be a JSON object.' }, 400) };
  }
}

/** GET lists the planted events, POST adds (all or none), DELETE clears. */
async function handleScenarios(request: Request, store: ScenarioStore): Promise<Response> {
  const { method } = request;
  if (method === 'GET') return jsonResponse({ events: store.list() });
  if (method === 'DELETE') {
    store.clear();
    return jsonResponse({ events: store.list() });
  }
  if (method !== 'POST') return jsonResponse({ error: 'method_not_allowed' }, 405, { allow: 'GET, POST, DELETE' });
  const read = await readJson(request);
  if ('error' in read) return read.error;
  const parsed = scenarioPostSchema.safeParse(read.body);
  if (!parsed.success) return jsonResponse({ error: 'invalid_scenario', issues: issuesOf(parsed.error) }, 400);
  const added = store.add(parsed.data.events);
  if ('issues' in added) return jsonResponse({ error: 'invalid_scenario', issues: added.issues }, 400);
  return jsonResponse(added);
}

export async function handleControl(request: Request, path: string, deps: ControlDeps): Promise<Response> {
  const { method } = request;
  if (path === '/__sandbox/scenarios') return handleScenarios(request, deps.scenarios);
  if (path === '/__sandbox/faults') {
    if (method === 'GET') return jsonResponse(deps.faults.settings());
    if (method === 'DELETE') {
      deps.faults.clear();
      return jsonResponse(deps.faults.settings());
    }
    if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
      const read = await readJson(request);
      if ('error' in read) return read.error;
      const body = read.body;
      const parsed = faultPatchSchema.safeParse(body);
      if (!parsed.success) return jsonResponse({ error: 'invalid_faults', issues: issuesOf(parsed.error) }, 400);
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
