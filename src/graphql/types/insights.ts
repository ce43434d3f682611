// Insights: `changes`, `anomalies` and `searchOpportunities` — internal root fields (the stored operations behind
// REST /metrics/{projectKey}/insights/* and the MCP tools explain_change, find_anomalies, find_search_opportunities)
// and the same reports as typed fields of Project. The reports are in src/reports/insight-*.ts.
import { DRIVER_REASONS, METRIC_KINDS, SEARCH_PROVIDERS } from '../../contract/words.ts';
import type { DimensionSummary } from '../../domain/insights/drivers.ts';
import type { CurvePoint, Opportunity } from '../../domain/insights/search-opportunities.ts';
import { findMetricAnomalies, type AnomalyDriver, type AnomalyJson, type AnomalyReport } from '../../reports/insight-anomalies.ts';
import { explainChange, type ChangeExplanation, type DriverJson } from '../../reports/insight-changes.ts';
import { searchOpportunities, type SearchOpportunities } from '../../reports/insight-search-opportunities.ts';
import { builder, INTERNAL } from '../builder.ts';
import { ComparedNumberRef } from './compared-number.ts';
import { contractArgs } from '../contract-args.ts';
import { ENVELOPE, MetaRef, PeriodRef } from './envelope.ts';
import { AnomalyDirectionRef, AnomalyKindRef, BrandFilterRef, DriverReasonRef, MetricKindRef, OpportunityKindRef, SearchProviderRef, wordOf } from './enums.ts';
import { SEARCH_FIGURE_TEXT } from './search-figures.ts';

const IN_UNIT = "in the metric's unit";

const SegmentRef = builder.objectRef<{ dimension: string; value: string }>('InsightSegment').implement({
  description: 'One value of a dimension, e.g. country Germany.',
  fields: (t) => ({ dimension: t.exposeString('dimension', { description: 'The dimension.' }), value: t.exposeString('value', { description: 'Its value.' }) }),
});

const ChangeDriverRef = builder.objectRef<DriverJson>('ChangeDriver').implement({
  description: 'A segment and its part of the change; the parts of one dimension sum to its total change.',
  fields: (t) => ({
    dimension: t.exposeString('dimension', { description: 'sessionDefaultChannelGroup, country, deviceCategory, landingPage; search: query, page, country, device, engine.' }),
    value: t.exposeString('value', { description: 'The segment’s value.' }),
    contribution: t.exposeFloat('contribution', { description: `Its part of the change, ${IN_UNIT}, sign kept.` }),
    share: t.float({ nullable: true, description: 'contribution / the total change: a fraction (negative when it moved against the total); null when the total did not change.', resolve: (d) => d.share }),
    current: t.float({ nullable: true, description: `The segment's value in the period, ${IN_UNIT}; null when not defined (a ratio without a denominator).`, resolve: (d) => d.current }),
    previous: t.float({ nullable: true, description: `The segment's value in the comparison range, ${IN_UNIT}; null when not defined.`, resolve: (d) => d.previous }),
    significant: t.exposeBoolean('significant', { description: 'The answer stands behind it: not small, not moving with the rest, not an echo of a stronger driver.' }),
    reason: t.field({ type: DriverReasonRef, nullable: true, description: 'Why not significant; null when significant.', resolve: (d) => (d.reason === undefined ? null : wordOf(DRIVER_REASONS, d.reason)) }),
    echoOf: t.field({ type: SegmentRef, nullable: true, description: 'The stronger driver this one echoes; null otherwise.', resolve: (d) => d.echoOf ?? null }),
    mix: t.float({ nullable: true, description: `Ratio metrics: the part due to this segment's weight changing, ${IN_UNIT}; null for counts.`, resolve: (d) => d.mix ?? null }),
    rate: t.float({ nullable: true, description: `Ratio metrics: the part due to this segment's own ratio changing, ${IN_UNIT}; null for counts.`, resolve: (d) => d.rate ?? null }),
  }),
});

const DimensionChangeRef = builder.objectRef<DimensionSummary>('DimensionChange').implement({
  description: 'The change as one dimension splits it.',
  fields: (t) => ({
    dimension: t.exposeString('dimension', { description: 'The dimension.' }),
    delta: t.exposeFloat('delta', { description: `The change over this dimension's rows (what its contributions sum to), ${IN_UNIT}.` }),
    unlisted: t.exposeFloat('unlisted', { description: `The part of delta from values not listed among the drivers, ${IN_UNIT}.` }),
    segments: t.exposeInt('segments', { description: 'Values of the dimension with data: a count.' }),
  }),
});

