// The response bodies of the contract, one zod schema per endpoint: MCP tools declare them as
// outputSchema, tests validate REST bodies against them, and the OpenAPI document is generated from them.
// Objects are open to zod (extra fields allowed: the contract grows by adding fields, never by changing them) but
// closed in the OpenAPI document, where every key Siteline knows is named: typed clients get no open records. Closed
// sets of words are enums (./words.ts), and an object of figures has one shape per compare mode: all numbers without a
// comparison, all Compared objects with one (`oneOf`; no field of the body names the mode, `period.previous` is there
// exactly when comparing).
import * as z from 'zod';
import { ANALYTICS_DIMENSION_NAMES, ANALYTICS_METRIC_NAMES, SEARCH_DIMENSION_NAMES, SUMMARY_METRICS, type SummaryMetric } from '../domain/catalogue.ts';
import { INTERVALS } from '../domain/interval.ts';
import { SOURCES } from '../domain/sources.ts';
import {
  ANOMALY_DIRECTIONS,
  ANOMALY_KINDS,
  BRAND_FILTERS,
  CACHE_STATES,
  DATA_SOURCE_STATUSES,
  DRIVER_REASONS,
  FUNNEL_CREATORS,
  FUNNEL_STEP_MATCHES,
  FUNNEL_STEP_TYPES,
  METRIC_KINDS,
  OPPORTUNITY_KINDS,
  SEARCH_PROVIDERS,
} from './words.ts';

const date = z.string().describe('A calendar day, YYYY-MM-DD.');

export const PeriodSchema = z
  .looseObject({
    name: z.string().describe('The period as asked, e.g. 28days or custom_2026-01-01_2026-01-31.'),
    start: date,
    end: date,
    timezone: z.string().describe('IANA time zone the days are counted in.'),
    previous: z.looseObject({ start: date, end: date }).optional().describe('The comparison period, when one was asked for.'),
  })
  .describe('The resolved period (inclusive calendar days in the project time zone).');

export const WarningSchema = z.looseObject({ code: z.string(), message: z.string() });

const quotaBucket = (text: string) => z.number().int().optional().describe(`${text} Tokens (or requests) left.`);

export const QuotaSchema = z
  .looseObject({
    tokensPerDay: quotaBucket('The daily token bucket.'),
    tokensPerHour: quotaBucket('The hourly token bucket.'),
    tokensPerProjectPerHour: quotaBucket("The hourly token bucket of the credential's cloud project."),
    serverErrorsPerProjectPerHour: quotaBucket('Server errors the cloud project may still cause this hour.'),
    potentiallyThresholdedRequestsPerHour: quotaBucket('Requests with possibly thresholded data left this hour.'),
  })
  .describe("analytics: what is left of the property's quota buckets (the provider's propertyQuota); quota_low warns under 10%.");

export const MetaSchema = z
  .looseObject({
    cache: z.enum(CACHE_STATES).describe('hit (fresh cache), miss (provider), stale (cache, refreshing) or refresh (forced).'),
    fetchedAt: z.string().describe('When the data was fetched from the provider (ISO-8601).'),
    warnings: z.array(WarningSchema).optional(),
    sources: z.array(z.enum(SOURCES)).optional().describe('Providers the numbers come from.'),
    dataThrough: date.optional().describe('engine1: last complete day of data.'),
    quota: QuotaSchema.optional(),
  })
  .describe('Freshness and caveats of the answer.');

export const ComparedSchema = z
  .looseObject({
    value: z.number().nullable(),
    previous: z.number().nullable().optional().describe("The comparison range's value; null (never 0) when the provider's history does not reach that range — a comparison_unavailable warning names the provider and its first day."),
    delta: z.number().nullable().optional(),
    deltaPct: z.number().nullable().optional().describe('delta / previous as a fraction (0.1 = +10%); null when previous is 0 or null.'),
  })
  .describe('A number with its comparison period value.');

/** A metric value: a bare number without comparison, a Compared object with one. */
export const MetricValueSchema = z.xor([z.number(), ComparedSchema]).describe('A number without a comparison; a Compared object with one (compare=previous or year).');

/** Figures as one object per compare mode: `shaped(number)` without a comparison, `shaped(Compared)` with one. */
function byCompareMode<A extends z.ZodType, B extends z.ZodType>(plain: A, comparing: B, description: string) {
  return z.xor([plain.describe(`${description} Without a comparison: numbers.`), comparing.describe(`${description} With a comparison: Compared objects.`)]).describe(description);
}

/** The summary metrics, each named: `value` is a number or a Compared schema. */
const summaryMetrics = <V extends z.ZodType>(value: V) => z.looseObject(Object.fromEntries(SUMMARY_METRICS.map((name) => [name, value])) as Record<SummaryMetric, V>);

