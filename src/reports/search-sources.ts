// Which search engines answer a request (`sp`), and the figures the search reports share: engine1 freshness
// (meta.dataThrough and its warning) and merging provider totals whose position may be unknown (engine2's site
// totals come without one).
import type { DateRange, IsoDate } from '../domain/calendar.ts';
import { compared, type Compared } from '../domain/compare.ts';
import { mergeSearchMetrics, type SearchMetrics } from '../domain/search-combine.ts';
import { parseSp, searchSourcesOf, type SearchProviderChoice } from '../domain/request-params.ts';
import type { SearchSource } from '../domain/sources.ts';
import { AppError } from '../errors/app-error.ts';
import type { ReportDeps } from './report-deps.ts';
import type { ConnectedSource } from '../loaders/connected-source.ts';
import { findSource } from './project-lookup.ts';
import type { Warning } from './meta.ts';
import type { ProjectRecord } from '../store/projects-repository.ts';

export interface SearchSources {
  choice: SearchProviderChoice;
  /** The connected engines that will answer, in canonical order. */
  connected: Partial<Record<SearchSource, ConnectedSource>>;
  warnings: Warning[];
}

/**
 * `sp=all`: every connected engine, the missing ones named in a warning (409 when none is connected).
 * One engine asked for by name and not connected: 409 `source_not_connected`.
 * `servable` narrows the engines (e.g. a dimension engine2 cannot break down by): left out with a warning.
 */
export async function resolveSearchSources(
  ctx: ReportDeps,
  project: ProjectRecord,
  rawSp: string | null | undefined,
  servable?: { engines: readonly SearchSource[]; reason: (engine: SearchSource) => string; alone: (engine: SearchSource) => AppError },
): Promise<SearchSources> {
  const choice = parseSp(rawSp ?? undefined);
  const wanted = searchSourcesOf(choice);
  const connected: Partial<Record<SearchSource, ConnectedSource>> = {};
  const warnings: Warning[] = [];
  for (const engine of wanted) {
    if (servable && !servable.engines.includes(engine)) {
      if (choice !== 'all') throw servable.alone(engine);
      warnings.push({ code: 'source_left_out', message: servable.reason(engine) });
      continue;
    }
    const found = await findSource(ctx, project, engine);
    if (found) connected[engine] = found;
    else if (choice === 'all') warnings.push({ code: 'source_not_connected', message: `${engine} is not connected to project '${project.key}'; its data is left out.` });
    else throw notConnected(engine, project);
  }
  if (Object.keys(connected).length === 0) {
    const missing = wanted.filter((e) => !servable || servable.engines.includes(e));
    const detail = `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not connected to project '${project.key}'.`;
    throw new AppError('source_not_connected', detail, missing.length === 1 ? { provider: missing[0] } : {});
  }
  return { choice, connected, warnings };
}

function notConnected(engine: SearchSource, project: ProjectRecord): AppError {
  return new AppError('source_not_connected', `${engine} is not connected to project '${project.key}'.`, { provider: engine });
}

/** A provider's figures where the average position may be unknown. */
export interface SearchFigures {
  clicks: number;
  impressions: number;
  ctr: number;
  position: number | null;
}

export interface FiguresInput {
  clicks: number;
  impressions: number;
  position: number | null;
}

/**
 * Sums clicks and impressions, recomputes CTR, and takes the impression-weighted position over the parts that
 * report one (null when none does) — a part without a position must not drag the mean towards 0.
 */
export function mergeFigures(parts: readonly FiguresInput[]): SearchFigures {
  const all = mergeSearchMetrics(parts.map((p) => ({ clicks: p.clicks, impressions: p.impressions, position: 0 })));
  const positioned = parts.filter((p): p is FiguresInput & { position: number } => p.position !== null);
  const position = positioned.length > 0 ? mergeSearchMetrics(positioned).position : null;
  return { clicks: all.clicks, impressions: all.impressions, ctr: all.ctr, position };
}

