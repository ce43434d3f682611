// Connecting a data source, for every caller (CLI, dashboard): normalise the property or site, probe it once,
// then refuse with the precise reason or store it (with the check's status, and for analytics the property's
// time zone and currency, which the project adopts so its days agree with the property's).
import type { Kysely } from 'kysely';
import { AppError, ERROR_STATUS, type ErrorCode } from '../errors/app-error.ts';
import type { Source } from '../domain/sources.ts';
import type { ProviderClients } from '../providers/provider-clients.ts';
import {
  connectSource,
  parsePropertyId,
  parseSiteUrl,
  setPropertySettings,
  setSourceStatus,
  type DataSourceRecord,
  type SourceCredential,
} from '../store/data-sources-repository.ts';
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
  /** false: store without probing. */
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

export async function connectDataSource(deps: ConnectDataSourceDeps, project: ProjectRecord, source: Source, input: ConnectDataSourceInput): Promise<ConnectedDataSource> {
  const propertyId = source === 'analytics' ? parsePropertyId(input.propertyId ?? '') : undefined;
  const siteUrl = source === 'analytics' ? undefined : parseSiteUrl(source, input.siteUrl ?? '');
  if (input.check && !deps.providers) throw new Error('connectDataSource: a connection check needs provider clients');
  const check = input.check && deps.providers ? await checkDataSourceConnection(deps.providers, { source, propertyId, siteUrl, secret: input.credential.secret }) : undefined;
  if (check && !check.ok && !input.force) throw refusal(source, check);
  let record = await connectSource(deps.db, deps.box, project.id, source, { propertyId, siteUrl, credential: input.credential });
  const adopted: ConnectedDataSource['adopted'] = {};
  if (check && !check.ok) {
    await setSourceStatus(deps.db, project.id, source, 'error', check.reason);
    record = { ...record, status: 'error', statusMessage: check.reason };
  } else if (check?.ok && source === 'analytics') {
    await setPropertySettings(deps.db, project.id, source, check);
    record = { ...record, timeZone: check.timeZone ?? null, currencyCode: check.currencyCode ?? null };
    if (check.timeZone && check.timeZone !== project.timezone) adopted.timezone = check.timeZone;
    if (check.currencyCode && check.currencyCode !== project.currency) adopted.currency = check.currencyCode;
    await updateProjectSettings(deps.db, project.id, adopted);
  }
  return { record, ...(check ? { check } : {}), adopted };
}

function refusal(source: Source, check: Extract<ConnectionCheck, { ok: false }>): AppError {
  const code = (check.code in ERROR_STATUS ? check.code : 'upstream_error') as ErrorCode;
  return new AppError(code, `${source} was not connected: ${check.reason}`, { provider: source });
}
