// The tables as kysely sees them. Portable column types only: text ids, ISO-8601 UTC timestamps as text
// (Date#toISOString, so they sort and compare lexicographically), JSON as text, integers for numbers.
import type { ColumnType, Kysely } from 'kysely';

export interface AccountsTable {
  id: string;
  email: string;
  /** Lower-cased, trimmed email; carries the case-insensitive unique constraint. */
  email_normalized: string;
  name: string;
  password_hash: string | null;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  name: string;
  digest: string;
  prefix: string;
  last4: string;
  /** Space-separated scopes, e.g. `read raw`. */
  scopes: string;
  /** JSON array of project keys; null = every project the account can see. */
  project_keys: string | null;
  rate_limit_per_min: number | null;
  expires_at: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** On the new key: the id of the key it replaced. */
  rotated_from: string | null;
}

export interface ProjectsTable {
  id: string;
  key: string;
  name: string;
  domain: string;
  timezone: string;
  currency: string;
  created_at: string;
  /** A JSON array of strings; null: the brand terms are derived from the domain. */
  brand_terms: string | null;
}

export interface DataSourcesTable {
  project_id: string;
  source: string;
  property_id: string | null;
  site_url: string | null;
  credential_kind: string;
  credential_ciphertext: string;
  status: string;
  status_message: string | null;
  status_at: string;
  created_at: string;
  /** The analytics property's IANA time zone and ISO 4217 currency, as the provider last reported them. */
  time_zone: string | null;
  currency_code: string | null;
  /** The stored Google grant whose refresh token this source's credential carries (null: its own token). */
  google_grant_id: string | null;
}

/** One Google account's grant to one OAuth client (see migrations/0008-google-grants.ts). */
export interface GoogleGrantsTable {
  id: string;
  client_id: string;
  /** Google's stable account id (`sub`). */
  subject: string;
  email: string | null;
  /** Space-separated scopes Google reported for the newest token. */
  scopes: string;
  /** The newest refresh token, sealed. */
  token_ciphertext: string;
  created_at: string;
  updated_at: string;
}

export interface AccountProjectsTable {
  account_id: string;
  project_id: string;
  created_at: string;
  /** `viewer`, `editor` or `admin` (src/domain/access-policy.ts); the database's default is the least, viewer. */
  role: ColumnType<string, string | undefined, string>;
}

export interface FunnelsTable {
  id: string;
  key: string;
  project_id: string;
  name: string;
  /** JSON array of FunnelStep. */
  steps: string;
  created_at: string;
  created_via: string;
  created_by_account: string | null;
  confirmation_id: string | null;
}

export interface AuditLogTable {
  /** Time-ordered: sorts like `at`, then by insertion within this process. */
  id: string;
  at: string;
  account_id: string | null;
  action: string;
  subject: string;
  detail: string | null;
  /** The project the entry belongs to (its admins read it on the dashboard); null for other entries. */
  project_id: string | null;
}

export interface OAuthClientsTable {
  /** The client_id. */
  id: string;
  /** SHA-256 hex of the client secret; null for public clients (`token_endpoint_auth_method: none`). */
  secret_digest: string | null;
  name: string;
  /** JSON array of registered redirect URIs. */
  redirect_uris: string;
  /** Space-separated. */
  grant_types: string;
  token_endpoint_auth_method: string;
  scope: string | null;
  /** JSON object: the other registered metadata, echoed back (client_uri, logo_uri, software_id, …). */
  metadata: string;
  created_at: string;
  /** Last authorization or token request; clients never used expire (see oauth-clients-repository). */
  last_used_at: string | null;
}

export interface OAuthGrantsTable {
  id: string;
  account_id: string;
  client_id: string;
  /** Space-separated granted scopes (may include offline_access). */
  scope: string;
  /** The RFC 8707 resource the tokens are bound to (their audience). */
  resource: string;
  /** JSON array of project keys the user allowed; null = every project of the account. */
  project_keys: string | null;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  revoked_reason: string | null;
}

export interface OAuthCodesTable {
  /** SHA-256 hex of the code. */
  digest: string;
  client_id: string;
  account_id: string;
  redirect_uri: string;
  /** PKCE S256 challenge (base64url SHA-256 of the verifier). */
  code_challenge: string;
  scope: string;
  resource: string;
  project_keys: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** The grant the code was exchanged for; revoked if the code is presented again. */
  grant_id: string | null;
}

export interface OAuthRefreshTokensTable {
  /** SHA-256 hex of the refresh token. */
  digest: string;
  grant_id: string;
  created_at: string;
  expires_at: string;
  /** Set when rotated; presenting it again revokes the whole grant (reuse detection). */
  used_at: string | null;
}

export interface AccountSessionsTable {
  /** SHA-256 hex of the session cookie value. */
  digest: string;
  account_id: string;
  created_at: string;
  expires_at: string;
}

