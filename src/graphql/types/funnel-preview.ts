// FunnelPreview: the internal `funnelPreview` query field (the dashboard's funnel editor): users per step of a draft
// definition for a period, nothing stored.
import { funnelPreview } from '../../reports/funnel-preview.ts';
import type { FunnelRun } from '../../reports/funnel-results.ts';
import type { FunnelStep } from '../../store/funnels-repository.ts';
import { builder, INTERNAL } from '../builder.ts';
import { contractArgs } from '../contract-args.ts';
import { ENVELOPE, MetaRef, PeriodRef } from './envelope.ts';
import { FunnelStepInput } from './funnel-mutations.ts';
import { FUNNEL_COMPLETION_TEXT, FunnelStepResultRef } from './funnel-results.ts';

const FunnelPreviewRef = builder.objectRef<FunnelRun>('FunnelPreview').implement({
  description: "A draft funnel's users per step for a period.",
  fields: (t) => ({
    project: t.exposeString('project', ENVELOPE.project),
    period: t.field({ type: PeriodRef, ...ENVELOPE.period, resolve: (r) => r.period }),
    steps: t.field({ type: [FunnelStepResultRef], description: 'Every step, in order.', resolve: (r) => r.steps }),
    completionRate: t.exposeFloat('completionRate', FUNNEL_COMPLETION_TEXT),
    meta: t.field({ type: MetaRef, ...ENVELOPE.meta, resolve: (r) => r.meta }),
  }),
});

builder.queryField('funnelPreview', (t) =>
  t.field({
    type: FunnelPreviewRef,
    nullable: true,
    ...INTERNAL,
    description: 'Users per step of a draft funnel (2–10 steps, validated like a stored one) for a period; nothing is stored.',
    args: { ...contractArgs(t.arg, ['project'], ['period', 'force']), steps: t.arg({ type: [FunnelStepInput], required: true }) },
    resolve: (_root, args, ctx) =>
      funnelPreview(ctx, { ...args, steps: args.steps.map((s) => ({ name: s.name ?? '', type: s.type, match: s.match, value: s.value }) as FunnelStep) }),
  }),
);
