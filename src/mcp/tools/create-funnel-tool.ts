// create_funnel: the one write. A call without confirmation_token validates the steps, checks them
// against the events and pages observed on the site, writes nothing and returns a preview with a single-use
// token; the call with the token creates the funnel exactly once. Clients that declare elicitation on a
// 2026-07-28 request are asked to confirm in-band instead (the token path keeps working for everyone).
import * as z from 'zod';
import {
  acceptedContent,
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  inputResponse,
  type CallToolResult,
  type InputRequiredResult,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { AppDeps } from '../../app-deps.ts';
import { FunnelSchema } from '../../contract/responses.ts';
import { PARAMETERS } from '../../contract/parameters.ts';
import { AppError, invalidParameter, notFound } from '../../errors/app-error.ts';
import { runEndpoint } from '../../operations/run-endpoint.ts';
import { MAX_FUNNEL_NAME_LENGTH, MAX_FUNNEL_STEPS, MAX_STEP_VALUE_LENGTH, MIN_FUNNEL_STEPS, STEP_MATCHES, STEP_TYPES, validateFunnelSteps, type FunnelStep } from '../../store/funnels-repository.ts';
import { actorOf } from '../../writes/actor.ts';
import { authorize } from '../../writes/authorize.ts';
import { withCachedJsonSchema } from '../cached-schema.ts';
import { payloadHash, type ConfirmationTokens } from '../confirmation-token.ts';
import { callerOf, type McpCaller } from '../mcp-caller.ts';
import { matchObservedSteps, type StepPreview } from './observed-steps.ts';
import { CREATES } from './tool-row.ts';
import { toolError, toolResult } from './tool-result.ts';

export interface FunnelState {
  /** Payload hash the confirmation prompt was shown for. */
  h: string;
  /** Confirmation id the funnel is created with. */
  i: string;
}

export interface CreateFunnelDeps {
  app: Pick<AppDeps, 'createContext' | 'executeOperation' | 'hasOperation' | 'logger'>;
  tokens: ConfirmationTokens;
  requestState: RequestStateCodec<FunnelState>;
}

// Bounds are advertised in the JSON Schema (meta) rather than enforced by zod, so a value outside them gets the
// same worded, per-step message the validation gives on every other surface.
const StepInput = z.strictObject({
  name: z.string().optional().describe('Label shown in results; defaults to the value.').meta({ maxLength: MAX_FUNNEL_NAME_LENGTH }),
  type: z.string().describe('event: matches analytics event names; page: matches page paths.').meta({ enum: [...STEP_TYPES] }),
  match: z.string().describe('How value is compared.').meta({ enum: [...STEP_MATCHES] }),
  value: z.string().describe('Event name or page path (or RE2 regex with match=regex), e.g. purchase or /checkout/.').meta({ minLength: 1, maxLength: MAX_STEP_VALUE_LENGTH }),
});

export const CreateFunnelInput = withCachedJsonSchema(
  z.strictObject({
    project: z.string().describe(PARAMETERS.project.description),
    name: z.string().describe(`Funnel name, 1–${MAX_FUNNEL_NAME_LENGTH} characters.`).meta({ minLength: 1, maxLength: MAX_FUNNEL_NAME_LENGTH }),
    steps: z.array(StepInput).describe(`${MIN_FUNNEL_STEPS}–${MAX_FUNNEL_STEPS} ordered steps a user passes through.`).meta({ minItems: MIN_FUNNEL_STEPS, maxItems: MAX_FUNNEL_STEPS }),
    period: z.string().optional().describe(`Period whose observed events and pages the preview checks the steps against (default 28days): ${PARAMETERS.period.description}`),
    confirmation_token: z.string().optional().describe('The token from the preview; give it (with the same project, name and steps) to create the funnel.'),
  }),
);

const StepPreviewSchema = z.looseObject({
  name: z.string(),
  type: z.string(),
  match: z.string(),
  value: z.string(),
  checked: z.boolean().describe('Whether observed data was available to check the step.'),
  matchedValues: z.number().optional().describe('How many distinct observed event names / page paths the step matches.'),
  matchedCount: z.number().optional().describe('Events or page views those values had in the period.'),
  examples: z.array(z.looseObject({ value: z.string(), count: z.number() })).optional(),
  warning: z.string().optional(),
});

export const CreateFunnelOutput = withCachedJsonSchema(
  z.looseObject({
    status: z.enum(['preview', 'created', 'already_created', 'declined']),
    project: z.string(),
    name: z.string(),
    steps: z.array(StepPreviewSchema).optional().describe('Preview: each step and what it matched.'),
    period: z.string().optional(),
    confirmation_token: z.string().optional(),
    expiresAt: z.string().optional(),
    funnel: FunnelSchema.optional(),
    next: z.string().describe('What to do next.'),
  }),
);

const ConfirmSchema = z.object({ confirm: z.boolean().describe('Create this funnel?') });

type Args = z.infer<typeof CreateFunnelInput>;

export const CREATE_FUNNEL_TOOL = {
  name: 'create_funnel',
  title: 'Create a funnel (after confirmation)',
  description:
    'Defines a conversion funnel for a project. Two steps: call it without confirmation_token to validate the 2–10 steps and check each against the events and pages observed on the site (nothing is written); show the preview to the user and, once they agree, call it again with the same project, name and steps plus the returned confirmation_token (valid 10 minutes, single use) to create it. Needs the mcp:write scope. Then use get_funnel_results with the new key.',
  annotations: CREATES,
  operations: ['Project', 'CreateFunnel'],
} as const;

export function createFunnelHandler(deps: CreateFunnelDeps) {
  return async (args: Args, ctx: ServerContext): Promise<CallToolResult | InputRequiredResult> => {
    const caller = callerOf(ctx);
    try {
      requireWriteScope(caller);
      await requireFunnelRole(deps, caller, args.project);
      const name = args.name.trim();
      if (!name || name.length > MAX_FUNNEL_NAME_LENGTH) throw invalidParameter('name', `The funnel name must be 1–${MAX_FUNNEL_NAME_LENGTH} characters.`);
      const steps = validateFunnelSteps(args.steps.map((s) => ({ ...s, name: s.name ?? '' }) as FunnelStep));
      const hash = payloadHash([args.project, name, steps]);

      if (args.confirmation_token !== undefined) {
        const confirmationId = deps.tokens.verify(args.confirmation_token, caller.principal.credentialId, hash);
        return await create(deps, caller, { project: args.project, name, steps }, confirmationId);
      }
      const previews = await matchObservedSteps(deps.app, caller, args.project, args.period, steps);
      if (declaresElicitation(ctx)) return await confirmInBand(deps, ctx, caller, { project: args.project, name, steps }, hash, previews);
      const { token, expiresAt } = deps.tokens.mint(caller.principal.credentialId, hash);
      return toolResult({
        status: 'preview',
        project: args.project,
        name,
        period: args.period ?? '28days',
        steps: previews,
        confirmation_token: token,
        expiresAt,
        next: 'Nothing was created. Show this preview to the user; if they confirm, call create_funnel again with the same project, name and steps and this confirmation_token.',
      });
    } catch (error) {
      return toolError(error, caller.requestId, deps.app.logger);
    }
  };
}

/**
 * The project must be visible and the caller's role on it must allow creating funnels, before any preview: a viewer
 * is told at once (the write checks again, with the role as it is then).
 */
async function requireFunnelRole(deps: CreateFunnelDeps, caller: McpCaller, projectKey: string): Promise<void> {
  const context = deps.app.createContext(caller.principal, caller.requestId);
  const project = await context.store.projectByKey(projectKey);
  if (!project) throw notFound(`No project '${projectKey}' is visible to you.`);
  await authorize(context.services.db, actorOf(caller.principal, 'mcp'), project, 'funnel.create');
}

/** Reached only by API keys (OAuth principals get the step-up challenge before the handler runs). */
function requireWriteScope(caller: McpCaller): void {
  if (caller.principal.scopes.has('mcp:write')) return;
  throw new AppError(
    'insufficient_scope',
    'create_funnel needs the mcp:write scope, which this API key does not have. Create a key with it (siteline keys create --account <email> --scopes read,mcp:write, or on the /account page) and put that key in your MCP client configuration; the reading tools keep working with this one.',
    { param: 'scope' },
  );
}

interface FunnelPayload {
  project: string;
  name: string;
  steps: FunnelStep[];
}

async function create(deps: CreateFunnelDeps, caller: McpCaller, payload: FunnelPayload, confirmationId: string): Promise<CallToolResult> {
  const body = (await runEndpoint(deps.app, caller.principal, caller.requestId, { operation: 'CreateFunnel', field: 'createFunnel' }, { ...payload, confirmationId })) as {
    replayed: boolean;
    funnel: { key: string };
  };
  return toolResult({
    status: body.replayed ? 'already_created' : 'created',
    project: payload.project,
    name: payload.name,
    funnel: body.funnel,
    next: body.replayed
      ? `This confirmation was already used; it created funnel '${body.funnel.key}' then, and nothing new was created. Use get_funnel_results with funnel=${body.funnel.key}.`
      : `Created. Use get_funnel_results with funnel=${body.funnel.key}.`,
  });
}

/** 2026-07-28 requests carry the client's capabilities in the envelope; 2025-era requests never do. */
function declaresElicitation(ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, { elicitation?: unknown } | undefined> | undefined;
  const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY];
  return capabilities?.elicitation !== undefined;
}

