// Connecting a data source, for every caller (CLI, dashboard, the demo's seeding): normalise the property or site,
// probe it once with the credential, then refuse with the precise reason or store it through the write service (which
// checks the caller may, and audits) with what the probe found — `ok` only after a call with that credential
// succeeded, `error` with the reason, `pending` when no probe ran — and for analytics the property's time zone and
// currency, which the project adopts so its days agree with the property's. Probing is a step of its own so a caller
// can probe several sources and store them in one write (writes/source-writes.ts `connectSources`).
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

export async function connectDataSource(deps: ConnectDataSourceDeps, actor: Actor, project: ProjectRecord, source: Source, input: ConnectDataSourceInput): Promise<ConnectedDataSource> {
  const probed = await probeConnection(deps.providers, source, input);
  if (probed.check && !probed.check.ok && !input.force) throw refusal(source, probed.check);
  const connected = await connectSources(deps, actor, project, [probed]);
  return { record: connected.records[0]!, ...(probed.check ? { check: probed.check } : {}), adopted: connected.adopted };
}

function refusal(source: Source, check: Extract<ConnectionCheck, { ok: false }>): AppError {
  const code = (check.code in ERROR_STATUS ? check.code : 'upstream_error') as ErrorCode;
  return new AppError(code, `${source} was not connected: ${check.reason}`, { provider: source });
}
