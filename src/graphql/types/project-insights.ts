// Project's insight and observed-data fields, typed like its report fields (./project-data.ts): what changed and
// why, anomalous days, search opportunities, and the events and pages funnel steps can match.
import { findMetricAnomalies } from '../../reports/insight-anomalies.ts';
import { explainChange } from '../../reports/insight-changes.ts';
import { searchOpportunities } from '../../reports/insight-search-opportunities.ts';
import { observedEvents } from '../../reports/observed-events.ts';
import { observedPages } from '../../reports/observed-pages.ts';
import { builder } from '../builder.ts';
import { AnomalyReportRef, ChangeExplanationRef, SearchOpportunitiesRef } from './insights.ts';
import { ObservedEventsRef, ObservedPagesRef } from './observed.ts';
import { ProjectRef } from './project.ts';
import { report, typed } from './typed-args.ts';

builder.objectFields(ProjectRef, (t) => ({
  changes: t.field({
    type: ChangeExplanationRef,
    nullable: true,
    description: "A metric's change against the previous period (compare: year — a year earlier) and the segments that explain it.",
    args: { metric: typed.metric(t.arg), period: typed.period(t.arg), compare: typed.compare(t.arg), sp: typed.sp(t.arg), force: typed.force(t.arg) },
    resolve: report(explainChange),
  }),
  anomalies: t.field({
    type: AnomalyReportRef,
    nullable: true,
    description: "Days that break the metric's own weekday pattern (period default 90days), in the total and in its largest segments.",
    args: { metric: typed.metric(t.arg), period: typed.period(t.arg), interval: typed.anomalyInterval(t.arg), force: typed.force(t.arg) },
    resolve: report(findMetricAnomalies),
  }),
  searchOpportunities: t.field({
    type: SearchOpportunitiesRef,
    nullable: true,
    description: 'Low-CTR queries, queries and pages losing clicks, lost queries and cannibalisation, with clicks at stake.',
    args: { period: typed.period(t.arg), sp: typed.sp(t.arg), brand: typed.brand(t.arg), force: typed.force(t.arg) },
    resolve: report(searchOpportunities),
  }),
  observedEvents: t.field({
    type: ObservedEventsRef,
    nullable: true,
    description: 'Events recorded in the period, most frequent first: what event steps of a funnel can match.',
    args: { period: typed.period(t.arg), limit: typed.limit(t.arg), force: typed.force(t.arg) },
    resolve: report(observedEvents),
  }),
  observedPages: t.field({
    type: ObservedPagesRef,
    nullable: true,
    description: 'Page paths viewed in the period, most viewed first: what page steps of a funnel can match.',
    args: { period: typed.period(t.arg), limit: typed.limit(t.arg), filter: typed.filter(t.arg), force: typed.force(t.arg) },
    resolve: report(observedPages),
  }),
}));
