// A project's connected data source as loaders see it: its credential is opened only when an upstream call is
// really needed, and the outcome of upstream calls is recorded as the data source's status (a rejected
// credential shows `error`; the first success of a `pending` source, and the next one after an error, `ok`). Finding the source for a request is the reports' job.
import { AppError } from '../errors/app-error.ts';
import type { Source } from '../domain/sources.ts';
import { readSourceCredential, setPropertySettings, setSourceStatus, type DataSourceRecord, type SourceCredential } from '../store/data-sources-repository.ts';
import type { ProjectRecord } from '../store/projects-repository.ts';
import type { LoaderDeps } from './loader-deps.ts';

export interface ConnectedSource {
  project: ProjectRecord;
  source: Source;
  record: DataSourceRecord;
  /** Cache identity of the data source, e.g. `analytics:123456` or `engine1:sc-domain:example.com`. */
  sourceId: string;
  /** Cache identity of the credential (changes on reconnect; never derived from the secret). */
  credentialId: string;
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
    if (cs.record.status !== 'ok') await recordStatus(ctx, cs, 'ok', null);
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
