// ObservedEvents / ObservedPages: what a property recorded (MCP list_observed_events / list_observed_pages, and
// the funnel preview's validation).
import { observedEvents, type ObservedEvents } from '../../reports/observed-events.ts';
import { observedPages, type ObservedPages } from '../../reports/observed-pages.ts';
import { builder } from '../builder.ts';
import { contractArgs } from '../contract-args.ts';
import { MetaRef, PeriodRef } from './envelope.ts';

const ObservedEventRef = builder.objectRef<ObservedEvents['rows'][number]>('ObservedEvent').implement({
  fields: (t) => ({ eventName: t.exposeString('eventName'), eventCount: t.exposeInt('eventCount'), users: t.exposeInt('users') }),
});

const ObservedPageRef = builder.objectRef<ObservedPages['rows'][number]>('ObservedPage').implement({
  fields: (t) => ({ pagePath: t.exposeString('pagePath'), screenPageViews: t.exposeInt('screenPageViews'), users: t.exposeInt('users') }),
});

const ObservedEventsRef = builder.objectRef<ObservedEvents>('ObservedEvents').implement({
  fields: (t) => ({
    project: t.exposeString('project'),
    period: t.field({ type: PeriodRef, resolve: (r) => r.period }),
    rows: t.field({ type: [ObservedEventRef], resolve: (r) => r.rows }),
    totalRows: t.exposeInt('totalRows', { description: 'Distinct events in the period (rows beyond limit included).' }),
    limit: t.exposeInt('limit'),
    meta: t.field({ type: MetaRef, resolve: (r) => r.meta }),
  }),
});

const ObservedPagesRef = builder.objectRef<ObservedPages>('ObservedPages').implement({
  fields: (t) => ({
    project: t.exposeString('project'),
    period: t.field({ type: PeriodRef, resolve: (r) => r.period }),
    rows: t.field({ type: [ObservedPageRef], resolve: (r) => r.rows }),
    totalRows: t.exposeInt('totalRows', { description: 'Distinct page paths matching the filter (rows beyond limit included).' }),
    limit: t.exposeInt('limit'),
    meta: t.field({ type: MetaRef, resolve: (r) => r.meta }),
  }),
});

builder.queryField('observedEvents', (t) =>
  t.field({
    type: ObservedEventsRef,
    description: 'Events recorded in the period, most frequent first.',
    args: contractArgs(t.arg, ['project'], ['period', 'limit', 'force']),
    resolve: (_root, args, ctx) => observedEvents(ctx, args),
  }),
);

builder.queryField('observedPages', (t) =>
  t.field({
    type: ObservedPagesRef,
    description: 'Page paths viewed in the period, most viewed first; filter on pagePath.',
    args: contractArgs(t.arg, ['project'], ['period', 'limit', 'filter', 'force']),
    resolve: (_root, args, ctx) => observedPages(ctx, args),
  }),
);
