// Repeated MCP messages answered without the SDK. When a read tool answered from the response cache, the SDK's
// whole HTTP answer (JSON or one-event SSE, headers included) is kept in that same cache, expiring with the entry it
// came from and cleared with it on every write; the same call (same credential, same MCP headers, same message but
// its id) is then answered with those bytes and its own id. The lists (tools, prompts, resource templates) never
// change while a process runs and are the same for every caller: their answers are kept for the process, in a small
// table of their own. Auth, Host/Origin checks and the rate limit still run for every message.
import type { H3Event } from 'h3';
import { LRUCache } from 'lru-cache';
import { FastResponse } from 'srvx';
import { preparedResponse } from '../http/request-context.ts';
import { encodeText, type CachedResponse, type ResponseCache } from '../rest/response-cache.ts';
import type { McpCaller } from './mcp-caller.ts';

export interface ReplayableCall {
  key: string;
  id: string | number;
  /** A list: the same answer for every caller for the life of the process. */
  list: boolean;
}

const LISTS = new Set(['tools/list', 'prompts/list', 'resources/templates/list']);
/** Kept list answers: the key includes what clients send (headers, cursor, _meta), so the table is bounded. */
const MAX_KEPT_LISTS = 64;

/** A single `tools/call` or list message can be replayed; batches, notifications and other methods cannot. */
export function replayableCall(caller: McpCaller, headers: Headers, message: unknown): ReplayableCall | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const { id, ...rest } = message as { id?: unknown; method?: unknown };
  if (typeof id !== 'string' && typeof id !== 'number') return undefined;
  const list = typeof rest.method === 'string' && LISTS.has(rest.method);
  if (rest.method !== 'tools/call' && !list) return undefined;
  // The SDK's answer depends on the protocol headers (version, Mcp-Method/Mcp-Name, mirrored Mcp-Param-*) and Accept.
  let key = `mcp-answer\n${list ? '' : caller.principal.credentialId}\n${headers.get('accept') ?? ''}`;
  for (const [name, value] of headers) if (name.startsWith('mcp-')) key += `\n${name}:${value}`;
  return { key: `${key}\n${JSON.stringify(rest)}`, id, list };
}

/** The kept answer with this caller's id and the kept headers, sent as a prepared response (as REST answers). */
export function replayAnswer(event: H3Event, kept: CachedResponse, id: string | number): Response {
  const body = kept.slot === undefined ? kept.body : withId(kept.body, kept.slot, id);
  return preparedResponse(event, body, kept.headers === undefined ? { 'content-type': kept.contentType } : { ...kept.headers, 'content-type': kept.contentType });
}

/** The kept bytes with `id` at `slot`, copied once (no text is decoded or encoded again). */
function withId(body: Uint8Array<ArrayBuffer>, slot: number, id: string | number): Uint8Array<ArrayBuffer> {
  const idBytes = Buffer.from(JSON.stringify(id));
  return Buffer.concat([body.subarray(0, slot), idBytes, body.subarray(slot)], body.byteLength + idBytes.byteLength);
}

/** The table of kept list answers (one per mounted endpoint). */
export function createKeptLists(): LRUCache<string, CachedResponse> {
  return new LRUCache<string, CachedResponse>({ max: MAX_KEPT_LISTS });
}

/**
 * Keeps the SDK's answer when it can be replayed: a tool that answered from the cache, or a list that succeeded.
 * Returns an equivalent response either way.
 */
export async function keepForReplay(response: Response, caller: McpCaller, call: ReplayableCall, cache: ResponseCache, lists: LRUCache<string, CachedResponse>): Promise<Response> {
  const replayable = caller.replayable;
  if ((!call.list && replayable === undefined) || response.status !== 200) return response;
  const text = await response.text();
  const kept = withIdSlot(text, call.id, response.headers);
  if (kept !== undefined) {
    if (!call.list) cache.set(call.key, { ...kept, from: replayable!.from }, replayable!.freshUntil, replayable!.builtAt);
    else if (isResult(text)) lists.set(call.key, kept);
  }
  return new FastResponse(text, { status: response.status, headers: response.headers });
}

/** The answer without its id, and where the id goes back in. */
function withIdSlot(text: string, id: string | number, headers: Headers): CachedResponse | undefined {
  const idText = JSON.stringify(id);
  // The id is the message's last member, so its last occurrence is never inside the result.
  const at = text.lastIndexOf(`"id":${idText}`);
  if (at < 0) return undefined;
  const slot = at + '"id":'.length;
  const kept = Object.fromEntries([...headers].filter(([name]) => name !== 'content-type'));
  const head = text.slice(0, slot);
  const body = encodeText(head + text.slice(slot + idText.length));
  return { body, contentType: headers.get('content-type') ?? 'application/json', fetchedAt: Number.NaN, headers: kept, slot: Buffer.byteLength(head) };
}

/** A JSON-RPC success (JSON, or the data of a one-event SSE answer); an error answer is not kept. */
function isResult(text: string): boolean {
  try {
    const message = JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)) as { result?: unknown };
    return typeof message === 'object' && message !== null && message.result !== undefined;
  } catch {
    return false;
  }
}
