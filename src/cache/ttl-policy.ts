// How long a provider answer stays fresh, servable-while-revalidating and servable-on-error.

export type FreshnessKind = 'realtime' | 'report' | 'metadata' | 'history';

export interface FreshnessInput {
  kind: FreshnessKind;
  /** Last day of the report's period, `YYYY-MM-DD` in the project's time zone (reports only). */
  endDate?: string;
  /** Today in the project's time zone, `YYYY-MM-DD`; defaults to the UTC day of `now`. */
  today?: string;
}

export interface CachePolicy {
  /** Served as `hit` for this long after the load. */
  freshMs: number;
  /** After that, served as `stale` for this long while one background refresh runs. */
  revalidateMs: number;
  /** Kept this long after going stale, to be served (with a warning) when a reload fails. */
  staleIfErrorMs: number;
}

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MAX_STALE_IF_ERROR = 7 * DAY;

/**
 * Fresh TTL per kind. Reports by how far back their period ends: data of the last few days is still
 * being finalised upstream (engine1 lags ~2 days), older days do not change.
 */
export const FRESH_TTL = {
  realtime: 30 * SECOND,
  reportTouchingToday: 5 * MINUTE,
  reportEndingYesterday: HOUR,
  // Ending 2–3 days ago: engine1 may still be completing these days, so refresh more often than settled history.
  reportEnding2To3DaysAgo: 6 * HOUR,
  reportHistorical: DAY,
  // Short enough that a newly created custom metric or dimension is accepted within the hour.
  metadata: HOUR,
  // engine2's whole-history dumps (weekly/daily rows, no date filter) gain a new day about daily.
  history: 6 * HOUR,
} as const;

export function freshnessFor(input: FreshnessInput, now: number = Date.now()): CachePolicy {
  const freshMs = freshTtl(input, now);
  // Realtime is cached at most 30 s, so it is never served stale while revalidating.
  const revalidateMs = input.kind === 'realtime' ? 0 : freshMs;
  const staleIfErrorMs = Math.min(24 * freshMs, MAX_STALE_IF_ERROR);
  return { freshMs, revalidateMs, staleIfErrorMs };
}

export interface EntryTimes {
  storedAt: number;
  freshUntil: number;
  revalidateUntil: number;
  staleUntil: number;
}

export function toEntryTimes(policy: CachePolicy, now: number): EntryTimes {
  const freshUntil = now + policy.freshMs;
  return {
    storedAt: now,
    freshUntil,
    revalidateUntil: freshUntil + policy.revalidateMs,
    staleUntil: freshUntil + Math.max(policy.revalidateMs, policy.staleIfErrorMs),
  };
}

function freshTtl(input: FreshnessInput, now: number): number {
  switch (input.kind) {
    case 'realtime':
      return FRESH_TTL.realtime;
    case 'metadata':
      return FRESH_TTL.metadata;
    case 'history':
      return FRESH_TTL.history;
    case 'report': {
      // Without an end date the period may touch today: the shortest report TTL is the safe guess.
      if (input.endDate === undefined) return FRESH_TTL.reportTouchingToday;
      const today = input.today ?? new Date(now).toISOString().slice(0, 10);
      const daysAgo = daysBetween(input.endDate, today);
      if (daysAgo <= 0) return FRESH_TTL.reportTouchingToday;
      if (daysAgo === 1) return FRESH_TTL.reportEndingYesterday;
      if (daysAgo <= 3) return FRESH_TTL.reportEnding2To3DaysAgo;
      return FRESH_TTL.reportHistorical;
    }
  }
}

function daysBetween(from: string, to: string): number {
  const a = Date.parse(`${from}T00:00:00Z`);
  const b = Date.parse(`${to}T00:00:00Z`);
  if (Number.isNaN(a) || Number.isNaN(b)) throw new RangeError(`freshnessFor: expected YYYY-MM-DD dates, got "${from}" and "${to}"`);
  return Math.round((b - a) / DAY);
}
