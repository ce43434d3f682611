// `force=1`: bypasses the cache for everyone on the project, so it spends the provider's quota. Editors and admins
// only (the role policy), then counted against the project's force limit — once per project per execution, so a
// page or query that refreshes many figures in one request spends one refresh, not one per figure.
import { allows } from '../domain/access-policy.ts';
import { roleRefusal } from '../domain/access-refusal.ts';
import type { ProjectRecord } from '../store/projects-repository.ts';
import type { ReportServices } from './report-deps.ts';

const spentByExecution = new WeakMap<object, Map<string, Promise<unknown>>>();

/** `execution` is the per-execution context (fresh for every request), so a refresh is counted once within it. */
export async function spendForce(services: ReportServices, project: ProjectRecord, execution: object = {}): Promise<void> {
  const role = project.role ?? 'none';
  if (!allows('report.refresh', role)) throw roleRefusal('report.refresh', role, project.key, 'force');
  let spent = spentByExecution.get(execution);
  if (!spent) spentByExecution.set(execution, (spent = new Map()));
  let charge = spent.get(project.key);
  if (!charge) spent.set(project.key, (charge = services.shared.limits.consumeForce(project.key)));
  await charge;
}
