// Who holds which role on a project (account_projects.role), and who shares projects with whom (private teams:
// an account sees only the people it shares a project with).
import type { Kysely } from 'kysely';
import { isProjectRole, type ProjectRole } from '../domain/access-policy.ts';
import type { AccountRecord } from './accounts-repository.ts';
import type { Database } from './schema.ts';

export interface ProjectMember extends Pick<AccountRecord, 'id' | 'email' | 'name'> {
  role: ProjectRole;
}

/** The account's role on the project; undefined without access. */
export async function roleOnProject(db: Kysely<Database>, accountId: string, projectId: string): Promise<ProjectRole | undefined> {
  const row = await db.selectFrom('account_projects').select('role').where('account_id', '=', accountId).where('project_id', '=', projectId).executeTakeFirst();
  return row && isProjectRole(row.role) ? row.role : undefined;
}

/** Gives the account the role, with or without access before. */
export async function putProjectRole(db: Kysely<Database>, accountId: string, projectId: string, role: ProjectRole, now: Date): Promise<void> {
  await db
    .insertInto('account_projects')
    .values({ account_id: accountId, project_id: projectId, created_at: now.toISOString(), role })
    .onConflict((oc) => oc.columns(['account_id', 'project_id']).doUpdateSet({ role }))
    .execute();
}

/** Changes the role of an account that has access; false when it has none. */
export async function changeProjectRole(db: Kysely<Database>, accountId: string, projectId: string, role: ProjectRole): Promise<boolean> {
  const result = await db.updateTable('account_projects').set({ role }).where('account_id', '=', accountId).where('project_id', '=', projectId).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function countProjectAdmins(db: Kysely<Database>, projectId: string): Promise<number> {
  const row = await db
    .selectFrom('account_projects')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('project_id', '=', projectId)
    .where('role', '=', 'admin')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The accounts with access to a project and their roles, by email. */
export async function listProjectMembers(db: Kysely<Database>, projectId: string): Promise<ProjectMember[]> {
  const rows = await db
    .selectFrom('accounts')
    .innerJoin('account_projects', 'account_projects.account_id', 'accounts.id')
    .select(['accounts.id', 'accounts.email', 'accounts.name', 'account_projects.role'])
    .where('account_projects.project_id', '=', projectId)
    .orderBy('accounts.email_normalized')
    .execute();
  return rows.map((row) => ({ ...row, role: isProjectRole(row.role) ? row.role : 'viewer' }));
}

/** The account itself and everyone who holds a role on one of its projects, by email. */
export async function listTeammates(db: Kysely<Database>, accountId: string): Promise<AccountRecord[]> {
  const rows = await db
    .selectFrom('accounts')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('id', '=', accountId),
        eb(
          'id',
          'in',
          eb
            .selectFrom('account_projects as theirs')
            .innerJoin('account_projects as mine', 'mine.project_id', 'theirs.project_id')
            .select('theirs.account_id')
            .where('mine.account_id', '=', accountId),
        ),
      ]),
    )
    .orderBy('email_normalized')
    .execute();
  return rows.map((row) => ({ id: row.id, email: row.email, name: row.name, createdAt: row.created_at, hasPassword: row.password_hash !== null }));
}

/** Every project's admins (the owner's recovery list), by project id. */
export async function listAdminsByProject(db: Kysely<Database>): Promise<Map<string, Pick<AccountRecord, 'id' | 'email' | 'name'>[]>> {
  const rows = await db
    .selectFrom('account_projects')
    .innerJoin('accounts', 'accounts.id', 'account_projects.account_id')
    .select(['account_projects.project_id', 'accounts.id', 'accounts.email', 'accounts.name'])
    .where('account_projects.role', '=', 'admin')
    .orderBy('accounts.email_normalized')
    .execute();
  const byProject = new Map<string, Pick<AccountRecord, 'id' | 'email' | 'name'>[]>();
  for (const row of rows) byProject.set(row.project_id, [...(byProject.get(row.project_id) ?? []), { id: row.id, email: row.email, name: row.name }]);
  return byProject;
}
