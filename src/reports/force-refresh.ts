// `force=1`: bypasses the cache for everyone on the project, so it spends the provider's quota. Editors and admins
// only (the role policy), then counted against the project's force limit.
import { allows } from '../domain/access-policy.ts';
import { roleRefusal } from '../domain/access-refusal.ts';
import type { ProjectRecord } from '../store/projects-repository.ts';
import type { ReportServices } from './report-deps.ts';

export async function spendForce(services: ReportServices, project: ProjectRecord): Promise<void> {
  const role = project.role ?? 'none';
  if (!allows('report.refresh', role)) throw roleRefusal('report.refresh', role, project.key, 'force');
  await services.shared.limits.consumeForce(project.key);
}