export function figuresOf(metrics: SearchMetrics): SearchFigures {
  return { clicks: metrics.clicks, impressions: metrics.impressions, ctr: metrics.ctr, position: metrics.position };
}

export const NO_FIGURES: SearchFigures = { clicks: 0, impressions: 0, ctr: 0, position: null };

/** engine1 freshness for a range: the last complete day, and a warning when the range reaches past it. */
export function engine1Freshness(range: DateRange, firstIncompleteDate: IsoDate | undefined, dataThrough: IsoDate | undefined): { dataThrough: IsoDate; warnings: Warning[] } {
  if (firstIncompleteDate === undefined || dataThrough === undefined || range.end < firstIncompleteDate) {
    return { dataThrough: dataThrough !== undefined && dataThrough < range.end ? dataThrough : range.end, warnings: [] };
  }
  return {
    dataThrough,
    warnings: [
      {
        code: 'incomplete_data',
        message: `engine1 data from ${firstIncompleteDate} on is still being completed (it settles within 2–3 days); figures for those days will grow. Complete through ${dataThrough}.`,
      },
    ],
  };
}

/** `meta.sources`: the engines that answered, canonical order. */
export function sourcesUsed(connected: Partial<Record<SearchSource, unknown>>): SearchSource[] {
  return (['engine1', 'engine2'] as const).filter((s) => connected[s] !== undefined);
}

/** Only `position` can be null (no impressions, or not comparable); the counts always have a value. */
export type FiguresJson = Record<'clicks' | 'impressions' | 'ctr', number | Compared> & { position: number | null | Compared };

/**
 * Figures as the response shows them: plain without a comparison (`previous` undefined), each
 * `{value, previous, delta, deltaPct}` with one, and with `previous: null` throughout when the engine's history
 * does not cover the comparison range (`previous` null).
 */
export function toFiguresJson(current: SearchFigures, previous?: SearchFigures | null): FiguresJson {
  if (previous === undefined) return { ...current };
  const before = (pick: (f: SearchFigures) => number | null) => (previous === null ? null : pick(previous));
  const position = current.position === null || (previous !== null && previous.position === null) ? null : compared(current.position, before((f) => f.position));
  return {
    clicks: compared(current.clicks, before((f) => f.clicks)),
    impressions: compared(current.impressions, before((f) => f.impressions)),
    ctr: compared(current.ctr, before((f) => f.ctr)),
    position,
  };
}

const UPSTREAM_FAILURES = new Set(['upstream_error', 'upstream_unavailable', 'upstream_timeout', 'upstream_quota_exhausted']);

/**
 * Waits for both engines. With sp=all, an engine whose provider fails is left out with a `source_failed` warning
 * while the other one answers (partial data beats none); an engine asked for alone, both failing, or a caller
 * error fail the request as usual.
 */
export async function settleEngines<A, B>(
  choice: string,
  engine1: Promise<A> | undefined,
  engine2: Promise<B> | undefined,
  warnings: Warning[],
): Promise<[A | undefined, B | undefined]> {
  const [first, second] = await Promise.allSettled([engine1, engine2]);
  const failures = [first, second].filter((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failures.length === 0) return [(first as PromiseFulfilledResult<A>).value, (second as PromiseFulfilledResult<B>).value];
  const tolerable = choice === 'all' && engine1 !== undefined && engine2 !== undefined && failures.length === 1 && isUpstreamFailure(failures[0]!.reason);
  if (!tolerable) throw failures[0]!.reason;
  const failed = first.status === 'rejected' ? 'engine1' : 'engine2';
  const error = failures[0]!.reason as AppError;
  warnings.push({ code: 'source_failed', message: `${failed} could not answer (${error.code}); its data is left out. ${error.message}` });
  return [first.status === 'fulfilled' ? first.value : undefined, second.status === 'fulfilled' ? second.value : undefined];
}

/** A provider failure (not a caller mistake): any of the above, or a 424 about the data source's setup. */
function isUpstreamFailure(error: unknown): boolean {
  return error instanceof AppError && (UPSTREAM_FAILURES.has(error.code) || error.status === 424);
}
