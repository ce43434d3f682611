// Data sources: connecting (with what a connection check found — `ok`, or `error` with the provider's reason, or
// `pending` when none ran — and the analytics property's time zone and currency, which the project adopts) and
// disconnecting. Admins only. Calls to the provider (checks, revoking a Google token) happen before, in the caller;
// the store and the audit entry here.
import type { Source } from '../domain/sources.ts';
import { notFound } from '../errors/app-error.ts';
import {
  connectSource as storeSource,
  disconnectSource as deleteSource,
  setPropertySettings,
  type DataSourceRecord,
  type SourceCredential,
} from '../store/data-sources-repository.ts';
import { updateProjectSettings, type ProjectRecord } from '../store/projects-repository.ts';
import type { SecretBox } from '../store/secret-box.ts';
import type { Actor } from './actor.ts';
import { audited } from './audited.ts';
import { authorize, type ProjectRef } from './authorize.ts';
import type { WriteDeps } from './write-deps.ts';

/** What a connection check found (absent: not checked). */
export type CheckOutcome = { ok: true; timeZone?: string | undefined; currencyCode?: string | undefined } | { ok: false; reason: string };

export interface SourceConnection {
  source: Source;
  propertyId?: string | undefined;
  siteUrl?: string | undefined;
  credential: SourceCredential;
  check?: CheckOutcome;
}

export interface ConnectedSources {
  records: DataSourceRecord[];
  /** What the project adopted from its analytics property. */
  adopted: { timezone?: string; currency?: string };
}

/**
 * Stores the connections (and removes `disconnect`) together. A Google connection in progress (`flowId`) ends in the
 * same transaction, so a finished flow cannot be finished twice.
 */
export async function connectSources(
  deps: WriteDeps & { box: SecretBox },
  actor: Actor,
  project: ProjectRecord,
  connections: readonly SourceConnection[],
  options: { disconnect?: readonly Source[]; flowId?: string } = {},
): Promise<ConnectedSources> {
  return audited(deps, actor, async (trx) => {
    await authorize(trx, actor, project, 'source.connect');
    const now = deps.clock();
    const records: DataSourceRecord[] = [];
    const adopted: ConnectedSources['adopted'] = {};
    for (const connection of connections) {
      const check = connection.check;
      // `ok` only after a call with the credential succeeded; `pending` when no probe ran.
      const status = check === undefined ? undefined : check.ok ? { status: 'ok' as const } : { status: 'error' as const, message: check.reason };
      let record = await storeSource(trx, deps.box, project.id, connection.source, { propertyId: connection.propertyId, siteUrl: connection.siteUrl, credential: connection.credential, status, now });
      if (check?.ok && connection.source === 'analytics') {
        await setPropertySettings(trx, project.id, 'analytics', check);
        record = { ...record, timeZone: check.timeZone ?? null, currencyCode: check.currencyCode ?? null };
        if (check.timeZone && check.timeZone !== project.timezone) adopted.timezone = check.timeZone;
        if (check.currencyCode && check.currencyCode !== project.currency) adopted.currency = check.currencyCode;
        await updateProjectSettings(trx, project.id, adopted);
      }
      records.push(record);
    }
    for (const source of options.disconnect ?? []) await deleteSource(trx, project.id, source);
    if (options.flowId) await trx.deleteFrom('google_connect_flows').where('id', '=', options.flowId).execute();
    const detail = {
      sources: connections.map((c) => ({ source: c.source, target: c.propertyId ?? c.siteUrl, credentialKind: c.credential.kind, checked: c.check !== undefined, ...(c.check && !c.check.ok ? { status: 'error' } : {}) })),
      ...(options.disconnect?.length ? { disconnected: options.disconnect } : {}),
      ...(Object.keys(adopted).length ? { adopted } : {}),
    };
    return { result: { records, adopted }, audit: { action: 'source.connect', subject: project.key, projectId: project.id, detail } };
  });
}

/** Removes the connections (their credentials with them); 404 when none of them was connected. */
export async function disconnectSources(deps: WriteDeps, actor: Actor, project: ProjectRef, sources: readonly Source[], detail: Record<string, unknown> = {}): Promise<Source[]> {
  return audited(deps, actor, async (trx) => {
    await authorize(trx, actor, project, 'source.disconnect');
    const removed: Source[] = [];
    for (const source of sources) if (await deleteSource(trx, project.id, source)) removed.push(source);
    if (removed.length === 0) throw notFound(`${sources.join(' and ')} ${sources.length === 1 ? 'is' : 'are'} not connected to ${project.key}.`);
    return { result: removed, audit: { action: 'source.disconnect', subject: project.key, projectId: project.id, detail: { sources: removed, ...detail } } };
  });
}
