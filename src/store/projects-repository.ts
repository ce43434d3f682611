// Projects (a site: key, name, domain, time zone, currency) and which accounts may see them.
import type { Kysely, Selectable } from 'kysely';
import type { ProjectRole } from '../domain/access-policy.ts';
import { invalidParameter } from '../errors/app-error.ts';
import { isUniqueViolation } from './db-errors.ts';
import { newId } from './ids.ts';
import type { Database, ProjectsTable } from './schema.ts';
import { assertSlug } from './slugs.ts';

export interface ProjectRecord {
  id: string;
  key: string;
  name: string;
  domain: string;
  timezone: string;
  currency: string;
  createdAt: string;
  /** The words that make a search query a brand query; null: derived from the domain (`defaultBrandTerms`). */
  brandTerms?: string[] | null;
  /** The role of the account the project was listed for (`listProjectsForAccount`). */
  role?: ProjectRole;
}

export interface NewProject {
  key: string;
  name: string;
  domain: string;
  timezone?: string | undefined;
  currency?: string | undefined;
  now?: Date;
}

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

const MAX_BRAND_TERMS = 50;
const MAX_BRAND_TERM_LENGTH = 100;

function toProject(row: Selectable<ProjectsTable>): ProjectRecord {
  const { created_at: createdAt, brand_terms: brandTerms, ...rest } = row;
  return { ...rest, createdAt, brandTerms: readBrandTerms(brandTerms) };
}

/** A stored value that is not a JSON list of strings (edited by hand) reads as the default rather than failing every report. */
function readBrandTerms(text: string | null): string[] | null {
  if (text === null) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) && parsed.every((t) => typeof t === 'string') ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * Brand terms as stored: trimmed, lower-case, inner whitespace collapsed, duplicates and blanks dropped, in the
 * order given. An empty list is kept (the site has no brand queries); null restores the default.
 */
export function parseBrandTerms(input: readonly string[]): string[] {
  const terms = [...new Set(input.map((t) => t.trim().toLowerCase().replace(/\s+/g, ' ')).filter((t) => t !== ''))];
  const tooLong = terms.find((t) => t.length > MAX_BRAND_TERM_LENGTH);
  if (tooLong !== undefined) throw invalidParameter('brandTerms', `The brand term '${tooLong.slice(0, 40)}…' is longer than ${MAX_BRAND_TERM_LENGTH} characters.`);
  if (terms.length > MAX_BRAND_TERMS) throw invalidParameter('brandTerms', `At most ${MAX_BRAND_TERMS} brand terms per project (got ${terms.length}).`);
  return terms;
}

/** A bare host name; a pasted URL (`https://Example.com/`) is reduced to its host. */
export function parseDomain(input: string): string {
  let host = input.trim().toLowerCase();
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(host)) {
    try {
      host = new URL(host).hostname;
    } catch {
      // falls through to the check below, which quotes the input
    }
  }
  if (!HOSTNAME.test(host)) throw invalidParameter('domain', `'${input}' is not a domain name (e.g. example.com).`);
  return host;
}

export function parseTimezone(input: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: input }).resolvedOptions().timeZone;
  } catch {
    throw invalidParameter('timezone', `'${input}' is not an IANA time zone (e.g. Europe/Berlin or UTC).`);
  }
}

export function parseCurrency(input: string): string {
  const code = input.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) throw invalidParameter('currency', `'${input}' is not an ISO 4217 currency code (e.g. USD).`);
  return code;
}

export async function createProject(db: Kysely<Database>, input: NewProject): Promise<ProjectRecord> {
  const name = input.name.trim();
  if (!name) throw invalidParameter('name', 'The project name must not be empty.');
  const row = {
    id: newId('prj'),
    key: assertSlug('key', input.key),
    name,
    domain: parseDomain(input.domain),
    timezone: parseTimezone(input.timezone ?? 'UTC'),
    currency: parseCurrency(input.currency ?? 'USD'),
    created_at: (input.now ?? new Date()).toISOString(),
    brand_terms: null,
  };
  try {
    await db.insertInto('projects').values(row).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw invalidParameter('key', `A project with the key '${row.key}' already exists.`);
    throw error;
  }
  return toProject(row);
}

/** The project's time zone and currency (e.g. set to its analytics property's when that is connected). */
export async function updateProjectSettings(db: Kysely<Database>, projectId: string, settings: { timezone?: string; currency?: string }): Promise<void> {
  const values = {
    ...(settings.timezone ? { timezone: parseTimezone(settings.timezone) } : {}),
    ...(settings.currency ? { currency: parseCurrency(settings.currency) } : {}),
  };
  if (Object.keys(values).length > 0) await db.updateTable('projects').set(values).where('id', '=', projectId).execute();
}

/** Sets the project's brand terms (normalised by `parseBrandTerms`), or with null goes back to the domain's default. */
export async function updateProjectBrandTerms(db: Kysely<Database>, projectId: string, terms: readonly string[] | null): Promise<string[] | null> {
  const stored = terms === null ? null : parseBrandTerms(terms);
  await db.updateTable('projects').set({ brand_terms: stored === null ? null : JSON.stringify(stored) }).where('id', '=', projectId).execute();
  return stored;
}

export async function getProjectByKey(db: Kysely<Database>, key: string): Promise<ProjectRecord | undefined> {
  const row = await db.selectFrom('projects').selectAll().where('key', '=', key).executeTakeFirst();
  return row && toProject(row);
}

/** Sorted by key; unknown keys are simply absent (for batching loaders). */
export async function getProjectsByKeys(db: Kysely<Database>, keys: readonly string[]): Promise<ProjectRecord[]> {
  if (keys.length === 0) return [];
  const rows = await db.selectFrom('projects').selectAll().where('key', 'in', [...keys]).orderBy('key').execute();
  return rows.map(toProject);
}

export async function listProjects(db: Kysely<Database>): Promise<ProjectRecord[]> {
  return (await db.selectFrom('projects').selectAll().orderBy('key').execute()).map(toProject);
}

/** The projects the account has access rows for, sorted by key, each with the account's role on it. */
export async function listProjectsForAccount(db: Kysely<Database>, accountId: string): Promise<ProjectRecord[]> {
  const rows = await db
    .selectFrom('projects')
    .innerJoin('account_projects', 'account_projects.project_id', 'projects.id')
    .selectAll('projects')
    .select('account_projects.role as role')
    .where('account_projects.account_id', '=', accountId)
    .orderBy('projects.key')
    .execute();
  return rows.map(({ role, ...row }) => ({ ...toProject(row), role: role as ProjectRole }));
}

export async function accountMaySeeProject(db: Kysely<Database>, accountId: string, projectId: string): Promise<boolean> {
  const row = await db
    .selectFrom('account_projects')
    .select('project_id')
    .where('account_id', '=', accountId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Idempotent: granting twice leaves one access row, with the role it had. Without a role the access is admin (what
 * access meant before roles: the demo's and the tests' accounts); the write service always names the role.
 */
export async function grantProjectAccess(db: Kysely<Database>, accountId: string, projectId: string, now = new Date(), role: ProjectRole = 'admin'): Promise<void> {
  await db
    .insertInto('account_projects')
    .values({ account_id: accountId, project_id: projectId, created_at: now.toISOString(), role })
    .onConflict((oc) => oc.columns(['account_id', 'project_id']).doNothing())
    .execute();
}

export async function revokeProjectAccess(db: Kysely<Database>, accountId: string, projectId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('account_projects')
    .where('account_id', '=', accountId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
