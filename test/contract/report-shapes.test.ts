// One owner per response shape: the contract's zod schemas (src/contract/responses.ts) own the JSON every
// facade answers; the report types (src/reports) that the GraphQL types are built on must fit inside them.
// These are type assertions, checked by `npm run typecheck`: a report field the contract does not allow, or
// of another type, fails the build (the contract tests then prove the bytes).
import type * as z from 'zod';
import { describe, expectTypeOf, it } from 'vitest';
import type * as contract from '../../src/contract/responses.ts';
import type { Meta, Warning } from '../../src/reports/meta.ts';
import type { SiteSummary } from '../../src/reports/site-summary.ts';
import type { SiteTimeseries } from '../../src/reports/site-timeseries.ts';
import type { SiteBreakdown } from '../../src/reports/site-breakdown.ts';
import type { SiteRealtime } from '../../src/reports/site-realtime.ts';
import type { SiteMetadata } from '../../src/reports/site-metadata.ts';
import type { SearchSummary } from '../../src/reports/search-summary.ts';
import type { SearchTimeseries } from '../../src/reports/search-timeseries.ts';
import type { SearchBreakdown } from '../../src/reports/search-breakdown.ts';
import type { ObservedEvents } from '../../src/reports/observed-events.ts';
import type { ObservedPages } from '../../src/reports/observed-pages.ts';
import type { LandingPages } from '../../src/reports/landing-pages.ts';
import type { FunnelResults } from '../../src/reports/funnel-results.ts';

/**
 * The JSON a schema allows, without the `[key: string]: unknown` of open objects (interfaces have no index
 * signature, and an open object allows any extra field anyway); records (a typed index) are kept.
 */
type Closed<T> = T extends readonly (infer U)[]
  ? Closed<U>[]
  : T extends object
    ? { [K in keyof T as string extends K ? (unknown extends T[K] ? never : K) : K]: Closed<T[K]> }
    : T;
type Json<S extends z.ZodType> = Closed<z.output<S>>;

describe('report types fit the contract schemas', () => {
  it('the envelope parts', () => {
    expectTypeOf<Warning>().toExtend<Json<typeof contract.WarningSchema>>();
    expectTypeOf<Meta>().toExtend<Json<typeof contract.MetaSchema>>();
  });

  it('site metrics', () => {
    // Figures are built per name (a Record) and named in the contract, one object per compare mode: the contract tests
    // hold real bodies to that.
    expectTypeOf<Omit<SiteSummary, 'metrics'>>().toExtend<Omit<Json<typeof contract.SiteSummaryResponse>, 'metrics'>>();
    expectTypeOf<SiteTimeseries>().toExtend<Json<typeof contract.SiteTimeseriesResponse>>();
    expectTypeOf<SiteBreakdown>().toExtend<Json<typeof contract.SiteBreakdownResponse>>();
    expectTypeOf<SiteRealtime>().toExtend<Json<typeof contract.RealtimeResponse>>();
    expectTypeOf<SiteMetadata>().toExtend<Json<typeof contract.MetadataResponse>>();
  });

  it('search', () => {
    expectTypeOf<Omit<SearchSummary, 'totals' | 'byProvider'>>().toExtend<Omit<Json<typeof contract.SearchSummaryResponse>, 'totals' | 'byProvider'>>();
    expectTypeOf<SearchTimeseries>().toExtend<Json<typeof contract.SearchTimeseriesResponse>>();
    // Rows are built per dimension (the dimension's name is a key) and typed as open records until the graph types them.
    expectTypeOf<Omit<SearchBreakdown, 'rows'>>().toExtend<Omit<Json<typeof contract.SearchBreakdownResponse>, 'rows'>>();
    expectTypeOf<LandingPages>().toExtend<Json<typeof contract.LandingPagesResponse>>();
  });

  it('observed events and pages, funnels', () => {
    expectTypeOf<ObservedEvents>().toExtend<Json<typeof contract.ObservedEventsResponse>>();
    expectTypeOf<ObservedPages>().toExtend<Json<typeof contract.ObservedPagesResponse>>();
    expectTypeOf<FunnelResults>().toExtend<Json<typeof contract.FunnelResultsResponse>>();
  });
});
