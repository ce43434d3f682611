// The MCP SDK's side of /api/mcp: its stateless handler over our server, DNS-rebinding checks and the RFC 9728
// challenges. Loaded on the first /api/mcp request (mount-mcp.ts): the SDK and the tool table take ~8 MiB of heap
// that a process serving only REST never needs.
import { createMcpHandler, getOAuthProtectedResourceMetadataUrl, hostHeaderValidationResponse, isJsonContentType, localhostAllowedHostnames, originValidationResponse } from '@modelcontextprotocol/server';
import type { AppDeps } from '../app-deps.ts';
import { AppError } from '../errors/app-error.ts';
import { problemResponse, toAppError } from '../http/responses.ts';
import { createMcpServer, createMcpServices } from './create-mcp-server.ts';
import { toAuthInfo, type McpCaller } from './mcp-caller.ts';

export interface McpTransport {
  /** The SDK's stateless handler (both protocol eras); `parsedBody` when the body was read already. */
  handle(request: Request, caller: McpCaller, parsedBody?: unknown): Promise<Response>;
  /** A refusal when Host or Origin is not ours (DNS rebinding), else undefined. */
  refuseForeign(request: Request): Response | undefined;
  isJsonContentType(contentType: string | null): boolean;
  unauthenticated(error: unknown, requestId: string): Response;
  insufficientScope(requestId: string): Response;
}

export function createMcpTransport(deps: AppDeps, resource: URL): McpTransport {
  const services = createMcpServices(deps);
  const handler = createMcpHandler(() => createMcpServer(services), {
    onerror: (error) => deps.logger.debug({ err: error }, 'mcp request rejected'),
  });
  const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(resource);
  const hostnames = [...new Set([resource.hostname, ...localhostAllowedHostnames()])];
  const originHostnames = [...new Set([...hostnames, ...deps.corsOrigins.map((origin) => new URL(origin).hostname)])];
  return {
    handle: (request, caller, parsedBody) => handler.fetch(request, { authInfo: toAuthInfo(caller, resource, resourceMetadataUrl), ...(parsedBody === undefined ? {} : { parsedBody }) }),
    refuseForeign: (request) => hostHeaderValidationResponse(request, hostnames) ?? originValidationResponse(request, originHostnames),
    isJsonContentType,
    ...challenges(resourceMetadataUrl),
  };
}

/**
 * MCP clients find the authorization server through the 401 challenge (RFC 9728 §5.1); `scope` names what a
 * token needs now. `error="invalid_token"` only when a credential was sent (RFC 6750 §3.1).
 */
function challenges(resourceMetadataUrl: string) {
  const base = `resource_metadata="${resourceMetadataUrl}"`;
  return {
    unauthenticated(error: unknown, requestId: string): Response {
      const appError = toAppError(error);
      if (appError.status !== 401) return problemResponse(appError, requestId);
      const invalid = appError.code === 'missing_credentials' ? '' : `error="invalid_token", error_description="${quoteSafe(appError.message)}", `;
      const headers = { ...appError.headers, 'WWW-Authenticate': `Bearer ${invalid}${base}, scope="read"` };
      return problemResponse(new AppError(appError.code, appError.message, { headers }), requestId);
    },
    insufficientScope(requestId: string): Response {
      const error = new AppError('insufficient_scope', "Calling /api/mcp needs the 'read' scope, which this credential does not have.", {
        headers: { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="read", ${base}` },
      });
      return problemResponse(error, requestId);
    },
  };
}

function quoteSafe(text: string): string {
  return text.replace(/["\\]/g, "'");
}
