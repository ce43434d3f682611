// The per-request McpServer factory and what it is built from. Everything costly (tool table, zod schemas
// and their JSON Schema conversions, handlers, token keys) is built once per process in createMcpServices;
// the factory only registers those on a fresh server, which the SDK needs for every request of either era.
import { registerAppTool } from '@modelcontextprotocol/ext-apps/server';
import { createRequestStateCodec, McpServer, requireScopes, type CallToolResult, type ScopeChallengeHandler, type ServerContext } from '@modelcontextprotocol/server';
import type { AppDeps } from '../app-deps.ts';
import { runEndpointWithFreshness } from '../operations/run-endpoint.ts';
import { answerSlot, cachedAnswerOf, textOf } from '../rest/response-cache.ts';
import { createConfirmationTokens } from './confirmation-token.ts';
import { callerOf, type McpCaller } from './mcp-caller.ts';
import { registerCompletions } from './completions.ts';
import { PROMPT_ARGUMENTS, registerPrompts } from './prompts.ts';
import { registerResources, TEMPLATE_VARIABLES } from './resources.ts';
import { CREATE_FUNNEL_TOOL, CreateFunnelInput, CreateFunnelOutput, createFunnelHandler, type FunnelState } from './tools/create-funnel-tool.ts';
import { compileTool, toVariables, type CompiledTool } from './tools/tool-row.ts';
import { toolError, toolResult, toolResultFromText } from './tools/tool-result.ts';
import { READ_TOOLS } from './tools/tool-table.ts';
import { createViewDocuments, registerViews, viewToolMeta, type ViewDocuments } from './views/register-views.ts';

export const SERVER_INFO = { name: 'siteline', title: 'Siteline Analytics', version: '0.1.0' };

const INSTRUCTIONS =
  'Siteline answers questions about a website’s traffic (analytics = Google Analytics 4), organic search (engine1 = Google Search Console, engine2 = Bing Webmaster Tools) and funnels. ' +
  'Start with list_projects to get project keys. Periods are calendar days in the project time zone (default 28days). ' +
  'Every result carries meta.warnings; mention those that affect the numbers. Rates (ctr, engagementRate, deltaPct) are fractions, not percentages.';

/**
 * An OAuth client lacking mcp:write gets the HTTP 403 step-up challenge (listing every scope it should end up
 * holding) and re-authorizes. An API key cannot step up — clients such as mcp-remote would start a sign-in it
 * can never finish — so its call reaches the tool, which answers an isError result saying how to get the scope.
 */
const OAUTH_WRITE_CHALLENGE = requireScopes('read', 'mcp:write');
const WRITE_CHALLENGE: ScopeChallengeHandler = (context) =>
  (context.authInfo?.extra?.caller as McpCaller | undefined)?.principal.kind === 'oauth' ? OAUTH_WRITE_CHALLENGE(context) : undefined;

type ReadHandler = (args: Record<string, unknown>, ctx: ServerContext) => Promise<CallToolResult>;

export interface McpServices {
  tools: readonly { tool: CompiledTool; handler: ReadHandler }[];
  createFunnel: ReturnType<typeof createFunnelHandler>;
  requestStateVerify: (state: string, ctx: ServerContext) => Promise<FunnelState>;
  app: AppDeps;
  withMetadata: boolean;
  views: ViewDocuments;
}

/** Fails at boot when a (non-pending) tool names a stored operation that does not exist. */
export function createMcpServices(app: AppDeps): McpServices {
  const missing = [...READ_TOOLS.filter((t) => !t.pending).map((t) => t.operation), ...CREATE_FUNNEL_TOOL.operations].filter((op) => !app.hasOperation(op));
  if (missing.length) throw new Error(`MCP tools reference missing stored operations: ${[...new Set(missing)].join(', ')}`);

  const tools = READ_TOOLS.filter((row) => app.hasOperation(row.operation)).map((row) => {
    const tool = compileTool(row);
    return { tool, handler: readHandler(app, tool) };
  });
  const requestState = createRequestStateCodec<FunnelState>({
    key: app.deriveKey('siteline mcp request state v1'),
    ttlSeconds: 600,
    bind: (ctx) => `${ctx.mcpReq.method}\0${callerOf(ctx).principal.credentialId}`,
  });
  const tokens = createConfirmationTokens(app.deriveKey('siteline mcp confirmation token v1'), app.clock);
  return {
    tools,
    createFunnel: createFunnelHandler({ app, tokens, requestState }),
    requestStateVerify: requestState.verify,
    app,
    withMetadata: app.hasOperation('Metadata'),
    views: createViewDocuments(),
  };
}

/**
 * Runs the tool's operation. A repeat of the same call by the same credential is answered from the app's response
 * cache, under the key REST uses for the same operation and variables, so either facade's answer serves the other.
 */
function readHandler(app: AppDeps, tool: CompiledTool): ReadHandler {
  const endpoint = { operation: tool.operation, field: tool.field };
  return async (args, ctx) => {
    const caller = callerOf(ctx);
    try {
      const variables = toVariables(args);
      const slot = answerSlot(caller.principal.credentialId, 'json', endpoint, variables);
      const cached = slot.serve ? app.responseCache.get(slot.key) : undefined;
      if (cached) {
        caller.replayable = { freshUntil: cached.expiresAt ?? 0, builtAt: app.responseCache.version(), from: { key: slot.key, entry: cached } };
        return toolResultFromText(textOf(cached));
      }
      const builtAt = app.responseCache.version();
      const { body, freshUntil } = await runEndpointWithFreshness(app, caller.principal, caller.requestId, endpoint, variables);
      app.responseCache.set(slot.key, cachedAnswerOf(body), freshUntil, builtAt);
      return toolResult(body);
    } catch (error) {
      return toolError(error, caller.requestId, app.logger);
    }
  };
}

export function createMcpServer(services: McpServices): McpServer {
  const server = new McpServer(SERVER_INFO, {
    instructions: INSTRUCTIONS,
    // The lists never change while a process runs, and a stateless endpoint could not send the notifications anyway.
    capabilities: { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false }, completions: {} },
    requestState: { verify: services.requestStateVerify },
    cacheHints: { 'tools/list': { ttlMs: 3_600_000 }, 'prompts/list': { ttlMs: 3_600_000 }, 'resources/templates/list': { ttlMs: 3_600_000 } },
  });
  for (const { tool, handler } of services.tools) {
    const config = { title: tool.title, description: tool.description, inputSchema: tool.input, outputSchema: tool.output, annotations: tool.annotations };
    // A view changes nothing in the result: hosts without MCP Apps ignore the link (the answer is the same for every
    // caller, so tools/list stays one cached answer rather than varying with each client's capabilities).
    if (tool.view) registerAppTool(server, tool.name, { ...config, _meta: viewToolMeta(tool.view) }, handler);
    else server.registerTool(tool.name, config, handler);
  }
  server.registerTool(
    CREATE_FUNNEL_TOOL.name,
    {
      title: CREATE_FUNNEL_TOOL.title,
      description: CREATE_FUNNEL_TOOL.description,
      inputSchema: CreateFunnelInput,
      outputSchema: CreateFunnelOutput,
      annotations: CREATE_FUNNEL_TOOL.annotations,
      scopeChallenge: WRITE_CHALLENGE,
    },
    services.createFunnel,
  );
  registerResources(server, services.app, services.withMetadata);
  registerViews(server, services.views);
  registerPrompts(server);
  registerCompletions(server, services.app, { prompts: PROMPT_ARGUMENTS, templates: services.withMetadata ? TEMPLATE_VARIABLES : {} });
  return server;
}
