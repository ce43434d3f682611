// Who is calling a tool: the Principal and request id the /api/mcp route authenticated, carried to handlers
// through the SDK's AuthInfo (the SDK passes it through untouched; scope challenges read its `scopes`).
import type { AuthInfo, ServerContext } from '@modelcontextprotocol/server';
import type { Principal } from '../auth/principal.ts';
import type { CachedResponse } from '../rest/response-cache.ts';

export interface McpCaller {
  principal: Principal;
  requestId: string;
  /**
   * Set by a read tool that answered from the response cache: the whole MCP answer may be kept and replayed for the
   * same call until then (`freshUntil`), unless the cache is cleared after `builtAt` or the answer it came from
   * (`from`) is replaced (a forced call refreshed it).
   */
  replayable?: { freshUntil: number; builtAt: number; from: { key: string; entry: CachedResponse } };
}

export function toAuthInfo(caller: McpCaller, resource: URL, resourceMetadataUrl: string): AuthInfo {
  const { principal } = caller;
  return {
    token: '',
    clientId: principal.credentialId,
    scopes: [...principal.scopes],
    ...(principal.expiresAt === undefined ? {} : { expiresAt: Math.floor(principal.expiresAt / 1000) }),
    resource,
    resourceMetadataUrl,
    extra: { caller },
  };
}

/** Handlers only run behind the route's authentication, so a missing caller is a wiring bug. */
export function callerOf(ctx: Pick<ServerContext, 'http'>): McpCaller {
  const caller = ctx.http?.authInfo?.extra?.caller as McpCaller | undefined;
  if (!caller) throw new Error('MCP handler ran without an authenticated caller');
  return caller;
}
