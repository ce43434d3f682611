// Connecting a data source, for every caller (CLI, dashboard): normalise the property or site, probe it once,
// then refuse with the precise reason or store it through the write service (which checks the caller may, and
// audits) with the check's status, and for analytics the property's time zone and currency, which the project
// adopts so its days agree with the property's.
import { AppError, ERROR_STATUS, type ErrorCode } from '../errors/app-error.ts';
import type { Source } from '../domain/sources.ts';
import type { ProviderClients } from '../providers/provider-clients.ts';
import { parsePropertyId, parseSiteUrl, type DataSourceRecord, type SourceCredential } from '../store/data-sources-repository.ts';
import type { ProjectRecord } from '../store/projects-repository.ts';
import type { SecretBox } from '../store/secret-box.ts';
import type { Actor } from '../writes/actor.ts';
import { connectSources } from '../writes/source-writes.ts';
import type { WriteDeps } from '../writes/write-deps.ts';
import { checkDataSourceConnection, type ConnectionCheck } from './check-connection.ts';

export interface ConnectDataSourceDeps extends WriteDeps {
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

export async function connectDataSource(deps: ConnectDataSourceDeps, actor: Actor, project: ProjectRecord, source: Source, input: ConnectDataSourceInput): Promise<ConnectedDataSource> {
  const propertyId = source === 'analytics' ? parsePropertyId(input.propertyId ?? '') : undefined;
  const siteUrl = source === 'analytics' ? undefined : parseSiteUrl(source, input.siteUrl ?? '');
  if (input.check && !deps.providers) throw new Error('connectDataSource: a connection check needs provider clients');
  const check = input.check && deps.providers ? await checkDataSourceConnection(deps.providers, { source, propertyId, siteUrl, secret: input.credential.secret }) : undefined;
  if (check && !check.ok && !input.force) throw refusal(source, check);
  const connected = await connectSources(deps, actor, project, [{ source, propertyId, siteUrl, credential: input.credential, ...(check ? { check } : {}) }]);
  return { record: connected.records[0]!, ...(check ? { check } : {}), adopted: connected.adopted };
}

function refusal(source: Source, check: Extract<ConnectionCheck, { ok: false }>): AppError {
  const code = (check.code in ERROR_STATUS ? check.code : 'upstream_error') as ErrorCode;
  return new AppError(code, `${source} was not connected: ${check.reason}`, { provider: source });
}
