// Editing stored funnels from the dashboard: a new definition replaces the steps and bumps the version (results
// follow it at once: provider reports are cached by the steps they ran, never by the funnel key), renaming, and
// reading the version.
import type { Kysely } from 'kysely';
import { invalidParameter } from '../errors/app-error.ts';
import { validateFunnelSteps, type FunnelStep } from './funnels-repository.ts';
import { withDashboardColumns, type Database } from './schema.ts';

function assertName(input: string): string {
  const name = input.trim();
  if (!name || name.length > 100) throw invalidParameter('name', 'The funnel name must be 1–100 characters.');
  return name;
}

/** Replaces name and steps; returns the new version. */
export async function editFunnel(db: Kysely<Database>, funnelId: string, input: { name: string; steps: readonly FunnelStep[]; now: Date }): Promise<number> {
  const name = assertName(input.name);
  const steps = validateFunnelSteps(input.steps);
  await withDashboardColumns(db)
    .updateTable('funnels')
    .set((eb) => ({ name, steps: JSON.stringify(steps), version: eb('version', '+', 1), updated_at: input.now.toISOString() }))
    .where('id', '=', funnelId)
    .execute();
  return funnelVersion(db, funnelId);
}

/** Renaming keeps the version: the results do not change. */
export async function renameFunnel(db: Kysely<Database>, funnelId: string, input: { name: string; now: Date }): Promise<void> {
  await withDashboardColumns(db).updateTable('funnels').set({ name: assertName(input.name), updated_at: input.now.toISOString() }).where('id', '=', funnelId).execute();
}

export async function funnelVersion(db: Kysely<Database>, funnelId: string): Promise<number> {
  const row = await withDashboardColumns(db).selectFrom('funnels').select('version').where('id', '=', funnelId).executeTakeFirst();
  return Number(row?.version ?? 0);
}

/** The version of each funnel of a project, by funnel id. */
export async function funnelVersionsOf(db: Kysely<Database>, projectId: string): Promise<Map<string, number>> {
  const rows = await withDashboardColumns(db).selectFrom('funnels').select(['id', 'version']).where('project_id', '=', projectId).execute();
  return new Map(rows.map((r) => [r.id, Number(r.version)]));
}
