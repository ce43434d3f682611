// POST /api/mcp: transport security and auth in front of the SDK's stateless handler (both protocol eras).
// Order: CORS (the API's middleware, src/http/cors.ts) → Host/Origin (DNS rebinding) → method → bearer credential
// (API key or OAuth token, with the RFC 9728 challenge) → per-key rate limit → body (the one body reader: 1 MiB,
// nesting limit, parsed once) → a kept answer of the same call, or the SDK.
import type { H3 } from 'h3';
import type { AppDeps } from '../app-deps.ts';
import type { Principal } from '../auth/principal.ts';
import { clientIpOf } from '../http/client-ip.ts';
import { isAppError } from '../errors/app-error.ts';
import { parseJsonText } from '../http/json-nesting.ts';
import { BODY_LIMITS, readBodyText } from '../http/read-body.ts';
import { addResponseHeaders, requestIdOf } from '../http/request-context.ts';
import { problemResponse, toAppError } from '../http/responses.ts';
import { createKeptLists, keepForReplay, replayAnswer, replayableCall } from './answer-replay.ts';
import type { McpCaller } from './mcp-caller.ts';
import type { McpTransport } from './mcp-transport.ts';
import { mountProtectedResourceMetadata } from './protected-resource.ts';

export const MCP_PATH = '/api/mcp';
/** JSON-RPC batches (2025-03-26 clients only) are capped; each message costs one request of the key's limit. */
export const MCP_MAX_BATCH = 10;

export function mountMcp(app: H3, deps: AppDeps): void {
  const resource = new URL(MCP_PATH, deps.publicUrl);
  const keptLists = createKeptLists();
  let transport: McpTransport | undefined;
  let loading: Promise<McpTransport> | undefined;
  const loadTransport = () => (loading ??= import('./mcp-transport.ts').then((module) => (transport = module.createMcpTransport(deps, resource))));

  mountProtectedResourceMetadata(app, resource, deps.publicUrl);
  app.all(MCP_PATH, async (event) => {
    const mcp = transport ?? (await loadTransport());
    const request = event.req;
    const denied = mcp.refuseForeign(request);
    if (denied) return denied;
    if (request.method !== 'POST') return rpcError(405, -32000, 'Method not allowed.', { allow: 'POST' });

    const requestId = requestIdOf(event);
    let principal: Principal;
    try {
      principal = await deps.authenticate(request, clientIpOf(event));
    } catch (error) {
      return mcp.unauthenticated(error, requestId);
    }
    if (!principal.scopes.has('read')) return mcp.insufficientScope(requestId);
    try {
      addResponseHeaders(event, await deps.limitRequest(principal));
    } catch (error) {
      return problemResponse(toAppError(error), requestId);
    }
    const caller: McpCaller = { principal, requestId };

    if (!mcp.isJsonContentType(request.headers.get('content-type'))) return mcp.handle(request, caller); // the SDK's 415
    const body = await readBody(request);
    if (body instanceof Response) return body;
    // 2025-03-26 clients may batch messages: each one counts against the key's rate limit, and batches are small.
    if (Array.isArray(body.parsed)) {
      if (body.parsed.length > MCP_MAX_BATCH) return rpcError(400, -32600, `A batch may hold at most ${MCP_MAX_BATCH} messages.`);
      try {
        for (let i = 1; i < body.parsed.length; i++) addResponseHeaders(event, await deps.limitRequest(principal));
      } catch (error) {
        return problemResponse(toAppError(error), requestId, event.context.responseHeaders);
      }
    }
    const call = replayableCall(caller, request.headers, body.parsed);
    const kept = call === undefined ? undefined : call.list ? keptLists.get(call.key) : deps.responseCache.get(call.key);
    if (kept) return replayAnswer(event, kept, call!.id);
    const response = await mcp.handle(request, caller, body.parsed);
    return call === undefined ? response : keepForReplay(response, caller, call, deps.responseCache, keptLists);
  });
}

/** The message, read by the one body reader; its refusals as JSON-RPC errors (413 past the cap, -32700 bad JSON). */
async function readBody(request: Request): Promise<{ parsed: unknown } | Response> {
  try {
    return { parsed: parseJsonText(await readBodyText(request, BODY_LIMITS.mcp)) };
  } catch (error) {
    if (!isAppError(error)) throw error;
    if (error.code === 'payload_too_large') return rpcError(413, -32000, `Request body too large: the limit is ${BODY_LIMITS.mcp / 1024 / 1024} MiB.`);
    return rpcError(400, -32700, `Parse error: ${error.message}`);
  }
}

function rpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}
