// LandingPages: the `landingPages` query field (REST /metrics/{projectKey}/landing-pages).
import { landingPages, type LandingPageRow, type LandingPages } from '../../reports/landing-pages.ts';
import { builder, INTERNAL } from '../builder.ts';
import { contractArgs } from '../contract-args.ts';
import { ENVELOPE, MetaRef, PeriodRef } from './envelope.ts';
import { SEARCH_PROVIDERS } from '../../contract/words.ts';
import { SearchProviderRef, wordOf } from './enums.ts';
import { metricText } from './metric-fields.ts';

const LandingPageRowRef = builder.objectRef<LandingPageRow>('LandingPageRow').implement({
  description: 'A landing page with its analytics and search figures.',
  fields: (t) => ({
    page: t.exposeString('page', { description: 'The normalised URL both providers were joined on.' }),
    sessions: t.exposeInt('sessions', metricText('sessions', 'Sessions that began on this page.')),
    engagementRate: t.float({ nullable: true, ...metricText('engagementRate', 'Null without sessions.'), resolve: (r) => r.engagementRate }),
    keyEvents: t.exposeFloat('keyEvents', metricText('keyEvents', 'The provider reports key events as a decimal.')),
    clicks: t.exposeInt('clicks', metricText('clicks')),
    impressions: t.exposeInt('impressions', metricText('impressions')),
    ctr: t.exposeFloat('ctr', metricText('ctr')),
    position: t.float({ nullable: true, ...metricText('position', 'Null without search impressions.'), resolve: (r) => r.position }),
  }),
});

export const LandingPagesRef = builder.objectRef<LandingPages>('LandingPages').implement({
  description: 'Landing pages: analytics joined with search data on the normalised URL.',
  fields: (t) => ({
    project: t.exposeString('project', ENVELOPE.project),
    period: t.field({ type: PeriodRef, ...ENVELOPE.period, resolve: (s) => s.period }),
    sp: t.field({ type: SearchProviderRef, description: 'The engines the search figures come from.', resolve: (s) => wordOf(SEARCH_PROVIDERS, s.sp) }),
    rows: t.field({ type: [LandingPageRowRef], description: 'A page of rows, ordered as asked.', resolve: (s) => s.rows }),
    totalRows: t.exposeInt('totalRows', { description: 'Rows in all pages: a count.' }),
    limit: t.exposeInt('limit', { description: 'Rows per page.' }),
    offset: t.exposeInt('offset', { description: 'Rows skipped before this page.' }),
    meta: t.field({ type: MetaRef, ...ENVELOPE.meta, resolve: (s) => s.meta }),
  }),
});

builder.queryField('landingPages', (t) =>
  t.field({
    type: LandingPagesRef,
    nullable: true,
    ...INTERNAL,
    description: 'Analytics landing pages joined with search pages on the normalised URL.',
    args: contractArgs(t.arg, ['project'], ['period', 'sp', 'limit', 'offset', 'order', 'filter', 'force']),
    resolve: (_root, args, ctx) => landingPages(ctx, args),
  }),
);
