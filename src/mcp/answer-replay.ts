// A repeated read tool call answered without the SDK. When a read tool answered from the response cache, the SDK's
// whole HTTP answer (JSON or one-event SSE, headers included) is kept in that same cache, expiring with the entry it
// came from and cleared with it on every write; the same call (same credential, same MCP headers, same message but
// its id) is then answered with those bytes and its own id. Auth, Host/Origin checks and the rate limit still run.
import { FastResponse } from 'srvx';
import type { CachedResponse, ResponseCache } from '../rest/response-cache.ts';
import type { McpCaller } from './mcp-caller.ts';

export interface ReplayableCall {
  key: string;
  id: string | number;
}

/** A single `tools/call` message can be replayed; batches, notifications and other methods cannot. */
export function replayableCall(caller: McpCaller, headers: Headers, message: unknown): ReplayableCall | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const { id, ...rest } = message as { id?: unknown; method?: unknown };
  if (rest.method !== 'tools/call' || (typeof id !== 'string' && typeof id !== 'number')) return undefined;
  // The SDK's answer depends on the protocol headers (version, Mcp-Method/Mcp-Name, mirrored Mcp-Param-*) and Accept.
  let key = `mcp-answer\n${caller.principal.credentialId}\n${headers.get('accept') ?? ''}`;
  for (const [name, value] of headers) if (name.startsWith('mcp-')) key += `\n${name}:${value}`;
  return { key: `${key}\n${JSON.stringify(rest)}`, id };
}

export function replayAnswer(kept: CachedResponse, id: string | number): Response {
  const text = kept.slot === undefined ? kept.text : kept.text.slice(0, kept.slot) + JSON.stringify(id) + kept.text.slice(kept.slot);
  return new FastResponse(text, { headers: { ...kept.headers, 'content-type': kept.contentType } });
}

/** Keeps the SDK's answer when the tool answered from the cache; returns an equivalent response either way. */
export async function keepForReplay(response: Response, caller: McpCaller, call: ReplayableCall, cache: ResponseCache): Promise<Response> {
  const replayable = caller.replayable;
  if (replayable === undefined || response.status !== 200) return response;
  const text = await response.text();
  const idText = JSON.stringify(call.id);
  // The id is the message's last member, so its last occurrence is never inside the result.
  const at = text.lastIndexOf(`"id":${idText}`);
  if (at >= 0) {
    const slot = at + '"id":'.length;
    const headers = Object.fromEntries([...response.headers].filter(([name]) => name !== 'content-type'));
    const kept: CachedResponse = { text: text.slice(0, slot) + text.slice(slot + idText.length), contentType: response.headers.get('content-type') ?? 'application/json', fetchedAt: Number.NaN, headers, slot };
    cache.set(call.key, kept, replayable.freshUntil, replayable.builtAt);
  }
  return new FastResponse(text, { status: response.status, headers: response.headers });
}
