// The REST facade's micro-cache: a repeated GET by the same credential is answered with the body it got a moment
// ago, without running the operation again. Auth, scope and rate limits still run on every request. Entries live
// no longer than the data they were built from stays fresh, and at most MAX_TTL_MS, which also bounds how long a
// write nobody announced (another process without Redis) can go unnoticed, the same bound as the API-key cache.
// Every write this instance or a peer announces (project, grant, funnel, data source, key revocation) drops the
// answers it may have changed (answer-invalidation.ts).
import { LRUCache } from 'lru-cache';
import { JSON_TYPE } from '../http/responses.ts';
import { CSV_TYPE } from './csv.ts';

export interface CachedResponse {
  /**
   * The answer's UTF-8 bytes, encoded once when stored: a string body is measured and encoded again on every send,
   * which for a body with any character beyond Latin-1 (an en dash in a warning) cost more than the rest of a warm
   * answer's Siteline work together.
   */
  body: Uint8Array<ArrayBuffer>;
  contentType: string;
  /** meta.fetchedAt as epoch ms, for Age; NaN for answers without provider data (projects, funnels). */
  fetchedAt: number;
  /** Set by the cache: when the entry expires (epoch ms), so answers derived from it expire with it. */
  expiresAt?: number;
  /** Headers to send with `body` besides Content-Type (prepared once, e.g. an MCP stream's). */
  headers?: Readonly<Record<string, string>>;
  /** The byte offset in `body` where a per-request value (an MCP answer's JSON-RPC id) goes. */
  slot?: number;
  /**
   * The kept answer this one was made from (an MCP answer replayed from it): served only while that is still the
   * answer kept under its key, so a refresh of the answer (a forced call) retires what was derived from it.
   */
  from?: { key: string; entry: CachedResponse };
}

/**
 * One key space for every facade: the same stored operation with the same variables for the same credential is the
 * same answer, whether REST or MCP asked for it. `force` is not part of it (see `answerSlot`).
 */
export function responseCacheKey(credentialId: string, format: 'json' | 'csv', endpoint: { operation: string; field?: string }, variables: Record<string, unknown>): string {
  const names = Object.keys(variables).sort();
  let key = `${credentialId}\n${format}\n${endpoint.operation}.${endpoint.field ?? ''}`;
  for (const name of names) if (name !== 'force') key += `\n${name}=${String(variables[name])}`;
  return key;
}

/** Where a facade keeps an answer, and whether one kept there may answer this call. */
export interface AnswerSlot {
  key: string;
  serve: boolean;
}

/**
 * The one cache-bypass rule of REST and MCP: `force=1` passes every cache layer on its way without reading it (the
 * kept answer here, the provider caches below) and refreshes each with what it fetched — the answer it gets is kept
 * in the same slot as the plain call's, so the next plain call is answered with it instead of running again.
 */
export function answerSlot(credentialId: string, format: 'json' | 'csv', endpoint: { operation: string; field?: string }, variables: Record<string, unknown>): AnswerSlot {
  // Any other force value is not a plain call either: the operation runs and refuses it (a 400 naming `force`).
  return { key: responseCacheKey(credentialId, format, endpoint, variables), serve: variables.force === undefined || variables.force === '0' };
}

/**
 * What a repeat of a request will be answered with: the same body (JSON, or `csv` when that was asked for), marked as
 * a cache hit when it has meta.
 */
export function cachedAnswerOf(body: unknown, csv?: string): CachedResponse {
  const meta = typeof body === 'object' && body !== null ? (body as { meta?: { fetchedAt?: string } }).meta : undefined;
  const hasMeta = typeof meta === 'object' && meta !== null;
  const fetchedAt = hasMeta ? Date.parse(meta.fetchedAt ?? '') : Number.NaN;
  if (csv !== undefined) return { body: encodeText(csv), contentType: CSV_TYPE, fetchedAt };
  return { body: encodeText(JSON.stringify(hasMeta ? { ...(body as object), meta: { ...meta, cache: 'hit' } } : body)), contentType: JSON_TYPE, fetchedAt };
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** UTF-8 bytes in an array of their own (a small `Buffer.from` would keep a slice of a shared 8 KiB pool alive). */
export function encodeText(text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(text);
}

/** A kept answer's text (the MCP tool result embeds it in its own message). */
export function textOf(response: CachedResponse): string {
  return decoder.decode(response.body);
}

/** What an entry holds in memory besides its body bytes: the key, the entry and its byte array's objects. */
const ENTRY_OVERHEAD_BYTES = 256;

export interface ResponseCache {
  get(key: string): CachedResponse | undefined;
  /**
   * Stores until `freshUntil` (capped); ignored when that is too close to be worth it, or when the cache was cleared
   * since `builtAt` (the `version()` read before the answer was built: it may predate the write that cleared it).
   */
  set(key: string, response: CachedResponse, freshUntil: number, builtAt?: number): void;
  /** Increases with every drop. */
  version(): number;
  /** Drops the kept answers a write changed ('all', or those the test picks out). */
  drop(which: KeptAnswers): void;
}

/** What an answer is kept for: the credential that asked and the stored operation that built it. */
export interface AnswerKey {
  credentialId: string;
  operation: string;
}
export type KeptAnswers = 'all' | ((answer: AnswerKey) => boolean);

function answerKeyOf(key: string): AnswerKey {
  const [credentialId = '', , endpoint = ''] = key.split('\n', 3);
  return { credentialId, operation: endpoint.slice(0, endpoint.indexOf('.')) };
}

export const MAX_TTL_MS = 30_000;
const MIN_TTL_MS = 1_000;

export function createResponseCache(options: { maxBytes?: number; now?: () => number } = {}): ResponseCache {
  const now = options.now ?? Date.now;
  const cache = new LRUCache<string, CachedResponse>({
    maxSize: options.maxBytes ?? 16 * 1024 * 1024,
    sizeCalculation: (entry, key) => entry.body.byteLength + key.length * 2 + ENTRY_OVERHEAD_BYTES,
    ttlAutopurge: false,
    perf: { now },
  });
  let version = 0;
  return {
    get(key) {
      const entry = cache.get(key);
      if (entry?.from === undefined || cache.peek(entry.from.key) === entry.from.entry) return entry;
      cache.delete(key);
      return undefined;
    },
    set(key, response, freshUntil, builtAt = version) {
      const ttl = Math.min(MAX_TTL_MS, freshUntil - now());
      if (ttl >= MIN_TTL_MS && builtAt === version) cache.set(key, { ...response, expiresAt: now() + ttl }, { ttl });
    },
    version: () => version,
    drop(which) {
      // Every drop retires the answers being built now (their builtAt is older), whichever it drops: a build cannot
      // tell which rows it read, and a narrower rule is not worth a wrong answer for 30 s.
      version++;
      if (which === 'all') return cache.clear();
      const dropped: string[] = [];
      for (const key of cache.keys()) if (which(answerKeyOf(key))) dropped.push(key);
      for (const key of dropped) cache.delete(key);
    },
  };
}
