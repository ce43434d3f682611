// The planted events of one sandbox: added, listed and cleared through /__sandbox/scenarios. Each change makes a
// new version, and the sites an event is about carry the version with their events, so every data cache keyed by
// the site's model sees a changed scenario on the very next request.
import type { DemoSite } from '../catalogue.ts';
import { siteOfEvent, type ScenarioEvent, type StoredEvent } from './scenario-events.ts';

export interface SiteScenario {
  /** Unique across sandboxes in one process: caches keyed by it can never mix two scenario sets. */
  version: number;
  events: readonly StoredEvent[];
}

export interface ScenarioBook {
  list(): readonly StoredEvent[];
  add(events: readonly ScenarioEvent[]): readonly StoredEvent[];
  clear(): void;
  /** The catalogue as the emulators should read it: sites with planted events carry them. */
  apply(catalogue: readonly DemoSite[]): readonly DemoSite[];
}

let nextVersion = 1;

export function createScenarioBook(catalogue: readonly DemoSite[]): ScenarioBook {
  let events: StoredEvent[] = [];
  let nextId = 1;
  let version = 0;
  const bySite = new Map<string, SiteScenario>();
  const rebuild = () => {
    version = nextVersion++;
    bySite.clear();
    for (const event of events) {
      const site = siteOfEvent(catalogue, event);
      if (!site) continue;
      const current = bySite.get(site.key);
      bySite.set(site.key, { version, events: [...(current?.events ?? []), event] });
    }
  };
  return {
    list: () => events,
    add(added) {
      const stored = added.map((e) => ({ id: `ev${nextId++}`, ...e }));
      events = [...events, ...stored];
      rebuild();
      return stored;
    },
    clear() {
      events = [];
      rebuild();
    },
    apply(sites) {
      if (bySite.size === 0) return sites;
      return sites.map((site) => {
        const scenario = bySite.get(site.key);
        return scenario ? { ...site, scenario } : site;
      });
    },
  };
}
