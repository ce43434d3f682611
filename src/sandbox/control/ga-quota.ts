// GA property quota: token buckets per property and category (Core, Realtime, Funnel) for the day (Pacific),
// the hour and the project-hour, plus the 10-concurrent-requests cap, with the provider's 429 bodies.
import { PACIFIC, zonedParts } from '../data/calendar.ts';
import { googleError, type ProviderError } from '../http.ts';
import type { GaQuotaLimits } from './fault-settings.ts';

export type QuotaCategory = 'core' | 'realtime' | 'funnel';

const QUOTA_URL = 'To learn more, see https://developers.google.com/analytics/devguides/reporting/data/v1/quotas';

export interface PropertyQuota {
  tokensPerDay: { consumed?: number; remaining: number };
  tokensPerHour: { consumed?: number; remaining: number };
  concurrentRequests: { remaining: number };
  serverErrorsPerProjectPerHour: { remaining: number };
  potentiallyThresholdedRequestsPerHour: { remaining: number };
  tokensPerProjectPerHour: { consumed?: number; remaining: number };
}

export interface GaQuota {
  /** Claims a concurrent slot (throws the 429 when all are taken); call the returned function when done. */
  enter(property: string): () => void;
  /** Throws the 429 if any token bucket of the property/category/project is spent. */
  assertAvailable(property: string, project: string, category: QuotaCategory, now: Date): void;
  charge(property: string, project: string, category: QuotaCategory, cost: number, now: Date): PropertyQuota;
  /** Counts a 5xx the property answered (GA allows 10 per project per property per hour). */
  recordServerError(property: string, now: Date): void;
  /** Throws the 429 once the property's server-error allowance for this hour is spent. */
  assertServerErrorsAvailable(property: string, now: Date): void;
}

/** serverErrorsPerProjectPerHour of a standard property. */
const SERVER_ERRORS_PER_HOUR = 10;

export function createGaQuota(limits: () => GaQuotaLimits): GaQuota {
  const used = new Map<string, number>();
  const inFlight = new Map<string, number>();
  const windows = (now: Date) => ({ day: zonedParts(now, PACIFIC).day, hour: Math.floor(now.getTime() / 3_600_000) });
  const keys = (property: string, project: string, category: QuotaCategory, now: Date) => {
    const w = windows(now);
    return {
      day: `d|${property}|${category}|${w.day}`,
      hour: `h|${property}|${category}|${w.hour}`,
      projectHour: `p|${property}|${category}|${project}|${w.hour}`,
      // The sandbox serves one Cloud project per credential set, so server errors count per property.
      errors: `e|${property}|${w.hour}`,
    };
  };
  const get = (k: string) => used.get(k) ?? 0;
  return {
    enter(property) {
      const n = inFlight.get(property) ?? 0;
      if (n >= limits().concurrentRequests) {
        throw googleError(429, `Exhausted concurrent requests quota for this property. Too many requests are running at once. ${QUOTA_URL}`);
      }
      inFlight.set(property, n + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        inFlight.set(property, (inFlight.get(property) ?? 1) - 1);
      };
    },
    assertAvailable(property, project, category, now) {
      const k = keys(property, project, category, now);
      const l = limits();
      const fail = (what: string, tail: string): ProviderError => googleError(429, `Exhausted property tokens ${what}. ${tail} ${QUOTA_URL}`);
      if (get(k.day) >= l.tokensPerDay) throw fail('per day', 'These quota tokens will return tomorrow.');
      if (get(k.hour) >= l.tokensPerHour) throw fail('per hour', 'These quota tokens will return in under an hour.');
      if (get(k.projectHour) >= l.tokensPerProjectPerHour) throw fail('per hour for a project per property', 'These quota tokens will return in under an hour.');
    },
    charge(property, project, category, cost, now) {
      const k = keys(property, project, category, now);
      for (const key of [k.day, k.hour, k.projectHour]) used.set(key, get(key) + cost);
      const l = limits();
      const consumed = cost;
      return {
        tokensPerDay: { consumed, remaining: Math.max(0, l.tokensPerDay - get(k.day)) },
        tokensPerHour: { consumed, remaining: Math.max(0, l.tokensPerHour - get(k.hour)) },
        concurrentRequests: { remaining: Math.max(0, l.concurrentRequests - (inFlight.get(property) ?? 0)) },
        serverErrorsPerProjectPerHour: { remaining: Math.max(0, SERVER_ERRORS_PER_HOUR - get(k.errors)) },
        potentiallyThresholdedRequestsPerHour: { remaining: 120 },
        tokensPerProjectPerHour: { consumed, remaining: Math.max(0, l.tokensPerProjectPerHour - get(k.projectHour)) },
      };
    },
    recordServerError(property, now) {
      const k = keys(property, '', 'core', now).errors;
      used.set(k, get(k) + 1);
    },
    assertServerErrorsAvailable(property, now) {
      if (get(keys(property, '', 'core', now).errors) >= SERVER_ERRORS_PER_HOUR) {
        throw googleError(429, `Exhausted property server errors per project per hour. These quota tokens will return in under an hour. ${QUOTA_URL}`);
      }
    },
  };
}

/** Token cost of one report: small for most, growing with the span, the breakdown and the rows returned. */
export function reportCost(days: number, dimensions: number, rowCount: number): number {
  return Math.max(1, Math.min(100, Math.ceil(days / 120) + Math.floor(dimensions / 3) + Math.floor(rowCount / 10_000)));
}
