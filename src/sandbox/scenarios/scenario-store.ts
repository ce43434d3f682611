// The planted events the sandbox currently serves: added and cleared through /__sandbox/scenarios, each resolved
// to its demo site (a GA property id, or a search site URL matched by host) and checked against the site's data.
import type { DemoSite, SiteScenario } from '../catalogue.ts';
import { siteModel } from '../data/site-model.ts';
import { propertyContext } from '../analytics/context.ts';
import { ANONYMOUS, searchModel } from '../engine1/search-model.ts';
import { pagePath } from './page-path.ts';
import { isSegmentEvent, onEngine, type ScenarioEvent, type SearchEvent, type StoredEvent } from './scenario-events.ts';


export interface ScenarioIssue {
  path: string;
  message: string;
}

export interface ScenarioStore {
  list(): StoredEvent[];
  /** Adds all events or none: the issues name the first bad field of each bad event. */
  add(events: readonly ScenarioEvent[]): { events: StoredEvent[] } | { issues: ScenarioIssue[] };
  clear(): void;
  forSite(site: DemoSite): SiteScenario | undefined;
}

const hostOf = (siteUrl: string): string | undefined => {
  if (siteUrl.startsWith('sc-domain:')) return siteUrl.slice('sc-domain:'.length).toLowerCase();
  try {
    return new URL(siteUrl).hostname.toLowerCase();
  } catch {
    return undefined;
  }
};

/** The demo site a search site URL (engine1 `sc-domain:host` or `https://host/`, engine2 URL) is about. */
export function siteForUrl(catalogue: readonly DemoSite[], siteUrl: string): DemoSite | undefined {
  const host = hostOf(siteUrl.trim());
  return host === undefined ? undefined : catalogue.find((s) => s.domain.toLowerCase() === host);
}

function siteOf(catalogue: readonly DemoSite[], event: ScenarioEvent): DemoSite | undefined {
  return 'property' in event ? catalogue.find((s) => s.analytics.propertyId === event.property) : siteForUrl(catalogue, event.site);
}

/** Why an event cannot be planted on its site's data (undefined when it can). */
function checkAgainstData(site: DemoSite, event: ScenarioEvent): ScenarioIssue | undefined {
  const model = siteModel(site);
  if (isSegmentEvent(event)) {
    const family = propertyContext(site, new Date()).families.find((f) => f.dims.includes(event.dimension))!;
    const at = family.dims.indexOf(event.dimension);
    const wanted = event.value.toLowerCase();
    if (!family.atoms.some((a) => a.values[at]!.toLowerCase() === wanted)) return { path: 'value', message: `${event.dimension} "${event.value}" does not occur in property ${site.analytics.propertyId}.` };
    return undefined;
  }
  if (event.kind === 'page_drop') {
    const path = pagePath(site, event.page);
    if (!model.pages.some((x) => x.path === path && x.searchShare > 0)) return { path: 'page', message: `"${event.page}" is not a page of ${site.domain} that search can show.` };
    return undefined;
  }
  const query = event.query.toLowerCase();
  const engines = (['engine1', 'engine2'] as const).filter((e) => onEngine(event as SearchEvent, e));
  const shown = (engine: 'engine1' | 'engine2') => searchModel(model, engine).queryAtoms.some((a) => a.query !== ANONYMOUS && a.query.toLowerCase() === query);
  if (!engines.some(shown)) {
    return { path: 'query', message: `The query "${event.query}" has no impressions on ${site.domain}${engines.length === 1 ? ` in ${engines[0]}` : ''}.` };
  }
  if (event.kind === 'cannibalisation') {
    const paths = event.pages.map((p) => pagePath(site, p));
    const unknown = paths.findIndex((p) => !model.pages.some((x) => x.path === p && x.searchShare > 0));
    if (unknown >= 0) return { path: `pages.${unknown}`, message: `"${event.pages[unknown]}" is not a page of ${site.domain} that search can show.` };
    if (new Set(paths).size !== paths.length) return { path: 'pages', message: 'The pages must be different.' };
  }
  return undefined;
}

export function createScenarioStore(catalogue: () => readonly DemoSite[]): ScenarioStore {
  let events: StoredEvent[] = [];
  let version = 0;
  let nextId = 1;
  const bySite = new Map<string, SiteScenario>();
  const rebuild = () => {
    version += 1;
    bySite.clear();
    for (const event of events) {
      const site = siteOf(catalogue(), event)!;
      const entry = bySite.get(site.key) ?? { version, segments: [], search: [] };
      if (isSegmentEvent(event)) bySite.set(site.key, { ...entry, segments: [...entry.segments, event] });
      else bySite.set(site.key, { ...entry, search: [...entry.search, event as SearchEvent] });
    }
  };
  return {
    list: () => structuredClone(events),
    add(incoming) {
      const issues: ScenarioIssue[] = [];
      incoming.forEach((event, i) => {
        const site = siteOf(catalogue(), event);
        if (!site) {
          const field = 'property' in event ? 'property' : 'site';
          issues.push({ path: `events.${i}.${field}`, message: `No sandbox ${field === 'property' ? 'property' : 'site'} "${'property' in event ? event.property : event.site}".` });
          return;
        }
        const issue = checkAgainstData(site, event);
        if (issue) issues.push({ path: `events.${i}.${issue.path}`, message: issue.message });
      });
      if (issues.length) return { issues };
      events = [...events, ...incoming.map((e) => ({ ...structuredClone(e), id: `evt-${nextId++}` }))];
      rebuild();
      return { events: structuredClone(events) };
    },
    clear() {
      events = [];
      rebuild();
    },
    forSite: (site) => bySite.get(site.key),
  };
}

/** The catalogue with each site's planted events attached (sites without any stay the same objects). */
export function withScenarios(catalogue: readonly DemoSite[], store: ScenarioStore): readonly DemoSite[] {
  return catalogue.map((site) => {
    const scenario = store.forSite(site);
    return scenario ? { ...site, scenario } : site;
  });
}
