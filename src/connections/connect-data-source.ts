// Connecting a data source, for every caller (CLI, dashboard, the demo's seeding): normalise the property or site,
// probe it once with the credential, then refuse with the precise reason or store it with what the probe found —
// `ok` only after a call with that credential succeeded, `error` with the reason, `pending` when no probe ran —
// and for analytics the property's time zone and currency, which the project adopts so its days agree with the
// property's. Probing and storing are separate steps so a caller can store several probed sources in one transaction.
import type { Kysely } from 'kysely';
import { AppError, ERROR_STATUS, type ErrorCode } from '../errors/app-error.ts';
import type { Source } from '../domain/sources.ts';
import type { ProviderClients } from '../providers/provider-clients.ts';
import { connectSource, parsePropertyId, parseSiteUrl, setPropertySettings, type DataSourceRecord, type SourceCredential } from '../store/data-sources-repository.ts';
import { updateProjectSettings, type ProjectRecord } from '../store/projects-repository.ts';
import type { Database } from '../store/schema.ts';
import type { SecretBox } from '../store/secret-box.ts';
import { checkDataSourceConnection, type ConnectionCheck } from './check-connection.ts';

export interface ConnectDataSourceDeps {
  db: Kysely<Database>;
  box: SecretBox;
  /** Needed unless the probe is skipped. */
  providers?: ProviderClients;
}

export interface ConnectDataSourceInput {
  propertyId?: string | undefined;
  siteUrl?: string | undefined;
  credential: SourceCredential;
  /** false: store without probing (the source stays `pending` until a call with it succeeds). */
  check: boolean;
  /** Store even when the probe fails, with status `error` and the reason. */
  force: boolean;
}

export interface ConnectedDataSource {
  record: DataSourceRecord;
  check?: ConnectionCheck;
  /** What the project adopted from its analytics property. */
  adopted: { timezone?: string; currency?: string };
}

/** A normalised connection and what probing it found (no `check` when it was not probed). */
export interface ProbedConnection {
  source: Source;
  propertyId?: string;
  siteUrl?: string;
  credential: SourceCredential;
  check?: ConnectionCheck;
}

export async function probeConnection(providers: ProviderClients | undefined, source: Source, input: Omit<ConnectDataSourceInput, 'force'>): Promise<ProbedConnection> {
  const target = source === 'analytics' ? { propertyId: parsePropertyId(input.propertyId ?? '') } : { siteUrl: parseSiteUrl(source, input.siteUrl ?? '') };
  if (input.check && !providers) throw new Error('probeConnection: a connection check needs provider clients');
  const check = input.check && providers ? await checkDataSourceConnection(providers, { source, ...target, secret: input.credential.secret }) : undefined;
  return { source, ...target, credential: input.credential, ...(check ? { check } : {}) };
}

/** Stores a probed connection (`db` may be a transaction); the project adopts its analytics property's settings. */
export async function storeConnection(db: Kysely<Database>, box: SecretBox, project: ProjectRecord, probed: ProbedConnection, now?: Date): Promise<ConnectedDataSource> {
  const { source, check } = probed;
  const status = check === undefined ? undefined : check.ok ? { status: 'ok' as const } : { status: 'error' as const, message: check.reason };
  let record = await connectSource(db, box, project.id, source, { propertyId: probed.propertyId, siteUrl: probed.siteUrl, credential: probed.credential, status, now });
  const adopted: ConnectedDataSource['adopted'] = {};
  if (check?.ok && source === 'analytics') {
    await setPropertySettings(db, project.id, source, check);
    record = { ...record, timeZone: check.timeZone ?? null, currencyCode: check.currencyCode ?? null };
    if (check.timeZone && check.timeZone !== project.timezone) adopted.timezone = check.timeZone;
    if (check.currencyCode && check.currencyCode !== project.currency) adopted.currency = check.currencyCode;
    await updateProjectSettings(db, project.id, adopted);
  }
  return { record, ...(check ? { check } : {}), adopted };
}

export async function connectDataSource(deps: ConnectDataSourceDeps, project: ProjectRecord, source: Source, input: ConnectDataSourceInput): Promise<ConnectedDataSource> {
  const probed = await probeConnection(deps.providers, source, input);
  if (probed.check && !probed.check.ok && !input.force) throw refusal(source, probed.check);
  return storeConnection(deps.db, deps.box, project, probed);
}

function refusal(source: Source, check: Extract<ConnectionCheck, { ok: false }>): AppError {
  const code = (check.code in ERROR_STATUS ? check.code : 'upstream_error') as ErrorCode;
  return new AppError(code, `${source} was not connected: ${check.reason}`, { provider: source });
}
