// MCP resources: the caller's project list and, per project, the metrics/dimensions metadata, each read
// through the same stored operations as the tools (so the JSON is the REST body).
import { McpServer, ProtocolError, ProtocolErrorCode, ResourceTemplate, type ReadResourceResult, type ServerContext } from '@modelcontextprotocol/server';
import type { AppDeps } from '../app-deps.ts';
import { isAppError } from '../errors/app-error.ts';
import { runEndpoint, type EndpointRef } from '../operations/run-endpoint.ts';
import { callerOf } from './mcp-caller.ts';

export const PROJECTS_URI = 'siteline://projects';
export const METADATA_TEMPLATE = 'siteline://projects/{project}/metadata';
/** Each resource template's variables (completion/complete suggests values for them by name). */
export const TEMPLATE_VARIABLES: Readonly<Record<string, readonly string[]>> = { [METADATA_TEMPLATE]: ['project'] };

type ResourceDeps = Pick<AppDeps, 'createContext' | 'executeOperation' | 'hasOperation' | 'logger'>;

export function registerResources(server: McpServer, deps: ResourceDeps, withMetadata: boolean): void {
  server.registerResource(
    'projects',
    PROJECTS_URI,
    { title: 'Projects', description: 'The projects you may read, with their data sources (same JSON as list_projects).', mimeType: 'application/json' },
    (uri, ctx) => readJson(deps, ctx, uri, { operation: 'ProjectsList' }, {}),
  );
  if (!withMetadata) return;
  server.registerResource(
    'project-metadata',
    new ResourceTemplate(METADATA_TEMPLATE, { list: (ctx) => listMetadataResources(deps, ctx) }),
    { title: 'Project metadata', description: 'Metrics and dimensions a project accepts (same JSON as get_metadata).', mimeType: 'application/json' },
    (uri, variables, ctx) => readJson(deps, ctx, uri, { operation: 'Metadata', field: 'metadata' }, { project: String(variables.project) }),
  );
}

async function listMetadataResources(deps: ResourceDeps, ctx: ServerContext) {
  const { projects } = (await run(deps, ctx, { operation: 'ProjectsList' }, {})) as { projects: { key: string; name: string }[] };
  return {
    resources: projects.map((p) => ({
      uri: `siteline://projects/${encodeURIComponent(p.key)}/metadata`,
      name: `${p.key}-metadata`,
      title: `${p.name}: metrics and dimensions`,
      mimeType: 'application/json',
    })),
  };
}

async function readJson(deps: ResourceDeps, ctx: ServerContext, uri: URL, endpoint: EndpointRef, variables: Record<string, string>): Promise<ReadResourceResult> {
  const body = await run(deps, ctx, endpoint, variables);
  return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(body) }] };
}

/** Expected errors keep their code and message; anything else is masked (the SDK would send it verbatim). */
async function run(deps: ResourceDeps, ctx: ServerContext, endpoint: EndpointRef, variables: Record<string, string>): Promise<unknown> {
  const caller = callerOf(ctx);
  try {
    return await runEndpoint(deps, caller.principal, caller.requestId, endpoint, variables);
  } catch (error) {
    if (isAppError(error) && error.status < 500) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${error.code}: ${error.message}`);
    deps.logger.error({ err: error, requestId: caller.requestId }, 'mcp resource read failed');
    throw new ProtocolError(ProtocolErrorCode.InternalError, `The resource could not be read. Request id: ${caller.requestId}.`);
  }
}
