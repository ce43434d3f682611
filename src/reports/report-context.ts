// What every report pipeline starts with: the project, the period in its time zone, the comparison and
// `force` (which is rate limited per project, SPEC §10).
import { comparisonRange, parseCompare, type CompareMode } from '../domain/compare.ts';
import type { DateRange } from '../domain/calendar.ts';
import { parsePeriod, resolvePeriod, toPeriodJson, type PeriodJson, type ResolvedPeriod } from '../domain/period.ts';
import { parseForce } from '../domain/request-params.ts';
import type { GraphQLContext } from '../graphql/context.ts';
import { requireProject } from '../loaders/connected-source.ts';
import type { Warning } from '../loaders/meta.ts';
import type { ProjectRecord } from '../store/projects-repository.ts';

export interface PeriodArgs {
  project: string;
  period?: string | null;
  compare?: string | null;
  force?: string | null;
}

export interface ReportScope {
  project: ProjectRecord;
  period: ResolvedPeriod;
  compare: CompareMode;
  previous?: DateRange;
  force: boolean;
  now: Date;
  periodJson: PeriodJson;
  /** Caveats that follow from the period itself. */
  warnings: Warning[];
}

export async function resolveReportScope(ctx: GraphQLContext, args: PeriodArgs, defaultCompare: CompareMode): Promise<ReportScope> {
  const project = await requireProject(ctx, args.project);
  const now = ctx.services.clock();
  // Parse every parameter before any upstream work, so a bad one is reported whatever else is wrong.
  const spec = parsePeriod(args.period ?? undefined);
  const compare = parseCompare(args.compare ?? undefined, defaultCompare);
  const force = parseForce(args.force ?? undefined);
  const period = resolvePeriod(spec, { timezone: project.timezone, now });
  // Whether each provider's history reaches this range is decided by the report, from what the provider says.
  const previous = comparisonRange(period, compare);
  if (force) await ctx.services.shared.limits.consumeForce(project.key);
  const warnings: Warning[] = [];
  if (period.includesToday) {
    warnings.push({ code: 'partial_period', message: `The period includes today (${period.end}), which is not complete yet.` });
  }
  return { project, period, compare, previous, force, now, periodJson: toPeriodJson(period, previous), warnings };
}