export const ChangeExplanationRef = builder.objectRef<ChangeExplanation>('ChangeExplanation').implement({
  description: "A metric's change against the comparison range, and the segments that explain it.",
  fields: (t) => ({
    project: t.exposeString('project', ENVELOPE.project),
    period: t.field({ type: PeriodRef, ...ENVELOPE.period, resolve: (c) => c.period }),
    metric: t.exposeString('metric', { description: 'The metric explained.' }),
    kind: t.field({ type: MetricKindRef, description: 'How its change splits.', resolve: (c) => wordOf(METRIC_KINDS, c.kind) }),
    sp: t.field({ type: SearchProviderRef, nullable: true, description: 'Search metrics: the engines; null for analytics metrics.', resolve: (c) => (c.sp === undefined ? null : wordOf(SEARCH_PROVIDERS, c.sp)) }),
    change: t.field({ type: ComparedNumberRef, description: `The metric in the period and the comparison range, ${IN_UNIT}.`, resolve: (c) => c.change }),
    drivers: t.field({ type: [ChangeDriverRef], description: 'Ranked by |contribution| across dimensions; the top few of each.', resolve: (c) => c.drivers }),
    dimensions: t.field({ type: [DimensionChangeRef], description: 'Per dimension: the change its rows add up to.', resolve: (c) => c.dimensions }),
    meta: t.field({ type: MetaRef, ...ENVELOPE.meta, resolve: (c) => c.meta }),
  }),
});

const AnomalyDriverRef = builder.objectRef<AnomalyDriver>('AnomalyDriver').implement({
  description: 'A segment that moved that day.',
  fields: (t) => ({
    dimension: t.exposeString('dimension', { description: 'The dimension.' }),
    value: t.exposeString('value', { description: 'The segment’s value.' }),
    observed: t.exposeFloat('observed', { description: `The segment that day, ${IN_UNIT}.` }),
    expected: t.exposeFloat('expected', { description: `What its own pattern expected, ${IN_UNIT}.` }),
    contribution: t.exposeFloat('contribution', { description: `observed − expected, ${IN_UNIT}.` }),
  }),
});

const AnomalyRef = builder.objectRef<AnomalyJson>('Anomaly').implement({
  description: "A day (or hour) that broke the metric's own pattern.",
  fields: (t) => ({
    date: t.field({ type: 'Date', description: 'The day (for a shift: its first day).', resolve: (a) => a.date }),
    hour: t.field({ type: 'DateTime', nullable: true, description: 'interval=hour: the hour, with the project zone offset; null for days.', resolve: (a) => a.hour ?? null }),
    observed: t.exposeFloat('observed', { description: `The value that day, ${IN_UNIT}.` }),
    expected: t.exposeFloat('expected', { description: `What the pattern expected, ${IN_UNIT}.` }),
    score: t.exposeFloat('score', { description: 'How far off: log(observed/expected) in robust spreads (1.4826 × MAD); sign = direction.' }),
    direction: t.field({ type: AnomalyDirectionRef, description: 'Above or below what was expected.', resolve: (a) => a.direction }),
    kind: t.field({ type: AnomalyKindRef, description: 'One day off, or a run that stays off.', resolve: (a) => a.kind }),
    days: t.exposeInt('days', { description: 'Days it stayed off (1 for a spike): a count.' }),
    segment: t.field({ type: SegmentRef, nullable: true, description: "Set when found in a segment's own series; null for the total.", resolve: (a) => a.segment ?? null }),
    drivers: t.field({ type: [AnomalyDriverRef], description: 'The segments that moved most that day.', resolve: (a) => a.drivers }),
  }),
});

export const AnomalyReportRef = builder.objectRef<AnomalyReport>('AnomalyReport').implement({
  description: "Days that break the metric's own weekday pattern, in the total and in its largest segments.",
  fields: (t) => ({
    project: t.exposeString('project', ENVELOPE.project),
    period: t.field({ type: PeriodRef, ...ENVELOPE.period, resolve: (a) => a.period }),
    metric: t.exposeString('metric', { description: 'The metric watched.' }),
    baseline: t.exposeString('baseline', { description: 'How expected values and scores are made, in words.' }),
    anomalies: t.field({ type: [AnomalyRef], description: 'In date order.', resolve: (a) => a.anomalies }),
    meta: t.field({ type: MetaRef, ...ENVELOPE.meta, resolve: (a) => a.meta }),
  }),
});

const CtrCurvePointRef = builder.objectRef<CurvePoint>('CtrCurvePoint').implement({
  description: "The site's CTR at one rounded position.",
  fields: (t) => ({
    position: t.exposeInt('position', { description: 'The rounded position, 1–20.' }),
    ctr: t.exposeFloat('ctr', SEARCH_FIGURE_TEXT.ctr),
    impressions: t.exposeInt('impressions', SEARCH_FIGURE_TEXT.impressions),
  }),
});