/**
 * The in-band prompt. The answer only counts when the signed requestState (bound to the caller) names this
 * exact payload, so a forged first call carrying an "accept" cannot write.
 */
async function confirmInBand(
  deps: CreateFunnelDeps,
  ctx: ServerContext,
  caller: McpCaller,
  payload: FunnelPayload,
  hash: string,
  previews: StepPreview[],
): Promise<CallToolResult | InputRequiredResult> {
  const state = ctx.mcpReq.requestState<FunnelState>();
  const view = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
  if (state?.h === hash && view.kind === 'elicit') {
    if (view.action !== 'accept' || acceptedContent(ctx.mcpReq.inputResponses, 'confirm', ConfirmSchema)?.confirm !== true) {
      return toolResult({ status: 'declined', project: payload.project, name: payload.name, steps: previews, next: 'The user did not confirm; nothing was created.' });
    }
    return create(deps, caller, payload, state.i);
  }
  const id = `cfm_${crypto.randomUUID().replaceAll('-', '')}`;
  return inputRequired({
    inputRequests: { confirm: inputRequired.elicit({ message: previewMessage(payload, previews), requestedSchema: ConfirmSchema }) },
    requestState: await deps.requestState.mint({ h: hash, i: id }, ctx),
  });
}

function previewMessage(payload: FunnelPayload, previews: StepPreview[]): string {
  const lines = previews.map((p, i) => `${i + 1}. ${p.name}: ${p.type} ${p.match} '${p.value}'${p.warning ? ` (${p.warning})` : p.checked ? ` (matches ${p.matchedValues} seen values)` : ''}`);
  return `Create funnel '${payload.name}' in project ${payload.project}?\n${lines.join('\n')}`;
}
