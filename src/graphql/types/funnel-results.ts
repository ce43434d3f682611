// FunnelResults: the `funnelResults` query field (REST /funnels/{funnelKey}/results, MCP get_funnel_results).
import { PARAMETERS } from '../../contract/parameters.ts';
import { funnelResults, requireVisibleFunnel, type FunnelResults, type FunnelStepResult } from '../../reports/funnel-results.ts';
import { builder } from '../builder.ts';
import { contractArgs } from '../contract-args.ts';
import { MetaRef, PeriodRef } from './envelope.ts';
import { FunnelRef } from './funnel.ts';

const FunnelRefRef = builder.objectRef<FunnelResults['funnel']>('FunnelRef').implement({
  fields: (t) => ({ key: t.exposeString('key'), name: t.exposeString('name') }),
});

export const FunnelStepResultRef = builder.objectRef<FunnelStepResult>('FunnelStepResult').implement({
  fields: (t) => ({
    name: t.exposeString('name'),
    users: t.exposeInt('users', { description: 'Users who reached this step (closed funnel: entered at step 1).' }),
    conversionRate: t.exposeFloat('conversionRate', { description: 'users / users of step 1, a fraction.' }),
    dropOff: t.exposeInt('dropOff', { description: 'Users lost since the previous step.' }),
    dropOffRate: t.exposeFloat('dropOffRate', { description: 'dropOff / users of the previous step.' }),
  }),
});

const FunnelResultsRef = builder.objectRef<FunnelResults>('FunnelResults').implement({
  fields: (t) => ({
    project: t.exposeString('project'),
    period: t.field({ type: PeriodRef, resolve: (r) => r.period }),
    funnel: t.field({ type: FunnelRefRef, resolve: (r) => r.funnel }),
    steps: t.field({ type: [FunnelStepResultRef], resolve: (r) => r.steps }),
    completionRate: t.exposeFloat('completionRate', { description: 'users of the last step / users of step 1.' }),
    meta: t.field({ type: MetaRef, resolve: (r) => r.meta }),
  }),
});

builder.queryField('funnelResults', (t) =>
  t.field({
    type: FunnelResultsRef,
    description: "A stored funnel's users per step for a period (one provider funnel report).",
    args: contractArgs(t.arg, ['funnel'], ['period', 'force']),
    resolve: (_root, args, ctx) => funnelResults(ctx, args),
  }),
);

builder.objectField(FunnelRef, 'results', (t) =>
  t.field({
    type: FunnelResultsRef,
    description: "The funnel's users per step for a period (one provider funnel report).",
    args: { period: t.arg({ type: 'Period', description: PARAMETERS.period.description }), force: t.arg.boolean({ description: 'true bypasses the cache and refreshes it.' }) },
    resolve: (funnel, { period, force }, ctx) =>
      funnelResults(ctx, { funnel: funnel.key, period: period ?? undefined, force: force === null || force === undefined ? undefined : force ? '1' : '0' }),
  }),
);

builder.queryField('funnel', (t) =>
  t.field({
    type: FunnelRef,
    description: 'One stored funnel by key; unknown funnels and funnels of projects you cannot read are the same not_found error.',
    args: { key: t.arg.string({ required: true, description: PARAMETERS.funnel.description }) },
    resolve: async (_root, { key }, ctx) => (await requireVisibleFunnel(ctx, key)).funnel,
  }),
);
