// Mutation createFunnel: stores a funnel for a visible project. Only MCP's confirmed flow writes (scope
// mcp:write); the confirmation id makes it idempotent, so a replayed confirmation returns the same funnel.
import { requireScope } from '../../auth/principal.ts';
import { AppError, notFound } from '../../errors/app-error.ts';
import { createFunnel, type FunnelRecord, type FunnelStep } from '../../store/funnels-repository.ts';
import { builder } from '../builder.ts';
import { FunnelRef } from './funnel.ts';

interface FunnelCreation {
  funnel: FunnelRecord;
  /** True when the confirmation had already been used and the existing funnel is returned. */
  replayed: boolean;
}

export const FunnelStepInput = builder.inputType('FunnelStepInput', {
  description: 'One funnel step; validated by the server (type event|page, match exact|begins_with|contains|regex).',
  fields: (t) => ({
    name: t.string({ description: 'Label; defaults to the value.' }),
    type: t.string({ required: true }),
    match: t.string({ required: true }),
    value: t.string({ required: true }),
  }),
});

const FunnelCreationRef = builder.objectRef<FunnelCreation>('FunnelCreation').implement({
  fields: (t) => ({
    funnel: t.field({ type: FunnelRef, resolve: (c) => c.funnel }),
    replayed: t.exposeBoolean('replayed', { description: 'The confirmation had been used before; this is the funnel it created then.' }),
  }),
});

builder.mutationField('createFunnel', (t) =>
  t.field({
    type: FunnelCreationRef,
    description: 'Creates a funnel (scope mcp:write). The same confirmationId always yields the same funnel.',
    args: {
      project: t.arg.string({ required: true }),
      name: t.arg.string({ required: true }),
      steps: t.arg({ type: [FunnelStepInput], required: true }),
      confirmationId: t.arg.string({ required: true, description: 'Single-use id of the confirmation that authorised this write.' }),
    },
    resolve: async (_root, args, ctx) => {
      requireScope(ctx.principal, 'mcp:write');
      const project = await ctx.store.projectByKey(args.project);
      if (!project) throw notFound(`No project '${args.project}' is visible to you.`);
      const steps: FunnelStep[] = args.steps.map((s) => ({ name: s.name ?? '', type: s.type as FunnelStep['type'], match: s.match as FunnelStep['match'], value: s.value }));
      const startedAt = ctx.services.clock();
      const funnel = await createFunnel(ctx.services.db, {
        projectId: project.id,
        name: args.name,
        steps,
        createdVia: 'mcp',
        createdByAccountId: ctx.principal.accountId,
        confirmationId: args.confirmationId,
        now: startedAt,
      });
      // A confirmation id belongs to the account and project it was used for; anything else is not a replay.
      if (funnel.projectId !== project.id || funnel.createdByAccountId !== ctx.principal.accountId) {
        throw new AppError('invalid_parameter', 'This confirmation has already been used.', { param: 'confirmation_token' });
      }
      return { funnel, replayed: funnel.createdAt !== startedAt.toISOString() };
    },
  }),
);
