// The envelope parts every data response shares: the period echo and `meta`.
import { isSource } from '../../domain/sources.ts';
import type { PeriodJson } from '../../domain/period.ts';
import type { Meta, Warning } from '../../reports/meta.ts';
import type { QuotaRemaining } from '../../providers/analytics/normalize.ts';
import { builder } from '../builder.ts';
import { CacheStateRef, DataSourceNameRef } from './enums.ts';

export const DateRangeRef = builder.objectRef<{ start: string; end: string }>('DateRange').implement({
  description: 'Inclusive calendar days in the project time zone.',
  fields: (t) => ({
    start: t.field({ type: 'Date', description: 'The first day.', resolve: (r) => r.start }),
    end: t.field({ type: 'Date', description: 'The last day (inclusive).', resolve: (r) => r.end }),
  }),
});

export const PeriodRef = builder.objectRef<PeriodJson>('ResolvedPeriod').implement({
  description: 'The resolved period: calendar days in the project time zone, inclusive.',
  fields: (t) => ({
    name: t.field({ type: 'Period', description: 'The period as asked (`28days`, `last_month`, `custom_…`).', resolve: (p) => p.name }),
    start: t.field({ type: 'Date', description: 'The first day.', resolve: (p) => p.start }),
    end: t.field({ type: 'Date', description: 'The last day (inclusive); today for a period that runs to today.', resolve: (p) => p.end }),
    timezone: t.exposeString('timezone', { description: 'IANA time zone the days are counted in.' }),
    previous: t.field({ type: DateRangeRef, nullable: true, description: 'The comparison range; null without a comparison.', resolve: (p) => p.previous ?? null }),
  }),
});

export const WarningRef = builder.objectRef<Warning>('Warning').implement({
  description: 'A caveat of the answer (sampling, incomplete days, an engine left out, a comparison not possible, …).',
  fields: (t) => ({
    code: t.exposeString('code', { description: 'A stable code, e.g. comparison_unavailable, incomplete_data, weekly_data.' }),
    message: t.exposeString('message', { description: 'What it means for these numbers, in words.' }),
  }),
});

const quotaField = (description: string) => ({ nullable: true as const, description: `${description} Tokens (or requests) left; null when the provider did not say.` });

export const QuotaRemainingRef = builder.objectRef<QuotaRemaining>('QuotaRemaining').implement({
  description: "What is left of the analytics property's quota buckets (the provider's propertyQuota); quota_low warns under 10 %.",
  fields: (t) => ({
    tokensPerDay: t.int({ ...quotaField('The daily token bucket.'), resolve: (q) => q.tokensPerDay ?? null }),
    tokensPerHour: t.int({ ...quotaField('The hourly token bucket.'), resolve: (q) => q.tokensPerHour ?? null }),
    tokensPerProjectPerHour: t.int({ ...quotaField('The hourly token bucket of the credential’s cloud project.'), resolve: (q) => q.tokensPerProjectPerHour ?? null }),
    serverErrorsPerProjectPerHour: t.int({ ...quotaField('Server errors the cloud project may still cause this hour.'), resolve: (q) => q.serverErrorsPerProjectPerHour ?? null }),
    potentiallyThresholdedRequestsPerHour: t.int({ ...quotaField('Requests with possibly thresholded data left this hour.'), resolve: (q) => q.potentiallyThresholdedRequestsPerHour ?? null }),
  }),
});

export const MetaRef = builder.objectRef<Meta>('Meta').implement({
  description: 'Freshness and caveats of the answer.',
  fields: (t) => ({
    cache: t.field({ type: CacheStateRef, description: 'Where the answer came from.', resolve: (m) => m.cache }),
    fetchedAt: t.field({ type: 'DateTime', description: 'When the oldest upstream data in this answer was fetched.', resolve: (m) => m.fetchedAt }),
    warnings: t.field({ type: [WarningRef], description: 'Caveats; empty when there are none.', resolve: (m) => m.warnings }),
    sources: t.field({ type: [DataSourceNameRef], description: 'The providers the numbers come from.', resolve: (m) => m.sources.filter(isSource) }),
    dataThrough: t.field({ type: 'Date', nullable: true, description: 'engine1: the last complete day of its data; null otherwise.', resolve: (m) => m.dataThrough ?? null }),
    quota: t.field({ type: QuotaRemainingRef, nullable: true, description: "The analytics property's remaining quota; null when analytics did not answer.", resolve: (m) => m.quota ?? null }),
  }),
});

/** Descriptions of the envelope fields every report type has. */
export const ENVELOPE = {
  project: { description: 'The project key.' },
  period: { description: 'The period the numbers cover (and the comparison range, when comparing).' },
  meta: { description: 'Freshness and caveats of the answer.' },
} as const;
