// The envelope parts every data response shares (SPEC §2–§3): the period echo and `meta`.
import type { PeriodJson } from '../../domain/period.ts';
import type { Meta, Warning } from '../../reports/meta.ts';
import type { QuotaRemaining } from '../../providers/analytics/normalize.ts';
import { builder } from '../builder.ts';
import { CacheStateRef } from './enums.ts';

export const DateRangeRef = builder.objectRef<{ start: string; end: string }>('DateRange').implement({
  fields: (t) => ({ start: t.field({ type: 'Date', resolve: (r) => r.start }), end: t.field({ type: 'Date', resolve: (r) => r.end }) }),
});

export const PeriodRef = builder.objectRef<PeriodJson>('ResolvedPeriod').implement({
  description: 'The resolved period: calendar days in the project time zone, inclusive.',
  fields: (t) => ({
    name: t.exposeString('name'),
    start: t.field({ type: 'Date', resolve: (p) => p.start }),
    end: t.field({ type: 'Date', resolve: (p) => p.end }),
    timezone: t.exposeString('timezone'),
    previous: t.field({ type: DateRangeRef, nullable: true, description: 'The comparison range, when comparing.', resolve: (p) => p.previous ?? null }),
  }),
});

export const WarningRef = builder.objectRef<Warning>('Warning').implement({
  fields: (t) => ({ code: t.exposeString('code'), message: t.exposeString('message') }),
});

export const QuotaRemainingRef = builder.objectRef<QuotaRemaining>('QuotaRemaining').implement({
  description: "What is left of the analytics property's quota buckets (the provider's propertyQuota).",
  fields: (t) => ({
    tokensPerDay: t.int({ nullable: true, resolve: (q) => q.tokensPerDay ?? null }),
    tokensPerHour: t.int({ nullable: true, resolve: (q) => q.tokensPerHour ?? null }),
    tokensPerProjectPerHour: t.int({ nullable: true, resolve: (q) => q.tokensPerProjectPerHour ?? null }),
    serverErrorsPerProjectPerHour: t.int({ nullable: true, resolve: (q) => q.serverErrorsPerProjectPerHour ?? null }),
    potentiallyThresholdedRequestsPerHour: t.int({ nullable: true, resolve: (q) => q.potentiallyThresholdedRequestsPerHour ?? null }),
  }),
});

export const MetaRef = builder.objectRef<Meta>('Meta').implement({
  fields: (t) => ({
    cache: t.field({ type: CacheStateRef, resolve: (m) => m.cache }),
    fetchedAt: t.exposeString('fetchedAt', { description: 'When the oldest upstream data in this answer was fetched (ISO-8601).' }),
    warnings: t.field({ type: [WarningRef], resolve: (m) => m.warnings }),
    sources: t.exposeStringList('sources'),
    dataThrough: t.field({ type: 'Date', nullable: true, description: 'Last complete day of engine1 data.', resolve: (m) => m.dataThrough ?? null }),
    quota: t.field({ type: QuotaRemainingRef, nullable: true, description: "The analytics property's remaining quota, when analytics answered.", resolve: (m) => m.quota ?? null }),
  }),
});
