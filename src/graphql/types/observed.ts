// Observed events and pages: what funnel steps can match (REST /metrics/{projectKey}/observed/*, MCP
// list_observed_*, the dashboard funnel editor's validation).
import { observedEvents, type ObservedEvents } from '../../reports/observed-events.ts';
import { observedPages, type ObservedPages } from '../../reports/observed-pages.ts';
import { builder, INTERNAL } from '../builder.ts';
import { contractArgs } from '../contract-args.ts';
import { ENVELOPE, MetaRef, PeriodRef } from './envelope.ts';
import { metricText } from './metric-fields.ts';

const USERS = { description: 'Users who did it in the period: a count.' };

const ObservedEventRef = builder.objectRef<ObservedEvents['rows'][number]>('ObservedEvent').implement({
  description: 'An event name seen in the period.',
  fields: (t) => ({ eventName: t.exposeString('eventName', { description: 'The event name.' }), eventCount: t.exposeInt('eventCount', metricText('eventCount')), users: t.exposeInt('users', USERS) }),
});

const ObservedPageRef = builder.objectRef<ObservedPages['rows'][number]>('ObservedPage').implement({
  description: 'A page path viewed in the period.',
  fields: (t) => ({ pagePath: t.exposeString('pagePath', { description: 'The page path.' }), screenPageViews: t.exposeInt('screenPageViews', metricText('screenPageViews')), users: t.exposeInt('users', USERS) }),
});

export const ObservedEventsRef = builder.objectRef<ObservedEvents>('ObservedEvents').implement({
  description: 'Events recorded in the period, most frequent first.',
  fields: (t) => ({
    project: t.exposeString('project', ENVELOPE.project),
    period: t.field({ type: PeriodRef, ...ENVELOPE.period, resolve: (r) => r.period }),
    rows: t.field({ type: [ObservedEventRef], description: 'At most `limit` events.', resolve: (r) => r.rows }),
    totalRows: t.exposeInt('totalRows', { description: 'Distinct events in the period (rows beyond limit included): a count.' }),
    limit: t.exposeInt('limit', { description: 'Rows asked for.' }),
    meta: t.field({ type: MetaRef, ...ENVELOPE.meta, resolve: (r) => r.meta }),
  }),
});

export const ObservedPagesRef = builder.objectRef<ObservedPages>('ObservedPages').implement({
  description: 'Page paths viewed in the period, most viewed first.',
  fields: (t) => ({
    project: t.exposeString('project', ENVELOPE.project),
    period: t.field({ type: PeriodRef, ...ENVELOPE.period, resolve: (r) => r.period }),
    rows: t.field({ type: [ObservedPageRef], description: 'At most `limit` pages.', resolve: (r) => r.rows }),
    totalRows: t.exposeInt('totalRows', { description: 'Distinct page paths matching the filter (rows beyond limit included): a count.' }),
    limit: t.exposeInt('limit', { description: 'Rows asked for.' }),
    meta: t.field({ type: MetaRef, ...ENVELOPE.meta, resolve: (r) => r.meta }),
  }),
});

builder.queryField('observedEvents', (t) =>
  t.field({
    type: ObservedEventsRef,
    nullable: true,
    ...INTERNAL,
    description: 'Events recorded in the period, most frequent first.',
    args: contractArgs(t.arg, ['project'], ['period', 'limit', 'force']),
    resolve: (_root, args, ctx) => observedEvents(ctx, args),
  }),
);

builder.queryField('observedPages', (t) =>
  t.field({
    type: ObservedPagesRef,
    nullable: true,
    ...INTERNAL,
    description: 'Page paths viewed in the period, most viewed first; filter on pagePath.',
    args: contractArgs(t.arg, ['project'], ['period', 'limit', 'filter', 'force']),
    resolve: (_root, args, ctx) => observedPages(ctx, args),
  }),
);
