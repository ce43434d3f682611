// Insights: `changes`, `anomalies` and `searchOpportunities` — root fields (the stored operations behind REST
// /metrics/{projectKey}/insights/* and the MCP tools explain_change, find_anomalies, find_search_opportunities)
// and the same fields on Project. Every part is typed; the reports are in src/reports/insight-*.ts.
import type { Compared } from '../../domain/compare.ts';
import type { DimensionSummary } from '../../domain/insights/drivers.ts';
import type { CurvePoint, Opportunity } from '../../domain/insights/search-opportunities.ts';
import { findMetricAnomalies, type AnomalyDriver, type AnomalyJson, type AnomalyReport } from '../../reports/insight-anomalies.ts';
import { explainChange, type ChangeExplanation, type DriverJson } from '../../reports/insight-changes.ts';
import { searchOpportunities, type SearchOpportunities } from '../../reports/insight-search-opportunities.ts';
import { builder } from '../builder.ts';
import { contractArgs } from '../contract-args.ts';
import { MetaRef, PeriodRef } from './envelope.ts';
import { ProjectRef } from './project.ts';

/** The same four numbers as a compared metric elsewhere; the lead may unify it with ComparedNumber. */
export const MetricChangeRef = builder.objectRef<Compared>('MetricChange').implement({
  description: 'A metric in the period and the comparison range: value, previous, delta = value − previous, deltaPct = delta / previous (a fraction).',
  fields: (t) => ({
    value: t.float({ nullable: true, resolve: (c) => c.value }),
    previous: t.float({ nullable: true, resolve: (c) => c.previous }),
    delta: t.float({ nullable: true, resolve: (c) => c.delta }),
    deltaPct: t.float({ nullable: true, resolve: (c) => c.deltaPct }),
  }),
});

const SegmentRef = builder.objectRef<{ dimension: string; value: string }>('InsightSegment').implement({
  description: 'One value of a dimension, e.g. country Germany.',
  fields: (t) => ({ dimension: t.exposeString('dimension'), value: t.exposeString('value') }),
});

const ChangeDriverRef = builder.objectRef<DriverJson>('ChangeDriver').implement({
  description: 'A segment and its part of the change; the parts of one dimension sum to its total change.',
  fields: (t) => ({
    dimension: t.exposeString('dimension'),
    value: t.exposeString('value'),
    contribution: t.exposeFloat('contribution', { description: 'Its part of the change, in the metric\'s unit, sign kept.' }),
    share: t.float({ nullable: true, description: 'contribution / the total change.', resolve: (d) => d.share }),
    current: t.float({ nullable: true, resolve: (d) => d.current }),
    previous: t.float({ nullable: true, resolve: (d) => d.previous }),
    significant: t.exposeBoolean('significant', { description: 'The answer stands behind it: not small, not moving with the rest, not an echo of a stronger driver.' }),
    reason: t.string({ nullable: true, description: 'Why not significant: small, in_line or echo.', resolve: (d) => d.reason ?? null }),
    echoOf: t.field({ type: SegmentRef, nullable: true, resolve: (d) => d.echoOf ?? null }),
    mix: t.float({ nullable: true, description: 'Ratio metrics: the part due to this segment\'s weight changing.', resolve: (d) => d.mix ?? null }),
    rate: t.float({ nullable: true, description: 'Ratio metrics: the part due to this segment\'s own ratio changing.', resolve: (d) => d.rate ?? null }),
  }),
});

const DimensionChangeRef = builder.objectRef<DimensionSummary>('DimensionChange').implement({
  fields: (t) => ({
    dimension: t.exposeString('dimension'),
    delta: t.exposeFloat('delta', { description: "The change over this dimension's rows (what its contributions sum to)." }),
    unlisted: t.exposeFloat('unlisted', { description: 'The part of delta from values not listed among the drivers.' }),
    segments: t.exposeInt('segments'),
  }),
});

const ChangeExplanationRef = builder.objectRef<ChangeExplanation>('ChangeExplanation').implement({
  fields: (t) => ({
    project: t.exposeString('project'),
    period: t.field({ type: PeriodRef, resolve: (c) => c.period }),
    metric: t.exposeString('metric'),
    kind: t.exposeString('kind', { description: 'additive or ratio.' }),
    sp: t.string({ nullable: true, resolve: (c) => c.sp ?? null }),
    change: t.field({ type: MetricChangeRef, resolve: (c) => c.change }),
    drivers: t.field({ type: [ChangeDriverRef], resolve: (c) => c.drivers }),
    dimensions: t.field({ type: [DimensionChangeRef], resolve: (c) => c.dimensions }),
    meta: t.field({ type: MetaRef, resolve: (c) => c.meta }),
  }),
});

const AnomalyDriverRef = builder.objectRef<AnomalyDriver>('AnomalyDriver').implement({
  fields: (t) => ({
    dimension: t.exposeString('dimension'),
    value: t.exposeString('value'),
    observed: t.exposeFloat('observed'),
    expected: t.exposeFloat('expected'),
    contribution: t.exposeFloat('contribution', { description: 'observed − expected of this segment that day.' }),
  }),
});

const AnomalyRef = builder.objectRef<AnomalyJson>('Anomaly').implement({
  fields: (t) => ({
    date: t.field({ type: 'Date', resolve: (a) => a.date }),
    hour: t.string({ nullable: true, description: 'interval=hour: the hour, ISO-8601 with the project zone offset.', resolve: (a) => a.hour ?? null }),
    observed: t.exposeFloat('observed'),
    expected: t.exposeFloat('expected'),
    score: t.exposeFloat('score', { description: 'How far off, in robust spreads; sign = direction.' }),
    direction: t.exposeString('direction', { description: 'up or down.' }),
    kind: t.exposeString('kind', { description: 'spike (one day) or shift (the first day of a run that stays off).' }),
    days: t.exposeInt('days'),
    segment: t.field({ type: SegmentRef, nullable: true, description: "Set when found in a segment's own series.", resolve: (a) => a.segment ?? null }),
    drivers: t.field({ type: [AnomalyDriverRef], resolve: (a) => a.drivers }),
  }),
});

