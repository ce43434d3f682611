// completion/complete for the prompts' arguments and the resource templates' variables, by argument name:
// project and funnel keys, metric and dimension names (what the caller may see, through the same stored
// operations as the tools), periods and comparisons. The SDK's own completion hook does not pass the request's
// context, so this handler replaces it and reads the caller from the request as every tool does.
import type { CompleteResult, McpServer, ServerContext } from '@modelcontextprotocol/server';
import type { AppDeps } from '../app-deps.ts';
import { ANALYTICS_DIMENSION_NAMES, ANALYTICS_METRIC_NAMES, SEARCH_DIMENSION_NAMES, SEARCH_METRIC_NAMES } from '../domain/catalogue.ts';
import { PERIOD_NAMES } from '../domain/period.ts';
import { runEndpoint, type EndpointRef } from '../operations/run-endpoint.ts';
import { callerOf } from './mcp-caller.ts';

type CompletionDeps = Pick<AppDeps, 'createContext' | 'executeOperation' | 'hasOperation' | 'logger'>;
type Run = (endpoint: EndpointRef, variables: Record<string, string>) => Promise<unknown>;
type Completer = (run: Run, given: Record<string, string>) => Promise<readonly string[]> | readonly string[];

/** Clients show at most 100 suggestions (the protocol's cap). */
const MAX_VALUES = 100;
/** Funnels of at most this many projects are listed when no project is given. */
const MAX_FUNNEL_PROJECTS = 20;

export const PERIOD_SUGGESTIONS: readonly string[] = PERIOD_NAMES;

const COMPLETERS: Record<string, Completer> = {
  project: projectKeys,
  funnel: async (run, given) => {
    const projects = given.project ? [given.project] : (await projectKeys(run)).slice(0, MAX_FUNNEL_PROJECTS);
    const lists = await Promise.all(projects.map((project) => run({ operation: 'FunnelsList', field: 'project' }, { project }).catch(() => ({ funnels: [] }))));
    return lists.flatMap((list) => ((list as { funnels?: { key: string }[] }).funnels ?? []).map((f) => f.key));
  },
  metric: async (run, given) => fields(run, given.project, 'metrics', [...ANALYTICS_METRIC_NAMES, ...SEARCH_METRIC_NAMES]),
  dimension: async (run, given) => fields(run, given.project, 'dimensions', [...ANALYTICS_DIMENSION_NAMES, ...SEARCH_DIMENSION_NAMES]),
  period: () => PERIOD_SUGGESTIONS,
  compare: () => ['previous', 'year', 'none'],
};

async function projectKeys(run: Run): Promise<string[]> {
  const body = (await run({ operation: 'ProjectsList' }, {})) as { projects: { key: string }[] };
  return body.projects.map((p) => p.key);
}

/** The project's own metric or dimension names (custom ones included) plus the search ones; the catalogue without a project. */
async function fields(run: Run, project: string | undefined, kind: 'metrics' | 'dimensions', catalogue: readonly string[]): Promise<readonly string[]> {
  if (!project) return catalogue;
  const body = (await run({ operation: 'Metadata', field: 'metadata' }, { project })) as {
    analytics?: Record<string, { name: string }[] | undefined>;
    search?: Record<string, Record<string, string[] | undefined> | undefined>;
  };
  const search = Object.values(body.search ?? {}).flatMap((engine) => engine?.[kind] ?? []);
  return [...new Set([...(body.analytics?.[kind] ?? []).map((f) => f.name), ...search])];
}

/** Prefix matches first, then the other names containing the typed text; case-insensitive. */
export function rankSuggestions(values: readonly string[], typed: string): CompleteResult['completion'] {
  const needle = typed.toLowerCase();
  const unique = [...new Set(values)];
  const prefix = unique.filter((v) => v.toLowerCase().startsWith(needle));
  const inside = unique.filter((v) => !v.toLowerCase().startsWith(needle) && v.toLowerCase().includes(needle));
  const all = [...prefix, ...inside];
  return { values: all.slice(0, MAX_VALUES), total: all.length, hasMore: all.length > MAX_VALUES };
}

export interface CompletionTargets {
  /** Prompt name → its argument names. */
  prompts: Readonly<Record<string, readonly string[]>>;
  /** Resource template (as registered) → its variable names. */
  templates: Readonly<Record<string, readonly string[]>>;
}

/**
 * Registers the handler; the server must declare the `completions` capability. A reference or argument this
 * server does not have gets no suggestions rather than an error (clients ask as the user types), and so does a
 * lookup that fails: a completion never blocks typing.
 */
export function registerCompletions(server: McpServer, deps: CompletionDeps, targets: CompletionTargets): void {
  server.server.setRequestHandler('completion/complete', async (request, ctx: ServerContext) => {
    const { ref, argument, context } = request.params;
    const names = ref.type === 'ref/prompt' ? targets.prompts[ref.name] : targets.templates[ref.uri];
    const completer = names?.includes(argument.name) ? COMPLETERS[argument.name] : undefined;
    if (!completer) return { completion: { values: [], total: 0, hasMore: false } };
    const caller = callerOf(ctx);
    const run: Run = (endpoint, variables) => runEndpoint(deps, caller.principal, caller.requestId, endpoint, variables);
    try {
      return { completion: rankSuggestions(await completer(run, context?.arguments ?? {}), argument.value) };
    } catch (error) {
      deps.logger.debug({ err: error, requestId: caller.requestId }, 'mcp completion lookup failed');
      return { completion: { values: [], total: 0, hasMore: false } };
    }
  });
}
