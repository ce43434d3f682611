// How far back each provider's history reaches, and whether it covers a comparison range (SPEC §15). Each
// provider says it its own way: analytics and engine2 by their earliest row, engine1 by its 16-month window.
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

/** The `comparison_unavailable` caveat for a provider whose history does not reach the range. */
export function comparisonUnavailable(history: History, range: DateRange, consequence = 'its comparison is null, not 0'): { code: string; message: string } {
  const since = history.firstDay === undefined ? 'has no data yet' : `has data from ${history.firstDay} on`;
  return { code: 'comparison_unavailable', message: `${history.provider} ${since}, so the comparison range ${range.start} – ${range.end} is not covered: ${consequence}.` };
}