/**
 * Columns added by the dashboard migration that the older repositories neither write nor read (the database fills
 * in their defaults): only the dashboard's repositories see them, through `withDashboardColumns`.
 */
export interface DashboardColumns {
  accounts: AccountsTable & {
    /** `owner` (may invite teammates) or `member`. */
    role: string;
  };
  funnels: FunnelsTable & {
    /** Bumped by every edit of the steps (results follow the newest definition). */
    version: number;
    updated_at: string | null;
  };
}

export type DashboardDatabase = Omit<Database, keyof DashboardColumns> & DashboardColumns;

export interface InvitesTable {
  /** SHA-256 hex of the invitation token (the link holds the token). */
  digest: string;
  email: string;
  /** Lower-cased, trimmed email: how an account finds the invitations addressed to it. */
  email_normalized: string | null;
  /** Set for an invitation to a project (sharing); null for an invitation to the installation only. */
  project_id: string | null;
  /** The project role accepting gives (with project_id). */
  role: string | null;
  created_by: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface GoogleConnectFlowsTable {
  id: string;
  /** SHA-256 hex of the OAuth `state`. */
  state_digest: string;
  /** The browser session that started the flow: the callback must come back in it. */
  session_digest: string;
  account_id: string;
  project_id: string;
  /** PKCE code verifier, sealed. */
  verifier_ciphertext: string;
  /** After consent: the token set (refresh token), sealed, until a property and site are picked. */
  token_ciphertext: string | null;
  created_at: string;
  expires_at: string;
  /** After consent: the Google account (`sub`) whose tokens the flow holds. */
  google_subject: string | null;
}

export interface SetupCodesTable {
  /** SHA-256 hex of a first-run setup code (the server log holds the code). */
  digest: string;
  created_at: string;
}

export interface SubscriptionsTable {
  id: string;
  project_id: string;
  /** `report` or `alert` (src/domain/subscriptions.ts). */
  kind: string;
  name: string;
  /** Reports: `daily`, `weekly` or `monthly`, at `hour` local time of the project's zone. */
  cadence: string | null;
  hour: number | null;
  /** Alerts: the metric, `anomaly` or `change`, and for a change its threshold and baseline. */
  metric: string | null;
  condition: string | null;
  threshold_percent: number | null;
  baseline: string | null;
  created_by: string | null;
  created_at: string;
}

export interface DeliveryRecipientsTable {
  id: string;
  subscription_id: string;
  email: string;
  email_normalized: string;
  /** SHA-256 hex of the confirmation and unsubscribe tokens (the links hold the tokens). */
  confirm_digest: string;
  unsubscribe_digest: string;
  confirmed_at: string | null;
  unsubscribed_at: string | null;
  created_at: string;
}

export interface DeliveryWebhooksTable {
  id: string;
  subscription_id: string;
  url: string;
  /** `json` or `slack`. */
  format: string;
  /** The signing secret, sealed by the secret box (shown once, at creation). */
  secret_ciphertext: string;
  created_at: string;
}

export interface DeliveryJobsTable {
  id: string;
  /** `<subscription id>:<period key>`: unique, so every instance agrees on the one job per period. */
  idempotency_key: string;
  subscription_id: string;
  period_key: string;
  /** `pending`, `running` (leased), `sent` or `dead`. */
  state: string;
  attempts: ColumnType<number, number | undefined, number>;
  run_after: string;
  lease_owner: string | null;
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface DeliverySendsTable {
  job_id: string;
  /** `email:<recipient id>` or `webhook:<webhook id>`. */
  target: string;
  /** The job attempt that sent it. */
  attempt: number;
  sent_at: string;
}

export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  projects: ProjectsTable;
  data_sources: DataSourcesTable;
  account_projects: AccountProjectsTable;
  funnels: FunnelsTable;
  audit_log: AuditLogTable;
  oauth_clients: OAuthClientsTable;
  oauth_grants: OAuthGrantsTable;
  oauth_codes: OAuthCodesTable;
  oauth_refresh_tokens: OAuthRefreshTokensTable;
  account_sessions: AccountSessionsTable;
  invites: InvitesTable;
  google_connect_flows: GoogleConnectFlowsTable;
  google_grants: GoogleGrantsTable;
  setup_codes: SetupCodesTable;
  subscriptions: SubscriptionsTable;
  delivery_recipients: DeliveryRecipientsTable;
  delivery_webhooks: DeliveryWebhooksTable;
  delivery_jobs: DeliveryJobsTable;
  delivery_sends: DeliverySendsTable;
}

/** The same connection, typed with the dashboard's extra columns. */
export function withDashboardColumns(db: Kysely<Database>): Kysely<DashboardDatabase> {
  return db as unknown as Kysely<DashboardDatabase>;
}
