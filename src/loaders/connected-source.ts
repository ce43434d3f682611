// Finds a project's data source for a request (404 for an invisible project, 409 when the provider is not
// connected), opens its credential only when an upstream call is really needed, and records the outcome of
// upstream calls as the data source's status (a rejected credential shows `error`, the next success `ok`).
import { AppError, notFound } from '../errors/app-error.ts';
import type { Source } from '../domain/sources.ts';
import { readSourceCredential, setPropertySettings, setSourceStatus, type DataSourceRecord, type SourceCredential } from '../store/data-sources-repository.ts';
import type { ProjectRecord } from '../store/projects-repository.ts';
import type { LoaderDeps } from './loader-deps.ts';
import type { StoreLoaders } from './store-loaders.ts';

/** Project and data-source lookups need only the execution's store loaders. */
interface StoreLookups {
  readonly store: StoreLoaders;
}

export interface ConnectedSource {
  project: ProjectRecord;
  source: Source;
  record: DataSourceRecord;
  /** Cache identity of the data source, e.g. `analytics:123456` or `engine1:sc-domain:example.com`. */
  sourceId: string;
  /** Cache identity of the credential (changes on reconnect; never derived from the secret). */
  credentialId: string;
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

export async function openCredential(ctx: LoaderDeps, cs: ConnectedSource): Promise<SourceCredential> {
  const credential = await ctx.services.storeMemo.read(`credential:${cs.project.id}:${cs.source}`, () =>
    readSourceCredential(ctx.services.db, ctx.services.box, cs.project.id, cs.source),
  );
  if (!credential) throw new AppError('source_not_connected', `${cs.source} was disconnected from project '${cs.project.key}'.`, { provider: cs.source });
  return credential;
}

/** Runs one upstream call and records its outcome on the data source. */
export async function trackUpstream<T>(ctx: LoaderDeps, cs: ConnectedSource, call: () => Promise<T>): Promise<T> {
  try {
    const value = await call();
    if (cs.record.status === 'error') await recordStatus(ctx, cs, 'ok', null);
    return value;
  } catch (error) {
    // Every 424 is about the stored connection (credential, API, scope, quota project, access): the source shows it.
    if (error instanceof AppError && error.status === 424) await recordStatus(ctx, cs, 'error', error.message);
    throw error;
  }
}

async function recordStatus(ctx: LoaderDeps, cs: ConnectedSource, status: 'ok' | 'error', message: string | null): Promise<void> {
  try {
    await setSourceStatus(ctx.services.db, cs.project.id, cs.source, status, message, ctx.services.clock());
  } catch (error) {
    ctx.services.logger.warn({ err: error, project: cs.project.key, source: cs.source }, 'could not record data source status');
  }
}

/**
 * Every analytics report carries the property's time zone and currency: when they differ from what is stored
 * (the property was changed in GA), the stored settings follow, so the next answer's days are right.
 */
export async function notePropertySettings(ctx: LoaderDeps, cs: ConnectedSource, seen: { timeZone?: string; currencyCode?: string }): Promise<void> {
  const changed =
    (seen.timeZone !== undefined && seen.timeZone !== cs.record.timeZone) || (seen.currencyCode !== undefined && seen.currencyCode !== cs.record.currencyCode);
  if (!changed) return;
  try {
    await setPropertySettings(ctx.services.db, cs.project.id, cs.source, seen);
    ctx.services.logger.info({ project: cs.project.key, timeZone: seen.timeZone, currency: seen.currencyCode }, 'analytics property settings read');
  } catch (error) {
    ctx.services.logger.warn({ err: error, project: cs.project.key }, 'could not record the analytics property settings');
  }
}
