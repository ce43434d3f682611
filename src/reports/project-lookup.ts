// Finds the project a request names (404 for an invisible one: unknown and forbidden look the same) and its data
// source (409 when the provider is not connected), through the execution's store loaders.
import { AppError, notFound } from '../errors/app-error.ts';
import type { Source } from '../domain/sources.ts';
import type { ConnectedSource } from '../loaders/connected-source.ts';
import type { StoreLoaders } from '../loaders/store-loaders.ts';
import type { ProjectRecord } from '../store/projects-repository.ts';

/** Project and data-source lookups need only the execution's store loaders. */
interface StoreLookups {
  readonly store: StoreLoaders;
}

export async function requireProject(ctx: StoreLookups, key: string): Promise<ProjectRecord> {
  const project = await ctx.store.projectByKey(key);
  if (!project) throw notFound(`No project '${key}' is visible to you.`);
  return project;
}

/** The data source when connected, else undefined (callers decide between 409 and a warning). */
export async function findSource(ctx: StoreLookups, project: ProjectRecord, source: Source): Promise<ConnectedSource | undefined> {
  const record = (await ctx.store.sourcesOf.load(project.id)).find((r) => r.source === source);
  if (!record) return undefined;
  const target = record.propertyId ?? record.siteUrl ?? '';
  return { project, source, record, sourceId: `${source}:${target}`, credentialId: `${project.id}:${record.credentialVersion}` };
}

export async function requireSource(ctx: StoreLookups, project: ProjectRecord, source: Source): Promise<ConnectedSource> {
  const found = await findSource(ctx, project, source);
  if (found) return found;
  throw new AppError('source_not_connected', `${source} is not connected to project '${project.key}'.`, { provider: source });
}
