// A project's connections to analytics / engine1 / engine2: the property or site, the encrypted credential,
// and the status of the last upstream outcome. Credentials are sealed with AAD naming their row.
import { createHash } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { invalidParameter } from '../errors/app-error.ts';
import { normaliseSiteUrl } from '../domain/site-url.ts';
import type { Source } from '../domain/sources.ts';
import type { DataSourcesTable, Database } from './schema.ts';
import type { SecretBox } from './secret-box.ts';

export const CREDENTIAL_KINDS = ['service_account', 'oauth_refresh_token', 'api_key'] as const;
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];
/**
 * `pending`: connected, but no call with its credential has succeeded yet (stored without a probe); `ok` after one
 * did; `error` after the provider refused it (the message says why).
 */
export type SourceStatus = 'ok' | 'error' | 'pending' | 'not_connected';

/** Which credential kinds each provider accepts. */
export const KINDS_BY_SOURCE: Record<Source, readonly CredentialKind[]> = {
  analytics: ['service_account', 'oauth_refresh_token'],
  engine1: ['service_account', 'oauth_refresh_token'],
  engine2: ['api_key'],
};

export interface DataSourceRecord {
  projectId: string;
  source: Source;
  propertyId: string | null;
  siteUrl: string | null;
  credentialKind: CredentialKind;
  status: SourceStatus;
  statusMessage: string | null;
  statusAt: string;
  createdAt: string;
  /**
   * Changes whenever the credential is replaced (a digest of its ciphertext, never of the secret): cache keys
   * use it so entries loaded with an old credential are not served after a reconnect.
   */
  credentialVersion: string;
  /** Analytics: the property's own time zone and currency (null until first read). */
  timeZone: string | null;
  currencyCode: string | null;
}

export interface SourceCredential {
  kind: CredentialKind;
  /** The credential as given: service-account JSON, OAuth client JSON with refresh_token, or the API key. */
  secret: string;
}

export interface ConnectSourceInput {
  propertyId?: string | undefined;
  siteUrl?: string | undefined;
  credential: SourceCredential;
  /** What a probe with this credential found; without one the source is `pending` until a call succeeds. */
  status?: { status: Exclude<SourceStatus, 'not_connected'>; message?: string | null };
  now?: Date;
  /** The stored Google grant whose refresh token the credential carries (google-grants-repository.ts). */
  googleGrantId?: string | undefined;
}

function toDataSource(row: Selectable<DataSourcesTable>): DataSourceRecord {
  return {
    projectId: row.project_id,
    source: row.source as Source,
    propertyId: row.property_id,
    siteUrl: row.site_url,
    credentialKind: row.credential_kind as CredentialKind,
    status: row.status as SourceStatus,
    statusMessage: row.status_message,
    statusAt: row.status_at,
    createdAt: row.created_at,
    credentialVersion: createHash('sha256').update(row.credential_ciphertext).digest('base64url').slice(0, 16),
    timeZone: row.time_zone ?? null,
    currencyCode: row.currency_code ?? null,
  };
}

function aadOf(projectId: string, source: Source, kind: CredentialKind): string {
  return `siteline:data_source:${projectId}:${source}:${kind}`;
}

