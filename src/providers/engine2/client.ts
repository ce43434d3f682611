// The engine2 (Bing Webmaster) client for one site: plain fetch, the key only ever inside the request URL.
import type { z } from 'zod';
import type { ProviderEndpoints } from '../endpoints.ts';
import { credentialIdentity } from '../google-auth.ts';
import type { RawResponse } from '../raw-response.ts';
import { readRawBody } from '../raw-response.ts';
import type { Resilience } from '../resilience.ts';
import { forEachSliced } from '../../limits/event-loop-slice.ts';
import { MalformedAnswer, parseRetryAfter, parseShape } from '../upstream-errors.ts';
import { Engine2Failure, classifyEngine2Error } from './errors.ts';
import type { Engine2PageRow, Engine2QueryRow, Engine2TrafficRow } from './normalize.ts';
import { toPageRow, toQueryRow, toTrafficRow } from './normalize.ts';
import { toRawEngine2Path } from './raw-path.ts';
import { errorBodySchema, queryStatsSchema, siteSchema, trafficStatsSchema, uncheckedList } from './shapes.ts';

export interface Engine2Client {
  readonly siteUrl: string;
  getUserSites(): Promise<{ url: string; verified: boolean }[]>;
  /** Weekly rows per query, the whole history Bing keeps (no date filter upstream). */
  getQueryStats(): Promise<Engine2QueryRow[]>;
  /** Weekly rows per page. */
  getPageStats(): Promise<Engine2PageRow[]>;
  /** Daily clicks and impressions of the site. */
  getRankAndTrafficStats(): Promise<Engine2TrafficRow[]>;
  /** Pages for one query. */
  getQueryPageStats(query: string): Promise<Engine2PageRow[]>;
  /** Queries for one page. */
  getPageQueryStats(page: string): Promise<Engine2QueryRow[]>;
  /** Daily clicks and impressions for one query. */
  getQueryTrafficStats(query: string): Promise<Engine2TrafficRow[]>;
  /** Raw proxy: `path` is `GetX` or `GetX?query=…`; the provider's JSON back unchanged. */
  rawRequest(method: string, path: string): Promise<RawResponse>;
}

export interface Engine2ClientDeps {
  endpoints: ProviderEndpoints;
  resilience: Resilience;
}

export function createEngine2Client(deps: Engine2ClientDeps, apiKey: string, siteUrl: string): Engine2Client {
  const credentialId = credentialIdentity({ kind: 'api_key', apiKey });
  const fetchImpl = deps.endpoints.fetch ?? fetch;

  /** One GET. Errors raised here carry status and body only — never the URL, which holds the key. */
  async function get(method: string, params: Record<string, string>, signal: AbortSignal) {
    const url = new URL(`webmaster/api.svc/json/${method}`, deps.endpoints.bingRoot);
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    url.searchParams.set('apikey', apiKey);
    const res = await fetchImpl(url, { headers: { accept: 'application/json' }, signal, redirect: 'manual' });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      // Non-JSON: an error status is judged by status below; a 2xx is malformed.
    }
    const error = errorBodySchema.safeParse(body);
    if (!res.ok || error.success) {
      const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'));
      throw new Engine2Failure(res.status, body, error.success ? error.data.ErrorCode : undefined, retryAfterMs);
    }
    if (typeof body === 'string') throw new MalformedAnswer(`${method}: not JSON`);
    return { status: res.status, text, body };
  }

  function call<T, A = T>(operation: string, attempt: (signal: AbortSignal) => Promise<A>, raw = false, read?: (answer: A) => Promise<T>): Promise<T> {
    return deps.resilience.execute<T, A>({
      source: 'engine2',
      operation,
      target: siteUrl,
      credentialId,
      attempt,
      ...(read ? { read } : {}),
      classify: (error) => classifyEngine2Error(error, { siteUrl, raw, apiKey }),
    });
  }

  /**
   * A list answer, each row checked against `item` and converted (undefined: left out). Query and page stats cover
   * the site's whole history, tens of thousands of rows: read in slices, so other requests run meanwhile.
   */
  function list<S extends z.ZodType, R>(method: string, item: S, params: Record<string, string>, toRow: (row: z.infer<S>) => R | undefined) {
    return call(
      method,
      async (signal) => parseShape(uncheckedList, (await get(method, params, signal)).body, method).d ?? [],
      false,
      async (answer) => {
        const rows: R[] = [];
        await forEachSliced(answer, (raw) => {
          const row = toRow(parseShape(item, raw, method));
          if (row !== undefined) rows.push(row);
        });
        return rows;
      },
    );
  }
  const site = { siteUrl };

  return {
    siteUrl,
    getUserSites: () =>
      list('GetUserSites', siteSchema, {}, (s) => ({ url: s.Url, verified: s.IsVerified ?? false })),
    getQueryStats: () => list('GetQueryStats', queryStatsSchema, site, toQueryRow),
    getPageStats: () => list('GetPageStats', queryStatsSchema, site, toPageRow),
    getRankAndTrafficStats: () => list('GetRankAndTrafficStats', trafficStatsSchema, site, toTrafficRow),
    getQueryPageStats: (query) => list('GetQueryPageStats', queryStatsSchema, { ...site, query }, toPageRow),
    getPageQueryStats: (page) => list('GetPageQueryStats', queryStatsSchema, { ...site, page }, toQueryRow),
    getQueryTrafficStats: (query) => list('GetQueryTrafficStats', trafficStatsSchema, { ...site, query }, toTrafficRow),
    async rawRequest(method, path) {
      const target = toRawEngine2Path(method, path, siteUrl);
      return call(
        `raw:${target.operation}`,
        async (signal) => {
          const { status, text } = await get(target.operation, target.params, signal);
          return readRawBody(status, text, undefined, `raw ${target.operation}`);
        },
        true,
      );
    },
  };
}
