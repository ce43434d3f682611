// The tables as kysely sees them. Portable column types only: text ids, ISO-8601 UTC timestamps as text
// (Date#toISOString, so they sort and compare lexicographically), JSON as text, integers for numbers.
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
}

export interface AccountProjectsTable {
  account_id: string;
  project_id: string;
  created_at: string;
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
}

export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  projects: ProjectsTable;
  data_sources: DataSourcesTable;
  account_projects: AccountProjectsTable;
  funnels: FunnelsTable;
  audit_log: AuditLogTable;
}