// Projects -------------------------------------------------------------------------------------------------

const DataSourceSchema = z.looseObject({
  connected: z.boolean(),
  status: z.enum(DATA_SOURCE_STATUSES).describe('ok, error, pending (connected, no call with its credential has succeeded yet) or not_connected: the last upstream outcome.'),
  message: z.string().optional(),
  displayName: z.string(),
  propertyId: z.string().optional(),
  siteUrl: z.string().optional(),
});

export const ProjectSchema = z.looseObject({
  key: z.string(),
  name: z.string(),
  domain: z.string(),
  timezone: z.string(),
  currency: z.string(),
  today: date.describe("Today's date in the project time zone."),
  dataSources: z.looseObject({ analytics: DataSourceSchema, engine1: DataSourceSchema, engine2: DataSourceSchema }),
});

export const ProjectsListResponse = z.looseObject({ projects: z.array(ProjectSchema) });
export const ProjectResponse = z.looseObject({ project: ProjectSchema });

// Funnels --------------------------------------------------------------------------------------------------

export const FunnelStepSchema = z.looseObject({
  name: z.string(),
  type: z.enum(FUNNEL_STEP_TYPES).describe('What the step matches: an event name or a page path.'),
  match: z.enum(FUNNEL_STEP_MATCHES).describe('How the value matches.'),
  value: z.string(),
});

export const FunnelSchema = z.looseObject({
  key: z.string(),
  name: z.string(),
  steps: z.array(FunnelStepSchema),
  createdAt: z.string(),
  createdVia: z.enum(FUNNEL_CREATORS).describe('Where the funnel was created.'),
});

export const FunnelsListResponse = z.looseObject({ funnels: z.array(FunnelSchema) });

export const FunnelResultsResponse = z.looseObject({
  project: z.string().optional().describe('The project the funnel belongs to.'),
  funnel: z.looseObject({ key: z.string(), name: z.string() }),
  period: PeriodSchema.optional(),
  steps: z.array(
    z.looseObject({
      name: z.string(),
      users: z.number(),
      conversionRate: z.number().nullable().optional().describe('Share of step-1 users reaching this step (fraction).'),
      dropOff: z.number().nullable().optional().describe('Users lost since the previous step.'),
      dropOffRate: z.number().nullable().optional(),
    }),
  ),
  completionRate: z.number().nullable().optional(),
  meta: MetaSchema.optional(),
});

// Site metrics (analytics) ---------------------------------------------------------------------------------

const envelope = { project: z.string(), period: PeriodSchema, meta: MetaSchema.optional() };

export const SiteSummaryResponse = z.looseObject({
  ...envelope,
  metrics: byCompareMode(summaryMetrics(z.number()), summaryMetrics(ComparedSchema), 'The summary metrics by name.'),
});

export const SiteTimeseriesResponse = z.looseObject({
  ...envelope,
  metric: z.string(),
  interval: z.enum(INTERVALS),
  points: z
    .array(z.looseObject({ date: date.optional(), time: z.string().optional().describe('interval=hour: the hour, ISO-8601 with the zone offset.'), value: MetricValueSchema }))
    .describe(
      "Every bucket of the period. When comparing, a point's previous covers the earlier range's days paired with the bucket: day k of the earlier range counts in the bucket of the period's day k (hours: the same wall-clock hour), so for counts the points' previous add up to total.previous.",
    ),
  total: MetricValueSchema.nullable().optional(),
});

/**
 * The dimension value (a string) under the dimension's name, and each asked metric under its name: every standard
 * dimension and metric is named (custom ones, `customEvent:*`, come in addition). A row holds numbers without a
 * comparison and Compared objects with one (`anyOf`: a row of custom metrics only would fit both).
 */
const breakdownRowByMode = (value: z.ZodType, mode: string) =>
  z
    .looseObject({
      ...Object.fromEntries(ANALYTICS_DIMENSION_NAMES.map((name) => [name, z.string().optional()])),
      ...Object.fromEntries(ANALYTICS_METRIC_NAMES.map((name) => [name, value.optional()])),
    })
    .describe(`A row ${mode}.`);
const breakdownRow = z.union([breakdownRowByMode(z.number(), 'without a comparison: metrics as numbers'), breakdownRowByMode(ComparedSchema, 'with a comparison: metrics as Compared objects')]);

export const SiteBreakdownResponse = z.looseObject({
  ...envelope,
  dimension: z.string(),
  metrics: z.array(z.string()),
  rows: z.array(breakdownRow),
  totalRows: z.number(),
  limit: z.number(),
  offset: z.number(),
});

