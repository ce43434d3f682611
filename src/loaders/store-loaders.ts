// Per-execution loaders over the store: the caller's visible projects (read once), data sources batched
// across projects, funnels batched per project; each read through the outage memo, so a database outage does
// not stop reads it already answered recently.
import DataLoader from 'dataloader';
import type { Kysely } from 'kysely';
import type { Principal } from '../auth/principal.ts';
import { mayReadProject } from '../domain/access-policy.ts';
import { listSourcesForProjects, type DataSourceRecord } from '../store/data-sources-repository.ts';
import { listFunnelsForProjects, type FunnelRecord } from '../store/funnels-repository.ts';
import { listProjectsForAccount, type ProjectRecord } from '../store/projects-repository.ts';
import type { OutageMemo } from '../store/outage-memo.ts';
import type { Database } from '../store/schema.ts';

export interface StoreLoaders {
  /** Projects the principal may read, sorted by key. */
  visibleProjects(): Promise<ProjectRecord[]>;
  /** A visible project by key, or undefined (unknown and forbidden look the same). */
  projectByKey(key: string): Promise<ProjectRecord | undefined>;
  sourcesOf: DataLoader<string, DataSourceRecord[]>;
  funnelsOf: DataLoader<string, FunnelRecord[]>;
}

export function createStoreLoaders(db: Kysely<Database>, principal: Principal, memo: OutageMemo): StoreLoaders {
  let visible: Promise<ProjectRecord[]> | undefined;
  const visibleProjects = () => {
    visible ??= memo.read(`projects:${principal.accountId}`, () => listProjectsForAccount(db, principal.accountId)).then((projects) =>
      projects.filter((p) => mayReadProject(principal, p)),
    );
    return visible;
  };
  return {
    visibleProjects,
    projectByKey: async (key) => (await visibleProjects()).find((p) => p.key === key),
    sourcesOf: new DataLoader(async (projectIds) =>
      groupInKeyOrder(projectIds, await memo.read(`sources:${projectIds.join(',')}`, () => listSourcesForProjects(db, projectIds)), (s) => s.projectId),
    ),
    funnelsOf: new DataLoader(async (projectIds) =>
      groupInKeyOrder(projectIds, await memo.read(`funnels:${projectIds.join(',')}`, () => listFunnelsForProjects(db, projectIds)), (f) => f.projectId),
    ),
  };
}

/** DataLoader contract: one result per key, in key order. */
function groupInKeyOrder<T>(keys: readonly string[], items: T[], keyOf: (item: T) => string): T[][] {
  const groups = new Map<string, T[]>(keys.map((k) => [k, []]));
  for (const item of items) groups.get(keyOf(item))?.push(item);
  return keys.map((k) => groups.get(k) ?? []);
}
