// The engine1 (Search Console) client for one site: official library calls through the resilience pipeline.
import type { searchconsole_v1 } from '@googleapis/searchconsole';
import type { OAuth2Client } from 'google-auth-library';
import type { ProviderEndpoints } from '../endpoints.ts';
import type { GoogleSession } from '../google-auth.ts';
import type { RawResponse } from '../raw-response.ts';
import { googleRawAttempt } from '../raw-response.ts';
import { searchConsoleLibrary } from '../google-libraries.ts';
import type { Resilience } from '../resilience.ts';
import { parseShape } from '../upstream-errors.ts';
import { classifyEngine1Error } from './errors.ts';
import type { SearchFreshness, SearchRow, Sitemap } from './normalize.ts';
import { normalizeSearchRows, normalizeSitemaps, readFreshness } from './normalize.ts';
import { toRawEngine1Path } from './raw-path.ts';
import { inspectionSchema, searchAnalyticsSchema, sitemapsSchema, sitesSchema } from './shapes.ts';

export type SearchAnalyticsRequest = searchconsole_v1.Schema$SearchAnalyticsQueryRequest;

/** The provider's maximum `rowLimit` per call. */
export const PAGE_SIZE = 25_000;
/** Upper bound on pages for one query (1,000,000 rows): a runaway loop must not eat the site's quota. */
export const MAX_PAGES = 40;

export interface SearchAnalyticsResult extends SearchFreshness {
  rows: SearchRow[];
  responseAggregationType?: string;
  /** Upstream calls made (one per page). */
  pages: number;
  /** True when MAX_PAGES stopped the paging before a short page. */
  truncated: boolean;
}

export interface Engine1Client {
  readonly siteUrl: string;
  /** `rowLimit` may exceed 25,000: pages with `startRow` until a short page, `rowLimit` rows, or MAX_PAGES. */
  querySearchAnalytics(request: SearchAnalyticsRequest): Promise<SearchAnalyticsResult>;
  listSites(): Promise<{ siteUrl: string; permissionLevel: string }[]>;
  listSitemaps(): Promise<Sitemap[]>;
  inspectUrl(inspectionUrl: string, languageCode?: string): Promise<Record<string, unknown>>;
  rawRequest(method: string, path: string, body?: unknown): Promise<RawResponse>;
}

export function createSearchConsoleApi(auth: OAuth2Client, endpoints: ProviderEndpoints): searchconsole_v1.Searchconsole {
  return searchConsoleLibrary().searchconsole({
    version: 'v1',
    auth,
    rootUrl: endpoints.searchConsoleRoot,
    retry: false,
    ...(endpoints.fetch ? { fetchImplementation: endpoints.fetch } : {}),
  });
}

export interface Engine1ClientDeps {
  session: GoogleSession;
  api: searchconsole_v1.Searchconsole;
  endpoints: ProviderEndpoints;
  resilience: Resilience;
  isTokenRequest: (url: unknown) => boolean;
}

export function createEngine1Client(deps: Engine1ClientDeps, siteUrl: string): Engine1Client {
  const { api } = deps;
  function call<T, A = T>(operation: string, attempt: (signal: AbortSignal) => Promise<A>, raw = false, read?: (answer: A) => Promise<T>): Promise<T> {
    return deps.resilience.execute<T, A>({
      source: 'engine1',
      operation,
      target: siteUrl,
      credentialId: deps.session.identity,
      attempt,
      ...(read ? { read } : {}),
      classify: (error) => classifyEngine1Error(error, { siteUrl, raw, isTokenRequest: deps.isTokenRequest, account: deps.session.account }),
    });
  }
  const opts = (signal: AbortSignal) => ({ signal, redirect: 'manual' as const });

  function queryPage(request: SearchAnalyticsRequest, dimensions: string[]) {
    return call(
      'searchAnalytics.query',
      async (signal) => parseShape(searchAnalyticsSchema, (await api.searchanalytics.query({ siteUrl, requestBody: request }, opts(signal))).data, 'searchAnalytics.query'),
      false,
      async (native) => ({ native, rows: await normalizeSearchRows(native, dimensions) }),
    );
  }

  return {
    siteUrl,
    async querySearchAnalytics(request) {
      const dimensions = request.dimensions ?? [];
      const wanted = Math.max(1, request.rowLimit ?? 1000);
      const firstRow = request.startRow ?? 0;
      const rows: SearchRow[] = [];
      let pages = 0;
      let first: Awaited<ReturnType<typeof queryPage>>['native'] | undefined;
      let short = false;
      while (rows.length < wanted && pages < MAX_PAGES) {
        const limit = Math.min(PAGE_SIZE, wanted - rows.length);
        const page = await queryPage({ ...request, rowLimit: limit, startRow: firstRow + rows.length }, dimensions);
        pages += 1;
        first ??= page.native;
        rows.push(...page.rows);
        if (page.rows.length < limit) {
          short = true;
          break;
        }
      }
      return {
        rows,
        responseAggregationType: first?.responseAggregationType,
        ...(first ? readFreshness(first) : {}),
        pages,
        truncated: !short && rows.length < wanted,
      };
    },
    listSites: () =>
      call('sites.list', async (signal) => {
        const res = await api.sites.list({}, opts(signal));
        const native = parseShape(sitesSchema, res.data, 'sites.list');
        return (native.siteEntry ?? []).map((s) => ({ siteUrl: s.siteUrl, permissionLevel: s.permissionLevel ?? '' }));
      }),
    listSitemaps: () =>
      call('sitemaps.list', async (signal) => {
        const res = await api.sitemaps.list({ siteUrl }, opts(signal));
        return normalizeSitemaps(parseShape(sitemapsSchema, res.data, 'sitemaps.list'));
      }),
    inspectUrl: (inspectionUrl, languageCode) =>
      call('urlInspection.inspect', async (signal) => {
        const res = await api.urlInspection.index.inspect(
          { requestBody: { inspectionUrl, siteUrl, ...(languageCode ? { languageCode } : {}) } },
          opts(signal),
        );
        return parseShape(inspectionSchema, res.data, 'urlInspection.inspect').inspectionResult;
      }),
    async rawRequest(method, path, body) {
      const target = toRawEngine1Path(method, path, siteUrl, body);
      return call(`raw:${target.operation}`, (signal) => googleRawAttempt(deps.session, deps.endpoints.searchConsoleRoot, target, body, signal), true);
    },
  };
}