export const RealtimeResponse = z.looseObject({
  project: z.string(),
  activeUsers: z.number().describe('Active users in the last 30 minutes.'),
  perMinute: z.array(z.looseObject({ minutesAgo: z.number(), activeUsers: z.number() })).optional(),
  topPages: z.array(z.looseObject({ page: z.string().describe('Page title.'), activeUsers: z.number(), screenPageViews: z.number().optional() })).optional(),
  countries: z.array(z.looseObject({ country: z.string(), activeUsers: z.number() })).optional(),
  devices: z.array(z.looseObject({ device: z.string(), activeUsers: z.number() })).optional(),
  topEvents: z.array(z.looseObject({ eventName: z.string(), eventCount: z.number() })).optional(),
  meta: MetaSchema.optional(),
});

const fieldInfo = z.looseObject({
  name: z.string(),
  uiName: z.string().optional(),
  description: z.string().optional(),
  category: z.string().optional(),
  custom: z.boolean().optional(),
  type: z.string().optional(),
});

const searchEngineFields = z.looseObject({ connected: z.boolean(), dimensions: z.array(z.string()).optional(), metrics: z.array(z.string()).optional() });

export const MetadataResponse = z.looseObject({
  project: z.string(),
  analytics: z
    .looseObject({ connected: z.boolean(), metrics: z.array(fieldInfo).optional(), dimensions: z.array(fieldInfo).optional() })
    .describe('Analytics metrics and dimensions the property accepts (standard and custom).'),
  search: z.looseObject({ engine1: searchEngineFields.optional(), engine2: searchEngineFields.optional() }).optional().describe('Search dimensions and metrics per engine.'),
  meta: MetaSchema.optional(),
});

// Search (engine1, engine2, combined) ----------------------------------------------------------------------

const searchTotalsOf = <V extends z.ZodType>(value: V) => z.looseObject({ clicks: value, impressions: value, ctr: value, position: value.nullable() });
const searchTotals = byCompareMode(searchTotalsOf(z.number()), searchTotalsOf(ComparedSchema), 'clicks, impressions, ctr (a fraction) and position (1-based; null without impressions).');

/** Plain search figures of one row or bucket (position is null without impressions). */
const searchFigures = { clicks: z.number(), impressions: z.number(), ctr: z.number(), position: z.number().nullable() };
const SearchFiguresSchema = z.looseObject(searchFigures);
const byEngine = <T extends z.ZodType>(schema: T) => z.looseObject({ engine1: schema.optional(), engine2: schema.optional() }).describe('Per engine, with sp=all: an engine not connected is left out.');
const sp = z.enum(SEARCH_PROVIDERS).describe('The search provider answered for (aliases echoed canonically).');

export const SearchSummaryResponse = z.looseObject({
  ...envelope,
  sp,
  totals: searchTotals,
  byProvider: byEngine(searchTotals).optional(),
});

export const SearchTimeseriesResponse = z.looseObject({
  ...envelope,
  sp,
  interval: z.enum(INTERVALS).optional(),
  points: z.array(z.looseObject({ date: date.optional(), time: z.string().optional(), ...searchFigures, byProvider: byEngine(SearchFiguresSchema).optional() })),
  totals: SearchFiguresSchema.optional().describe('The figures over the whole period.'),
  byProvider: byEngine(SearchFiguresSchema).optional(),
});

const searchBreakdownRow = z
  .looseObject({ ...Object.fromEntries(SEARCH_DIMENSION_NAMES.map((name) => [name, z.string().optional()])), ...searchFigures, byProvider: byEngine(SearchFiguresSchema).optional() })
  .describe('The dimension value (a string, normalised: countries ISO alpha-3 lower case) under the dimension name, plus the search figures.');

export const SearchBreakdownResponse = z.looseObject({
  ...envelope,
  sp,
  dimension: z.enum(SEARCH_DIMENSION_NAMES),
  rows: z.array(searchBreakdownRow),
  totalRows: z.number().optional(),
  limit: z.number().optional(),
  offset: z.number().optional(),
});

// Observed events and pages (what funnel steps can match) --------------------------------------------------

export const ObservedEventsResponse = z.looseObject({
  ...envelope,
  rows: z.array(z.looseObject({ eventName: z.string(), eventCount: z.number(), users: z.number().optional() })),
  totalRows: z.number().optional(),
  limit: z.number().optional(),
});

export const ObservedPagesResponse = z.looseObject({
  ...envelope,
  rows: z.array(z.looseObject({ pagePath: z.string(), screenPageViews: z.number(), users: z.number().optional() })),
  totalRows: z.number().optional(),
  limit: z.number().optional(),
});

