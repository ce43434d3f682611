// What every report pipeline starts with: the project, the period in its time zone, the comparison and
// `force` (which is rate limited per project).
import { comparisonRange, parseCompare, type CompareMode } from '../domain/compare.ts';
import type { DateRange } from '../domain/calendar.ts';
import { parsePeriod, resolvePeriod, toPeriodJson, type PeriodJson, type ResolvedPeriod } from '../domain/period.ts';
import { parseForce } from '../domain/request-params.ts';
import { spendForce } from './force-refresh.ts';
import type { ReportDeps } from './report-deps.ts';
import { findSource, requireProject } from './project-lookup.ts';
import type { Warning } from './meta.ts';
import { firstProcessingDay } from '../cache/upstream-policy.ts';
import { addDays } from '../domain/calendar.ts';
import type { DataSourceRecord } from '../store/data-sources-repository.ts';
import type { ProjectRecord } from '../store/projects-repository.ts';

export interface PeriodArgs {
  project: string;
  period?: string | null;
  compare?: string | null;
  force?: string | null;
}

export interface ReportScope {
  project: ProjectRecord;
  /** The zone the period's days are in: the analytics property's for analytics reports, else the project's. */
  timezone: string;
  period: ResolvedPeriod;
  compare: CompareMode;
  previous?: DateRange;
  force: boolean;
  now: Date;
  periodJson: PeriodJson;
  /** Caveats that follow from the period itself. */
  warnings: Warning[];
}

/**
 * `days: 'analytics'`: GA reads every date in the property's reporting time zone, so the period is resolved in it
 * (the project's own zone is only a display choice); a difference is said in a warning.
 */
export async function resolveReportScope(ctx: ReportDeps, args: PeriodArgs, defaultCompare: CompareMode, days: 'analytics' | 'project' = 'project'): Promise<ReportScope> {
  const project = await requireProject(ctx, args.project);
  const now = ctx.services.clock();
  const property = days === 'analytics' ? (await findSource(ctx, project, 'analytics'))?.record : undefined;
  const timezone = property?.timeZone ?? project.timezone;
  // Parse every parameter before any upstream work, so a bad one is reported whatever else is wrong.
  const spec = parsePeriod(args.period ?? undefined);
  const compare = parseCompare(args.compare ?? undefined, defaultCompare);
  const force = parseForce(args.force ?? undefined);
  const period = resolvePeriod(spec, { timezone, now });
  // Whether each provider's history reaches this range is decided by the report, from what the provider says.
  const previous = comparisonRange(period, compare);
  if (force) await spendForce(ctx.services, project, ctx);
  const warnings: Warning[] = [];
  warnings.push(...propertySettingsWarnings(project, property));
  if (days === 'analytics') warnings.push(...processingWarnings(period, timezone, now));
  if (period.includesToday) {
    warnings.push({ code: 'partial_period', message: `The period includes today (${period.end}), which is not complete yet.` });
  }
  return { project, timezone, period, compare, previous, force, now, periodJson: toPeriodJson(period, previous), warnings };
}

/** Days GA may still be processing (its last 24–48 h): their numbers can still grow. */
function processingWarnings(period: ResolvedPeriod, timezone: string, now: Date): Warning[] {
  const first = firstProcessingDay(timezone, now);
  if (period.end < first) return [];
  const from = period.start > first ? period.start : first;
  const to = period.includesToday ? addDays(period.end, -1) : period.end;
  if (to < from) return [];
  return [{ code: 'incomplete_data', message: `analytics data for ${from === to ? from : `${from} to ${to}`} may still be processed by the provider (it takes 24–48 hours); numbers for those days can still grow.` }];
}

/** The property's time zone or currency differs from the project's: answers follow the property, and say so. */
function propertySettingsWarnings(project: ProjectRecord, property: DataSourceRecord | undefined): Warning[] {
  const warnings: Warning[] = [];
  if (property?.timeZone && property.timeZone !== project.timezone) {
    warnings.push({
      code: 'timezone_mismatch',
      message: `Days and hours follow the analytics property's time zone (${property.timeZone}); the project is set to ${project.timezone}. Set the project's time zone to ${property.timeZone} (or change the property's) to make them agree.`,
    });
  }
  if (property?.currencyCode && property.currencyCode !== project.currency) {
    warnings.push({
      code: 'currency_mismatch',
      message: `Money values are in the analytics property's currency (${property.currencyCode}); the project is set to ${project.currency}.`,
    });
  }
  return warnings;
}
