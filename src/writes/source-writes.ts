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
import { grantsOfProject, releaseGoogleSubjects, rewriteGrantCredentials, saveGoogleGrant, type GoogleGrantInput, type GrantRelease } from '../store/google-grants-repository.ts';
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
  /** Google grants the project used before and nothing uses now (their tokens are for the caller to revoke). */
  released: GrantRelease[];
}

/** The Google account a dashboard connection came through (its newest refresh token is in the credential). */
export type GoogleGrantConnection = Omit<GoogleGrantInput, 'now'>;

const GOOGLE_SOURCES: readonly Source[] = ['analytics', 'engine1'];

/**
 * Stores the connections (and removes `disconnect`) together. A Google connection in progress (`flowId`) ends in the
 * same transaction, so a finished flow cannot be finished twice. With `googleGrant` the connections use the stored
 * grant of that Google account (created or given its newest token), and every other project on the same grant gets
 * the newest token too: Google keeps only an account's 100 newest, so no project is left on an invalidated one.
 */
export async function connectSources(
  deps: WriteDeps & { box: SecretBox },
  actor: Actor,
  project: ProjectRecord,
  connections: readonly SourceConnection[],
  options: { disconnect?: readonly Source[]; flowId?: string; googleGrant?: GoogleGrantConnection } = {},
): Promise<ConnectedSources> {
  return audited(deps, actor, async (trx) => {
    await authorize(trx, actor, project, 'source.connect');
    const now = deps.clock();
    const records: DataSourceRecord[] = [];
    const adopted: ConnectedSources['adopted'] = {};
    const before = await grantsOfProject(trx, project.id, GOOGLE_SOURCES);
    const grantId = options.googleGrant && (await saveGoogleGrant(trx, deps.box, { ...options.googleGrant, now }));
    for (const connection of connections) {
      const check = connection.check;
      // `ok` only after a call with the credential succeeded; `pending` when no probe ran.
      const status = check === undefined ? undefined : check.ok ? { status: 'ok' as const } : { status: 'error' as const, message: check.reason };
      let record = await storeSource(trx, deps.box, project.id, connection.source, { propertyId: connection.propertyId, siteUrl: connection.siteUrl, credential: connection.credential, status, now, googleGrantId: grantId });
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
    const shared = grantId ? await rewriteGrantCredentials(trx, deps.box, grantId, connections[0]!.credential) : 0;
    const released = await releaseGoogleSubjects(trx, deps.box, before.filter((id) => id !== grantId), now);
    const detail = {
      sources: connections.map((c) => ({ source: c.source, target: c.propertyId ?? c.siteUrl, credentialKind: c.credential.kind, checked: c.check !== undefined, ...(c.check && !c.check.ok ? { status: 'error' } : {}) })),
      ...(options.disconnect?.length ? { disconnected: options.disconnect } : {}),
      ...(Object.keys(adopted).length ? { adopted } : {}),
      ...(grantId ? { googleGrant: { grantId, sourcesOnGrant: shared } } : {}),
      ...(released.length ? { releasedGoogleGrants: released.map((r) => ({ grantId: r.grantId, revoke: r.revokeToken !== undefined })) } : {}),
    };
    return { result: { records, adopted, released }, audit: { action: 'source.connect', subject: project.key, projectId: project.id, detail } };
  });
}

/**
 * Removes the connections (their credentials with them); 404 when none of them was connected. Given a `box`, the
 * Google grants those sources used are released in the same transaction: a grant nothing else uses is deleted and
 * its token returned for the caller to revoke at Google; one other projects use is kept, and they are named.
 */
export async function disconnectSources(
  deps: WriteDeps & { box?: SecretBox },
  actor: Actor,
  project: ProjectRef,
  sources: readonly Source[],
  detail: Record<string, unknown> = {},
): Promise<{ removed: Source[]; released: GrantRelease[] }> {
  return audited(deps, actor, async (trx) => {
    await authorize(trx, actor, project, 'source.disconnect');
    const grants = deps.box ? await grantsOfProject(trx, project.id, sources) : [];
    const removed: Source[] = [];
    for (const source of sources) if (await deleteSource(trx, project.id, source)) removed.push(source);
    if (removed.length === 0) throw notFound(`${sources.join(' and ')} ${sources.length === 1 ? 'is' : 'are'} not connected to ${project.key}.`);
    const released = deps.box ? await releaseGoogleSubjects(trx, deps.box, grants, deps.clock()) : [];
    const releasedDetail = released.length ? { releasedGoogleGrants: released.map((r) => ({ grantId: r.grantId, revoke: r.revokeToken !== undefined, keptFor: r.keptFor.map((p) => p.key) })) } : {};
    return { result: { removed, released }, audit: { action: 'source.disconnect', subject: project.key, projectId: project.id, detail: { sources: removed, ...releasedDetail, ...detail } } };
  });
}
