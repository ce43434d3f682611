// GET|POST|DELETE /__sandbox/scenarios: list, plant and clear events (see scenario-events.ts for their shapes).
import type { DemoSite } from '../catalogue.ts';
import { siteModel } from '../data/site-model.ts';
import { searchModel } from '../engine1/search-model.ts';
import { jsonResponse } from '../http.ts';
import { segmentValues } from './planted-model.ts';
import type { ScenarioBook } from './scenario-book.ts';
import { catalogueIssues, postBodySchema, siteOfEvent, type ScenarioEvent } from './scenario-events.ts';

export async function handleScenarios(request: Request, book: ScenarioBook, catalogue: readonly DemoSite[]): Promise<Response> {
  if (request.method === 'GET') return jsonResponse({ events: book.list() });
  if (request.method === 'DELETE') {
    book.clear();
    return jsonResponse({ events: book.list() });
  }
  if (request.method !== 'POST') return jsonResponse({ error: 'method_not_allowed' }, 405, { allow: 'GET, POST, DELETE' });
  let body: unknown;
  try {
    body = JSON.parse((await request.text()) || '{}');
  } catch {
    return jsonResponse({ error: 'invalid_json', message: 'The body must be a JSON object.' }, 400);
  }
  const parsed = postBodySchema.safeParse(body);
  if (!parsed.success) return invalid(parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
  const issues = [...catalogueIssues(catalogue, parsed.data.events, segmentValues), ...queryIssues(catalogue, parsed.data.events)];
  if (issues.length) return invalid(issues);
  const added = book.add(parsed.data.events);
  return jsonResponse({ added, events: book.list() }, 201);
}

function invalid(issues: { path: string; message: string }[]): Response {
  return jsonResponse({ error: 'invalid_scenario', issues }, 400);
}

/** Search events must name a query the site ranks for (engine1's vocabulary), or they would change nothing. */
function queryIssues(catalogue: readonly DemoSite[], events: readonly ScenarioEvent[]) {
  return events.flatMap((event, i) => {
    if (event.kind !== 'ranking_loss' && event.kind !== 'cannibalisation') return [];
    const site = siteOfEvent(catalogue, event);
    if (!site) return [];
    const wanted = event.query.toLowerCase();
    const known = searchModel(siteModel(site), 'engine1').queryAtoms.some((a) => a.query.toLowerCase() === wanted);
    return known ? [] : [{ path: `events[${i}].query`, message: `The site does not rank for '${event.query}' (GET a query breakdown for real ones).` }];
  });
}
