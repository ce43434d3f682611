// Funnel definitions stored by Siteline (steps matched against events or pages); listed per project.
import type { FunnelRecord } from '../../store/funnels-repository.ts';
import { builder } from '../builder.ts';
import { FunnelCreatorRef, FunnelStepMatchRef, FunnelStepTypeRef } from './enums.ts';
import { ProjectRef } from './project.ts';

export const FunnelStepRef = builder.objectRef<FunnelRecord['steps'][number]>('FunnelStep').implement({
  description: 'One step of a funnel definition.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The step’s label.' }),
    type: t.field({ type: FunnelStepTypeRef, description: 'Whether it matches an event name or a page path.', resolve: (s) => s.type }),
    match: t.field({ type: FunnelStepMatchRef, description: 'How `value` matches.', resolve: (s) => s.match }),
    value: t.exposeString('value', { description: 'The event name or page path (or pattern) to match.' }),
  }),
});

export const FunnelRef = builder.objectRef<FunnelRecord>('Funnel').implement({
  description: 'A funnel definition stored by Siteline.',
  fields: (t) => ({
    key: t.exposeString('key', { description: 'The funnel key results are asked by.' }),
    name: t.exposeString('name', { description: 'Display name.' }),
    steps: t.field({ type: [FunnelStepRef], description: 'The steps, in order (2–10).', resolve: (f) => f.steps }),
    createdAt: t.field({ type: 'DateTime', description: 'When it was created.', resolve: (f) => f.createdAt }),
    createdVia: t.field({ type: FunnelCreatorRef, description: 'Where it was created.', resolve: (f) => f.createdVia }),
  }),
});

builder.objectField(ProjectRef, 'funnels', (t) =>
  t.field({ type: [FunnelRef], description: 'Funnels defined for this project.', resolve: (p, _args, ctx) => ctx.store.funnelsOf.load(p.id) }),
);
