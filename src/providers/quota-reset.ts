// When an exhausted provider quota comes back, for `Retry-After`: GA's hourly buckets refill by the next hour, its
// daily buckets at midnight Pacific time; Search Console asks for about 15 minutes after a load-quota error.
import { addDays } from '../domain/calendar.ts';
import { localDateAt, startOfDayInZone } from '../domain/time-zone.ts';

export const PACIFIC = 'America/Los_Angeles';
/** Search Console's advice for a short-term load-quota error. */
export const SEARCH_LOAD_QUOTA_WAIT_MS = 15 * 60_000;

export function msUntilNextHour(now: number): number {
  return 3_600_000 - (now % 3_600_000);
}

export function msUntilPacificMidnight(now: number): number {
  return startOfDayInZone(addDays(localDateAt(now, PACIFIC), 1), PACIFIC) - now;
}
