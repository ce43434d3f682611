// Funnel definitions stored by Siteline (steps matched against events or pages); listed per project.
import type { FunnelRecord } from '../../store/funnels-repository.ts';
import { builder } from '../builder.ts';
import { ProjectRef } from './project.ts';

export const FunnelStepRef = builder.objectRef<FunnelRecord['steps'][number]>('FunnelStep').implement({
  fields: (t) => ({
    name: t.exposeString('name'),
    type: t.exposeString('type', { description: '`event` or `page`.' }),
    match: t.exposeString('match', { description: '`exact`, `begins_with`, `contains` or `regex`.' }),
    value: t.exposeString('value'),
  }),
});

export const FunnelRef = builder.objectRef<FunnelRecord>('Funnel').implement({
  fields: (t) => ({
    key: t.exposeString('key'),
    name: t.exposeString('name'),
    steps: t.field({ type: [FunnelStepRef], resolve: (f) => f.steps }),
    createdAt: t.exposeString('createdAt'),
    createdVia: t.exposeString('createdVia', { description: '`dashboard`, `mcp` or `cli`.' }),
  }),
});

builder.objectField(ProjectRef, 'funnels', (t) =>
  t.field({ type: [FunnelRef], description: 'Funnels defined for this project.', resolve: (p, _args, ctx) => ctx.store.funnelsOf.load(p.id) }),
);
