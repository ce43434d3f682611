// How far back each provider's history reaches, and the one decision every report and insight reads about a
// comparison range: which providers can be compared over it. Each provider says how far it reaches its own way
// (analytics and engine2 by their earliest row, engine1 by its 16-month window); a range a provider does not cover
// is never counted as 0 — its previous is null, or it is left out like for like, and a comparison_unavailable
// warning names it and its first available day.
import { addDays, type DateRange, type IsoDate } from './calendar.ts';
import { EARLIEST_START } from './period.ts';
import type { Source } from './sources.ts';
import { todayInZone } from './time-zone.ts';

/** The first day a provider has data for; undefined when it has none at all. */
export interface History {
  readonly provider: Source;
  readonly firstDay: IsoDate | undefined;
}

/** engine1 keeps 16 months, counted in its own (Pacific) days; 486 days is the window it serves. */
const ENGINE1_HISTORY_DAYS = 486;
const ENGINE1_ZONE = 'America/Los_Angeles';

/** The first day engine1's window still holds today. */
export function engine1WindowStart(now: Date): IsoDate {
  return addDays(todayInZone(ENGINE1_ZONE, now), -ENGINE1_HISTORY_DAYS);
}

/** The earliest of some days (rows' dates), clipped to a floor the provider cannot go below. */
export function earliestDay(days: Iterable<IsoDate>, floor: IsoDate = EARLIEST_START): IsoDate | undefined {
  let first: IsoDate | undefined;
  for (const day of days) if (day >= floor && (first === undefined || day < first)) first = day;
  return first;
}

/** engine1 answers for its window whatever the site's traffic, so the window is its history. */
export function engine1History(now: Date): History {
  return { provider: 'engine1', firstDay: engine1WindowStart(now) };
}

/** analytics and engine2: the first day they return a row for (rows only exist for days with activity). */
export function historyFromRows(provider: Source, rowDays: Iterable<IsoDate>): History {
  return { provider, firstDay: earliestDay(rowDays) };
}

/** True when the provider has data for every day of the range. */
export function coversRange(history: History, range: DateRange): boolean {
  return history.firstDay !== undefined && history.firstDay <= range.start;
}

const NULL_NOT_ZERO = 'its comparison is null, not 0';

export interface CoverageWarning {
  readonly code: 'comparison_unavailable';
  readonly message: string;
}

/** The `comparison_unavailable` caveat for a provider whose history does not reach the range. */
export function comparisonUnavailable(history: History, range: DateRange, consequence = NULL_NOT_ZERO): CoverageWarning {
  const since = history.firstDay === undefined ? 'has no data yet' : `has data from ${history.firstDay} on`;
  return { code: 'comparison_unavailable', message: `${history.provider} ${since}, so the comparison range ${range.start} – ${range.end} is not covered: ${consequence}.` };
}

/**
 * How a figure that combines several providers is compared when one of them does not reach the range:
 * `null` — the combined figure is not compared, each covered provider keeps its own comparison (a report's totals);
 * `like_for_like` — the comparison is over the covered providers only, current and previous alike (an insight).
 */
export type CombinedComparison = 'null' | 'like_for_like';

export interface Coverage {
  /** The comparison range; undefined when not comparing. */
  readonly range: DateRange | undefined;
  /** The providers whose history reaches the range (all of them when not comparing), in the order given. */
  readonly covered: readonly Source[];
  /** The providers whose history does not: their previous is null, never 0. */
  readonly uncovered: readonly Source[];
  readonly warnings: readonly CoverageWarning[];
}

export interface CoverageOptions {
  readonly combined?: CombinedComparison;
  /** What an uncovered range means for the answer, when it is not a comparison (e.g. an anomaly baseline). */
  readonly consequence?: string;
}

/** Which of the providers that answered can be compared over `range`, and the warning for each that cannot. */
export function decideCoverage(histories: readonly History[], range: DateRange | undefined, options: CoverageOptions = {}): Coverage {
  const all = histories.map((h) => h.provider);
  if (range === undefined) return { range, covered: all, uncovered: [], warnings: [] };
  const covered = histories.filter((h) => coversRange(h, range)).map((h) => h.provider);
  const missing = histories.filter((h) => !coversRange(h, range));
  const consequence = options.consequence ?? combinedConsequence(histories.length, covered, options.combined ?? 'null');
  return { range, covered, uncovered: missing.map((h) => h.provider), warnings: missing.map((h) => comparisonUnavailable(h, range, consequence)) };
}

function combinedConsequence(answered: number, covered: readonly Source[], combined: CombinedComparison): string {
  if (answered <= 1) return NULL_NOT_ZERO;
  if (combined === 'null') {
    const own = covered.length > 0 ? ` (byProvider.${covered.join(', byProvider.')} compares like for like)` : '';
    return `${NULL_NOT_ZERO}; the combined totals are not compared${own}`;
  }
  return covered.length === 0 ? NULL_NOT_ZERO : `it is left out, and the comparison is ${covered.join(' and ')} alone over both ranges (like for like), never a 0 for the missing range`;
}

/** A provider's previous figure as an answer shows it: its own when covered, null when not (never 0). */
export function coveredPrevious<T>(coverage: Coverage, provider: Source, previous: T): T | null {
  return coverage.covered.includes(provider) ? previous : null;
}