const AnomalyReportRef = builder.objectRef<AnomalyReport>('AnomalyReport').implement({
  fields: (t) => ({
    project: t.exposeString('project'),
    period: t.field({ type: PeriodRef, resolve: (a) => a.period }),
    metric: t.exposeString('metric'),
    baseline: t.exposeString('baseline'),
    anomalies: t.field({ type: [AnomalyRef], resolve: (a) => a.anomalies }),
    meta: t.field({ type: MetaRef, resolve: (a) => a.meta }),
  }),
});

const CtrCurvePointRef = builder.objectRef<CurvePoint>('CtrCurvePoint').implement({
  fields: (t) => ({ position: t.exposeInt('position'), ctr: t.exposeFloat('ctr'), impressions: t.exposeInt('impressions') }),
});

const SearchOpportunityRef = builder.objectRef<Opportunity>('SearchOpportunity').implement({
  fields: (t) => ({
    kind: t.exposeString('kind', { description: 'low_ctr, losing_clicks, lost_query or cannibalisation.' }),
    brand: t.boolean({ nullable: true, resolve: (o) => o.brand ?? null }),
    query: t.string({ nullable: true, resolve: (o) => o.query ?? null }),
    page: t.string({ nullable: true, resolve: (o) => o.page ?? null }),
    pages: t.stringList({ nullable: true, resolve: (o) => o.pages ?? null }),
    impressions: t.exposeInt('impressions'),
    clicks: t.exposeInt('clicks'),
    ctr: t.exposeFloat('ctr'),
    position: t.float({ nullable: true, resolve: (o) => o.position }),
    expectedCtr: t.float({ nullable: true, resolve: (o) => o.expectedCtr ?? null }),
    previousClicks: t.int({ nullable: true, resolve: (o) => o.previousClicks ?? null }),
    previousPosition: t.float({ nullable: true, resolve: (o) => o.previousPosition ?? null }),
    emerging: t.boolean({ nullable: true, description: 'cannibalisation: a competing page was not competing in the range before.', resolve: (o) => o.emerging ?? null }),
    clicksAtStake: t.exposeInt('clicksAtStake'),
  }),
});

const SearchOpportunitiesRef = builder.objectRef<SearchOpportunities>('SearchOpportunities').implement({
  fields: (t) => ({
    project: t.exposeString('project'),
    period: t.field({ type: PeriodRef, resolve: (s) => s.period }),
    sp: t.exposeString('sp'),
    brand: t.exposeString('brand'),
    brandTerms: t.exposeStringList('brandTerms'),
    ctrCurve: t.field({ type: [CtrCurvePointRef], resolve: (s) => s.ctrCurve }),
    opportunities: t.field({ type: [SearchOpportunityRef], resolve: (s) => s.opportunities }),
    meta: t.field({ type: MetaRef, resolve: (s) => s.meta }),
  }),
});

const CHANGES_ARGS = ['period', 'compare', 'metric', 'sp', 'force'] as const;
const ANOMALIES_ARGS = ['period', 'metric', 'interval', 'force'] as const;
const OPPORTUNITIES_ARGS = ['period', 'sp', 'brand', 'force'] as const;

builder.queryField('changes', (t) =>
  t.field({
    type: ChangeExplanationRef,
    description: "A metric's change against the previous period (or year), decomposed by the dimensions that explain it.",
    args: contractArgs(t.arg, ['project'], CHANGES_ARGS),
    resolve: (_root, args, ctx) => explainChange(ctx, args),
  }),
);

builder.queryField('anomalies', (t) =>
  t.field({
    type: AnomalyReportRef,
    description: "Days that break the metric's own weekday pattern, in the total and in its largest segments.",
    args: contractArgs(t.arg, ['project'], ANOMALIES_ARGS),
    resolve: (_root, args, ctx) => findMetricAnomalies(ctx, args),
  }),
);

builder.queryField('searchOpportunities', (t) =>
  t.field({
    type: SearchOpportunitiesRef,
    description: 'Low-CTR queries, queries and pages losing clicks, lost queries and cannibalisation, with clicks at stake.',
    args: contractArgs(t.arg, ['project'], OPPORTUNITIES_ARGS),
    resolve: (_root, args, ctx) => searchOpportunities(ctx, args),
  }),
);

type ArgBuilder = Parameters<typeof contractArgs>[0];

builder.objectFields(ProjectRef, (t) => ({
  changes: t.field({
    type: ChangeExplanationRef,
    args: contractArgs(t.arg as unknown as ArgBuilder, [], CHANGES_ARGS),
    resolve: (project, args, ctx) => explainChange(ctx, { ...args, project: project.key }),
  }),
  anomalies: t.field({
    type: AnomalyReportRef,
    args: contractArgs(t.arg as unknown as ArgBuilder, [], ANOMALIES_ARGS),
    resolve: (project, args, ctx) => findMetricAnomalies(ctx, { ...args, project: project.key }),
  }),
  searchOpportunities: t.field({
    type: SearchOpportunitiesRef,
    args: contractArgs(t.arg as unknown as ArgBuilder, [], OPPORTUNITIES_ARGS),
    resolve: (project, args, ctx) => searchOpportunities(ctx, { ...args, project: project.key }),
  }),
}));