export function parsePropertyId(input: string): string {
  const id = input.trim().replace(/^properties\//, '');
  if (!/^\d{1,20}$/.test(id)) throw invalidParameter('propertyId', `'${input}' is not a property id (digits, e.g. 123456789).`);
  return id;
}

/** engine1 accepts URL-prefix properties (`https://example.com/`) and domain properties (`sc-domain:example.com`). */
export function parseSiteUrl(source: Source, input: string): string {
  return normaliseSiteUrl(source === 'engine2' ? 'engine2' : 'engine1', input);
}

function assertCredentialFor(source: Source, credential: SourceCredential): void {
  if (!KINDS_BY_SOURCE[source].includes(credential.kind)) {
    throw invalidParameter('credential', `${source} does not accept a ${credential.kind} credential (use ${KINDS_BY_SOURCE[source].join(' or ')}).`);
  }
}

/** Seals a credential for its row (the AAD names project, source and kind). */
export function sealSourceCredential(box: SecretBox, projectId: string, source: Source, credential: SourceCredential): string {
  return box.seal(credential.secret, aadOf(projectId, source, credential.kind));
}

/** Connects (or reconnects, replacing property and credential) a data source; status starts as `pending` unless given. */
export async function connectSource(
  db: Kysely<Database>,
  box: SecretBox,
  projectId: string,
  source: Source,
  input: ConnectSourceInput,
): Promise<DataSourceRecord> {
  assertCredentialFor(source, input.credential);
  const propertyId = source === 'analytics' ? parsePropertyId(input.propertyId ?? '') : null;
  const siteUrl = source === 'analytics' ? null : parseSiteUrl(source, input.siteUrl ?? '');
  const now = (input.now ?? new Date()).toISOString();
  const status = input.status?.status ?? 'pending';
  const statusMessage = input.status?.message ?? null;
  const row = {
    project_id: projectId,
    source,
    property_id: propertyId,
    site_url: siteUrl,
    credential_kind: input.credential.kind,
    credential_ciphertext: box.seal(input.credential.secret, aadOf(projectId, source, input.credential.kind)),
    status,
    status_message: statusMessage,
    status_at: now,
    created_at: now,
    // Only a dashboard Google connection names a stored grant; any other (re)connect carries its own credential.
    google_grant_id: input.googleGrantId ?? null,
  };
  await db
    .insertInto('data_sources')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['project_id', 'source']).doUpdateSet({
        property_id: propertyId,
        site_url: siteUrl,
        credential_kind: row.credential_kind,
        credential_ciphertext: row.credential_ciphertext,
        status,
        status_message: statusMessage,
        status_at: now,
        google_grant_id: row.google_grant_id,
        // Another property may have another zone: read again by the connection check or the next report.
        time_zone: null,
        currency_code: null,
      }),
    )
    .execute();
  const stored = await db.selectFrom('data_sources').selectAll().where('project_id', '=', projectId).where('source', '=', source).executeTakeFirstOrThrow();
  return toDataSource(stored);
}

/** True when a connection existed and was removed (the credential is deleted with it). */
export async function disconnectSource(db: Kysely<Database>, projectId: string, source: Source): Promise<boolean> {
  const result = await db.deleteFrom('data_sources').where('project_id', '=', projectId).where('source', '=', source).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Records the last upstream outcome, e.g. `error` with the provider's reason after a rejected credential. */
export async function setSourceStatus(
  db: Kysely<Database>,
  projectId: string,
  source: Source,
  status: Exclude<SourceStatus, 'not_connected'>,
  message: string | null = null,
  now = new Date(),
): Promise<boolean> {
  const result = await db
    .updateTable('data_sources')
    .set({ status, status_message: message, status_at: now.toISOString() })
    .where('project_id', '=', projectId)
    .where('source', '=', source)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Stores what the analytics property reports as its time zone and currency (on connect and when they change). */
export async function setPropertySettings(
  db: Kysely<Database>,
  projectId: string,
  source: Source,
  settings: { timeZone?: string | undefined; currencyCode?: string | undefined },
): Promise<void> {
  const values = {
    ...(settings.timeZone ? { time_zone: settings.timeZone } : {}),
    ...(settings.currencyCode ? { currency_code: settings.currencyCode } : {}),
  };
  if (Object.keys(values).length === 0) return;
  await db.updateTable('data_sources').set(values).where('project_id', '=', projectId).where('source', '=', source).execute();
}

/** Connected sources only; a source without a row is `not_connected`. */
export async function listSources(db: Kysely<Database>, projectId: string): Promise<DataSourceRecord[]> {
  return listSourcesForProjects(db, [projectId]);
}

export async function listSourcesForProjects(db: Kysely<Database>, projectIds: readonly string[]): Promise<DataSourceRecord[]> {
  if (projectIds.length === 0) return [];
  const rows = await db
    .selectFrom('data_sources')
    .selectAll()
    .where('project_id', 'in', [...projectIds])
    .orderBy('project_id')
    .orderBy('source')
    .execute();
  return rows.map(toDataSource);
}

/** The decrypted credential for provider clients; throws SecretBoxError if the row was tampered with. */
export async function readSourceCredential(
  db: Kysely<Database>,
  box: SecretBox,
  projectId: string,
  source: Source,
): Promise<SourceCredential | undefined> {
  const row = await db
    .selectFrom('data_sources')
    .select(['credential_kind', 'credential_ciphertext'])
    .where('project_id', '=', projectId)
    .where('source', '=', source)
    .executeTakeFirst();
  if (!row) return undefined;
  const kind = row.credential_kind as CredentialKind;
  return { kind, secret: box.open(row.credential_ciphertext, aadOf(projectId, source, kind)) };
}
