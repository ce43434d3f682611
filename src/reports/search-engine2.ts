// engine2's whole-history rows cut to a date range, with the caveats that come with them: query/page stats are
// weekly buckets (counted when the week starts inside the range), site traffic is daily but lags a few days.
import type { DateRange } from '../domain/calendar.ts';
import type { Warning } from './meta.ts';

interface Dated {
  date: string;
}

export function withinRange<T extends Dated>(rows: readonly T[], range: DateRange): T[] {
  return rows.filter((r) => r.date >= range.start && r.date <= range.end);
}

/**
 * Weekly buckets (Bing's weeks start on a fixed weekday) whose first day lies in the range. Prorating a week over
 * days would invent daily numbers, and counting every overlapping week would count the edge weeks twice in
 * consecutive periods; a week is counted in the period where it starts, and the warning says which weeks.
 */
export function cutWeekly<T extends Dated>(rows: readonly T[], range: DateRange): { rows: T[]; warnings: Warning[] } {
  const kept = withinRange(rows, range);
  const weeks = [...new Set(kept.map((r) => r.date))].sort();
  const first = weeks[0];
  const last = weeks.at(-1);
  const message =
    first === undefined || last === undefined
      ? `engine2 reports query and page data in weekly buckets, and no week starts between ${range.start} and ${range.end}; engine2 contributes nothing to this period.`
      : `engine2 reports query and page data in weekly buckets; its figures are the ${weeks.length} week(s) starting ${first}${weeks.length > 1 ? ` to ${last}` : ''} (each week counted in the period it starts in), not exactly ${range.start} to ${range.end}.`;
  return { rows: kept, warnings: [{ code: 'weekly_data', message }] };
}

/** Daily site traffic in the range, with a warning when the range reaches past the last day Bing has. */
export function cutDaily<T extends Dated>(rows: readonly T[], range: DateRange): { rows: T[]; warnings: Warning[] } {
  const kept = withinRange(rows, range);
  const lastDay = rows.reduce<string | undefined>((max, r) => (max === undefined || r.date > max ? r.date : max), undefined);
  const warnings: Warning[] = [];
  if (lastDay === undefined || lastDay < range.end) {
    warnings.push({
      code: 'incomplete_data',
      message: lastDay === undefined ? 'engine2 has no traffic data for this site yet.' : `engine2 data is available through ${lastDay}; later days of the period have no engine2 figures yet.`,
    });
  }
  return { rows: kept, warnings };
}
