// LandingPages: the `landingPages` query field (REST /metrics/{projectKey}/landing-pages).
import { landingPages, type LandingPageRow, type LandingPages } from '../../reports/landing-pages.ts';
import { builder } from '../builder.ts';
import { contractArgs } from '../contract-args.ts';
import { MetaRef, PeriodRef } from './envelope.ts';

const LandingPageRowRef = builder.objectRef<LandingPageRow>('LandingPageRow').implement({
  description: 'A landing page with its analytics and search figures.',
  fields: (t) => ({
    page: t.exposeString('page', { description: 'The normalised URL both providers were joined on.' }),
    sessions: t.exposeFloat('sessions'),
    engagementRate: t.exposeFloat('engagementRate'),
    keyEvents: t.exposeFloat('keyEvents'),
    clicks: t.exposeFloat('clicks'),
    impressions: t.exposeFloat('impressions'),
    ctr: t.exposeFloat('ctr'),
    position: t.float({ nullable: true, description: 'Null without search data.', resolve: (r) => r.position }),
  }),
});

export const LandingPagesRef = builder.objectRef<LandingPages>('LandingPages').implement({
  fields: (t) => ({
    project: t.exposeString('project'),
    period: t.field({ type: PeriodRef, resolve: (s) => s.period }),
    sp: t.exposeString('sp'),
    rows: t.field({ type: [LandingPageRowRef], resolve: (s) => s.rows }),
    totalRows: t.exposeInt('totalRows'),
    limit: t.exposeInt('limit'),
    offset: t.exposeInt('offset'),
    meta: t.field({ type: MetaRef, resolve: (s) => s.meta }),
  }),
});

builder.queryField('landingPages', (t) =>
  t.field({
    type: LandingPagesRef,
    description: 'Analytics landing pages joined with search pages on the normalised URL.',
    args: contractArgs(t.arg, ['project'], ['period', 'sp', 'limit', 'offset', 'order', 'filter', 'force']),
    resolve: (_root, args, ctx) => landingPages(ctx, args),
  }),
);
