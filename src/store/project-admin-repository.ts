// Editing and deleting projects (the dashboard's project settings; who may see them: project-roles-repository).
import type { Kysely } from 'kysely';
import { invalidParameter } from '../errors/app-error.ts';
import { parseCurrency, parseDomain, parseTimezone, type ProjectRecord } from './projects-repository.ts';
import type { Database } from './schema.ts';

export interface ProjectChanges {
  name: string;
  domain: string;
  timezone: string;
  currency: string;
}

/** Every field is validated before anything is written; the key never changes (API URLs and keys name it). */
export async function updateProject(db: Kysely<Database>, project: ProjectRecord, changes: ProjectChanges): Promise<ProjectRecord> {
  const name = changes.name.trim();
  if (!name || name.length > 100) throw invalidParameter('name', 'The project name must be 1–100 characters.');
  const next = { name, domain: parseDomain(changes.domain), timezone: parseTimezone(changes.timezone), currency: parseCurrency(changes.currency) };
  await db.updateTable('projects').set(next).where('id', '=', project.id).execute();
  return { ...project, ...next };
}

/** Deletes the project with its data-source credentials, funnels, invitations and access rows, all or nothing. */
export async function deleteProject(db: Kysely<Database>, projectId: string): Promise<void> {
  const run = async (trx: Kysely<Database>) => {
    await trx.deleteFrom('google_connect_flows').where('project_id', '=', projectId).execute();
    await trx.deleteFrom('data_sources').where('project_id', '=', projectId).execute();
    await trx.deleteFrom('funnels').where('project_id', '=', projectId).execute();
    await trx.deleteFrom('invites').where('project_id', '=', projectId).execute();
    await trx.deleteFrom('account_projects').where('project_id', '=', projectId).execute();
    await trx.deleteFrom('projects').where('id', '=', projectId).execute();
  };
  await (db.isTransaction ? run(db) : db.transaction().execute(run));
}