// Landing pages (analytics joined with search) ----------------------------------------------------------------

export const LandingPagesResponse = z.looseObject({
  ...envelope,
  sp,
  rows: z.array(
    z.looseObject({
      page: z.string().describe('The normalised landing page URL.'),
      sessions: z.number(),
      engagementRate: z.number().nullable(),
      keyEvents: z.number(),
      ...searchFigures,
    }),
  ),
  totalRows: z.number().optional(),
  limit: z.number().optional(),
  offset: z.number().optional(),
});

// Insights (what changed and why, anomalies, search opportunities) ----------------------------------------------

const segment = z.looseObject({ dimension: z.string(), value: z.string() });

export const InsightChangesResponse = z.looseObject({
  ...envelope,
  metric: z.string(),
  kind: z.enum(METRIC_KINDS).describe('additive (counts: a segment contributes its own change) or ratio (mix + rate effects).'),
  sp: sp.optional(),
  change: ComparedSchema.describe("The metric's value in the period and the comparison range."),
  drivers: z
    .array(
      z.looseObject({
        dimension: z.string().describe('sessionDefaultChannelGroup, country, deviceCategory, landingPage; search: query, page, country, device, engine.'),
        value: z.string(),
        contribution: z.number().describe("This segment's part of the change, in the metric's unit, sign kept; one dimension's parts sum to its change."),
        share: z.number().nullable().optional().describe('contribution / the total change (fraction; negative when the segment moved against the total).'),
        current: z.number().nullable().optional(),
        previous: z.number().nullable().optional(),
        significant: z.boolean().describe('The answer stands behind this driver: not small next to the strongest, moving unlike the rest of its dimension, not an echo of a stronger driver.'),
        reason: z.enum(DRIVER_REASONS).optional().describe('Why not significant.'),
        echoOf: segment.optional().describe('The stronger driver this one echoes.'),
        mix: z.number().optional().describe("Ratio metrics: (w1 − w0)·(r0 − R0), the part due to the segment's weight changing."),
        rate: z.number().optional().describe("Ratio metrics: w1·(r1 − r0), the part due to the segment's own ratio changing."),
      }),
    )
    .describe('Ranked by |contribution| across dimensions; the top few of each dimension.'),
  dimensions: z
    .array(z.looseObject({ dimension: z.string(), delta: z.number(), unlisted: z.number(), segments: z.number() }))
    .optional()
    .describe("Per dimension: the change its rows add up to, and the part from values not listed."),
});

export const InsightAnomaliesResponse = z.looseObject({
  ...envelope,
  metric: z.string(),
  baseline: z.string().optional().describe('How expected values and scores are made, in words.'),
  anomalies: z.array(
    z.looseObject({
      date,
      hour: z.string().optional(),
      observed: z.number(),
      expected: z.number(),
      score: z.number().describe('log(observed/expected) in robust spreads (1.4826 × MAD); sign = direction.'),
      direction: z.enum(ANOMALY_DIRECTIONS),
      kind: z.enum(ANOMALY_KINDS).optional().describe('spike (one day) or shift (first day of a run that stays off).'),
      days: z.number().optional(),
      segment: segment.optional().describe("Set when the anomaly is in one segment's series rather than the total's."),
      drivers: z.array(z.looseObject({ dimension: z.string(), value: z.string(), observed: z.number(), expected: z.number(), contribution: z.number() })),
    }),
  ),
});

export const InsightSearchOpportunitiesResponse = z.looseObject({
  ...envelope,
  sp,
  brand: z.enum(BRAND_FILTERS).optional().describe('Which queries were considered.'),
  brandTerms: z.array(z.string()).optional(),
  ctrCurve: z.array(z.looseObject({ position: z.number(), ctr: z.number(), impressions: z.number() })).optional().describe("The site's CTR by rounded position, estimated from this period's queries and made non-increasing."),
  opportunities: z.array(
    z.looseObject({
      kind: z.enum(OPPORTUNITY_KINDS),
      brand: z.boolean().optional(),
      query: z.string().optional(),
      page: z.string().optional(),
      pages: z.array(z.string()).optional(),
      impressions: z.number(),
      clicks: z.number(),
      ctr: z.number().optional(),
      position: z.number().nullable(),
      expectedCtr: z.number().optional(),
      previousClicks: z.number().optional(),
      previousPosition: z.number().nullable().optional(),
      emerging: z.boolean().optional().describe('cannibalisation: a competing page was not competing in the range before; these come first.'),
      clicksAtStake: z.number().describe('Estimated clicks gained by fixing it (low_ctr, cannibalisation) or lost against the range before.'),
    }),
  ),
});
