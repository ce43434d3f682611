// FunnelResults: the `funnelResults` query field (REST /funnels/{funnelKey}/results, MCP get_funnel_results),
// Funnel.results and the `funnel(key)` entry.
import { PARAMETERS } from '../../contract/parameters.ts';
import { funnelResults, requireVisibleFunnel, type FunnelResults, type FunnelStepResult } from '../../reports/funnel-results.ts';
import { builder, INTERNAL } from '../builder.ts';
import { contractArgs } from '../contract-args.ts';
import { ENVELOPE, MetaRef, PeriodRef } from './envelope.ts';
import { FunnelRef } from './funnel.ts';

const FunnelRefRef = builder.objectRef<FunnelResults['funnel']>('FunnelRef').implement({
  description: 'The funnel the results are of.',
  fields: (t) => ({ key: t.exposeString('key', { description: 'The funnel key.' }), name: t.exposeString('name', { description: 'Display name.' }) }),
});

export const FunnelStepResultRef = builder.objectRef<FunnelStepResult>('FunnelStepResult').implement({
  description: 'Users reaching one step.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The step’s label.' }),
    users: t.exposeInt('users', { description: 'Users who reached this step (closed funnel: entered at step 1): a count.' }),
    conversionRate: t.exposeFloat('conversionRate', { description: 'users / users of step 1: a fraction 0–1 (0 when step 1 has none).' }),
    dropOff: t.exposeInt('dropOff', { description: 'Users lost since the previous step: a count (0 for step 1).' }),
    dropOffRate: t.exposeFloat('dropOffRate', { description: 'dropOff / users of the previous step: a fraction 0–1.' }),
  }),
});

export const FUNNEL_COMPLETION_TEXT = { description: 'users of the last step / users of step 1: a fraction 0–1.' };

const FunnelResultsRef = builder.objectRef<FunnelResults>('FunnelResults').implement({
  description: "A stored funnel's users per step for a period.",
  fields: (t) => ({
    project: t.exposeString('project', ENVELOPE.project),
    period: t.field({ type: PeriodRef, ...ENVELOPE.period, resolve: (r) => r.period }),
    funnel: t.field({ type: FunnelRefRef, description: 'The funnel.', resolve: (r) => r.funnel }),
    steps: t.field({ type: [FunnelStepResultRef], description: 'Every step, in order.', resolve: (r) => r.steps }),
    completionRate: t.exposeFloat('completionRate', FUNNEL_COMPLETION_TEXT),
    meta: t.field({ type: MetaRef, ...ENVELOPE.meta, resolve: (r) => r.meta }),
  }),
});

builder.queryField('funnelResults', (t) =>
  t.field({
    type: FunnelResultsRef,
    nullable: true,
    ...INTERNAL,
    description: "A stored funnel's users per step for a period (one provider funnel report).",
    args: contractArgs(t.arg, ['funnel'], ['period', 'force']),
    resolve: (_root, args, ctx) => funnelResults(ctx, args),
  }),
);

builder.objectField(FunnelRef, 'results', (t) =>
  t.field({
    type: FunnelResultsRef,
    nullable: true,
    description: "The funnel's users per step for a period (one provider funnel report); null with its error in errors[] when the report fails.",
    args: { period: t.arg({ type: 'Period', description: PARAMETERS.period.description }), force: t.arg.boolean({ description: 'true bypasses the cache and refreshes it (limited to 30/hour per project).' }) },
    resolve: (funnel, { period, force }, ctx) =>
      funnelResults(ctx, { funnel: funnel.key, period: period ?? undefined, force: force === null || force === undefined ? undefined : force ? '1' : '0' }),
  }),
);

builder.queryField('funnel', (t) =>
  t.field({
    type: FunnelRef,
    nullable: true,
    description: 'One stored funnel by key; unknown funnels and funnels of projects you cannot read are the same not_found error.',
    args: { key: t.arg.string({ required: true, description: PARAMETERS.funnel.description }) },
    resolve: async (_root, { key }, ctx) => (await requireVisibleFunnel(ctx, key)).funnel,
  }),
);
