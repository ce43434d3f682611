// Funnel results: users per stored step from one v1alpha runFunnelReport call (closed funnel),
// with conversion from step 1 and the drop-off from the previous step computed here from users, not taken from
// the provider's forward-looking rates.
import type { PeriodJson } from '../domain/period.ts';
import { notFound } from '../errors/app-error.ts';
import type { ReportDeps } from './report-deps.ts';
import { requireSource } from './project-lookup.ts';
import { buildMeta, type Meta } from './meta.ts';
import { analyticsReportPolicy } from '../cache/upstream-policy.ts';
import type { FunnelReport } from '../providers/analytics/normalize-funnel.ts';
import { getFunnelByKey, type FunnelRecord, type FunnelStep } from '../store/funnels-repository.ts';
import { resolveReportScope } from './report-context.ts';
import { toFunnelSteps } from './funnel-steps.ts';

export interface FunnelResultsArgs {
  funnel: string;
  period?: string | null;
  force?: string | null;
}

export interface FunnelStepResult {
  name: string;
  users: number;
  /** users / users of step 1 (0 when step 1 has none). */
  conversionRate: number;
  /** Users lost since the previous step (0 for step 1). */
  dropOff: number;
  /** dropOff / users of the previous step. */
  dropOffRate: number;
}

export interface FunnelResults {
  project: string;
  period: PeriodJson;
  funnel: { key: string; name: string };
  steps: FunnelStepResult[];
  /** users of the last step / users of step 1. */
  completionRate: number;
  meta: Meta;
}

/** A funnel of a project the caller may read; anything else is the same 404. */
export async function requireVisibleFunnel(ctx: ReportDeps, key: string): Promise<{ funnel: FunnelRecord; projectKey: string }> {
  const funnel = await ctx.services.storeMemo.read(`funnel:${key}`, () => getFunnelByKey(ctx.services.db, key));
  const project = funnel ? (await ctx.store.visibleProjects()).find((p) => p.id === funnel.projectId) : undefined;
  if (!funnel || !project) throw notFound(`No funnel '${key}' is visible to you.`);
  return { funnel, projectKey: project.key };
}

export async function funnelResults(ctx: ReportDeps, args: FunnelResultsArgs): Promise<FunnelResults> {
  const { funnel, projectKey } = await requireVisibleFunnel(ctx, args.funnel);
  const run = await runFunnelSteps(ctx, { project: projectKey, steps: funnel.steps, period: args.period, force: args.force });
  return { ...run, funnel: { key: funnel.key, name: funnel.name } };
}

export interface FunnelRun {
  project: string;
  period: PeriodJson;
  steps: FunnelStepResult[];
  completionRate: number;
  meta: Meta;
}

/** Users per step of `steps` (stored or a draft) for a project: one closed-funnel provider report. */
export async function runFunnelSteps(
  ctx: ReportDeps,
  args: { project: string; steps: readonly FunnelStep[]; period?: string | null; force?: string | null },
): Promise<FunnelRun> {
  const scope = await resolveReportScope(ctx, { project: args.project, period: args.period, force: args.force, compare: 'none' }, 'none', 'analytics');
  const source = await requireSource(ctx, scope.project, 'analytics');
  const request = {
    dateRanges: [{ startDate: scope.period.start, endDate: scope.period.end }],
    funnel: { isOpenFunnel: false, steps: toFunnelSteps(args.steps) },
    funnelVisualizationType: 'STANDARD_FUNNEL' as const,
  };
  const result = await ctx.loaders.analytics.funnel(source, request, analyticsReportPolicy(scope.period.end, scope.timezone, scope.now), scope.force);
  const steps = toStepResults({ steps: args.steps }, result.value);
  const first = steps[0]?.users ?? 0;
  return {
    project: scope.project.key,
    period: scope.periodJson,
    steps,
    completionRate: ratio(steps.at(-1)?.users ?? 0, first),
    meta: buildMeta({ results: [result], sources: ['analytics'], warnings: [...scope.warnings, ...result.value.warnings], now: scope.now }),
  };
}

/** Step N of the report is stored step N; a step the provider left out (no users) counts 0. */
export function toStepResults(funnel: { steps: readonly FunnelStep[] }, report: FunnelReport): FunnelStepResult[] {
  const usersByStep = new Map(report.steps.map((s) => [s.step, s.activeUsers]));
  const users = funnel.steps.map((_, i) => usersByStep.get(i + 1) ?? 0);
  return funnel.steps.map((step, i) => {
    const previous = i === 0 ? users[0]! : users[i - 1]!;
    const dropOff = i === 0 ? 0 : Math.max(0, previous - users[i]!);
    return { name: step.name, users: users[i]!, conversionRate: ratio(users[i]!, users[0]!), dropOff, dropOffRate: i === 0 ? 0 : ratio(dropOff, previous) };
  });
}

function ratio(part: number, whole: number): number {
  return whole > 0 ? part / whole : 0;
}