const SearchOpportunityRef = builder.objectRef<Opportunity>('SearchOpportunity').implement({
  description: 'A search query or page worth work, with the numbers behind it.',
  fields: (t) => ({
    kind: t.field({ type: OpportunityKindRef, description: 'What kind of opportunity.', resolve: (o) => o.kind }),
    brand: t.boolean({ nullable: true, description: "Whether the query names the site's brand; null for page opportunities.", resolve: (o) => o.brand ?? null }),
    query: t.string({ nullable: true, description: 'The query; null for page opportunities.', resolve: (o) => o.query ?? null }),
    page: t.string({ nullable: true, description: 'The page; null when several compete (see pages) or none is known.', resolve: (o) => o.page ?? null }),
    pages: t.stringList({ nullable: true, description: 'cannibalisation: the competing pages; null otherwise.', resolve: (o) => o.pages ?? null }),
    impressions: t.exposeInt('impressions', SEARCH_FIGURE_TEXT.impressions),
    clicks: t.exposeInt('clicks', SEARCH_FIGURE_TEXT.clicks),
    ctr: t.exposeFloat('ctr', SEARCH_FIGURE_TEXT.ctr),
    position: t.float({ nullable: true, ...SEARCH_FIGURE_TEXT.position, resolve: (o) => o.position }),
    expectedCtr: t.float({ nullable: true, description: "low_ctr: the site's CTR at this position (a fraction 0–1); null otherwise.", resolve: (o) => o.expectedCtr ?? null }),
    previousClicks: t.int({ nullable: true, description: 'Clicks in the range before: a count; null when not compared.', resolve: (o) => o.previousClicks ?? null }),
    previousPosition: t.float({ nullable: true, description: 'The position in the range before (1-based); null when not compared or without impressions then.', resolve: (o) => o.previousPosition ?? null }),
    emerging: t.boolean({ nullable: true, description: 'cannibalisation: a competing page was not competing in the range before; null otherwise.', resolve: (o) => o.emerging ?? null }),
    clicksAtStake: t.exposeInt('clicksAtStake', { description: 'Estimated clicks gained by fixing it (low_ctr, cannibalisation) or lost against the range before: a count.' }),
  }),
});

export const SearchOpportunitiesRef = builder.objectRef<SearchOpportunities>('SearchOpportunities').implement({
  description: 'Low-CTR queries, queries and pages losing clicks, lost queries and cannibalisation, with clicks at stake.',
  fields: (t) => ({
    project: t.exposeString('project', ENVELOPE.project),
    period: t.field({ type: PeriodRef, ...ENVELOPE.period, resolve: (s) => s.period }),
    sp: t.field({ type: SearchProviderRef, description: 'The engines read.', resolve: (s) => wordOf(SEARCH_PROVIDERS, s.sp) }),
    brand: t.field({ type: BrandFilterRef, description: 'Which queries were considered.', resolve: (s) => s.brand }),
    brandTerms: t.exposeStringList('brandTerms', { description: 'The terms that make a query a brand query.' }),
    ctrCurve: t.field({ type: [CtrCurvePointRef], description: "The site's CTR by rounded position, from this period's queries, made non-increasing.", resolve: (s) => s.ctrCurve }),
    opportunities: t.field({ type: [SearchOpportunityRef], description: 'At most 15 per kind.', resolve: (s) => s.opportunities }),
    meta: t.field({ type: MetaRef, ...ENVELOPE.meta, resolve: (s) => s.meta }),
  }),
});

const CHANGES_ARGS = ['period', 'compare', 'metric', 'sp', 'force'] as const;
const ANOMALIES_ARGS = ['period', 'metric', 'interval', 'force'] as const;
const OPPORTUNITIES_ARGS = ['period', 'sp', 'brand', 'force'] as const;

builder.queryField('changes', (t) =>
  t.field({
    type: ChangeExplanationRef,
    nullable: true,
    ...INTERNAL,
    description: "A metric's change against the previous period (or year), decomposed by the dimensions that explain it.",
    args: contractArgs(t.arg, ['project'], CHANGES_ARGS),
    resolve: (_root, args, ctx) => explainChange(ctx, args),
  }),
);

builder.queryField('anomalies', (t) =>
  t.field({
    type: AnomalyReportRef,
    nullable: true,
    ...INTERNAL,
    description: "Days that break the metric's own weekday pattern, in the total and in its largest segments.",
    args: contractArgs(t.arg, ['project'], ANOMALIES_ARGS),
    resolve: (_root, args, ctx) => findMetricAnomalies(ctx, args),
  }),
);

builder.queryField('searchOpportunities', (t) =>
  t.field({
    type: SearchOpportunitiesRef,
    nullable: true,
    ...INTERNAL,
    description: 'Low-CTR queries, queries and pages losing clicks, lost queries and cannibalisation, with clicks at stake.',
    args: contractArgs(t.arg, ['project'], OPPORTUNITIES_ARGS),
    resolve: (_root, args, ctx) => searchOpportunities(ctx, args),
  }),
);
