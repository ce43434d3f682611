// REST routes for the raw provider proxies: POST, JSON body ≤ 64 KiB, scope `raw`.
import { rawBodyResponse } from '../raw-body.ts';
import { defineRestRoute } from '../rest-route.ts';

const BODY = 'Body: {"project_key": "<project>", "path": "<provider path>", "body": {<provider request>}}, Content-Type application/json, at most 64 KiB.';
const SAME_RULES =
  'The project must be visible to the caller and the property or site in the path its own; anything else is a 400/404 before any upstream call. The upstream URL is rebuilt from constants, redirects are not followed and no caller header is forwarded. Success returns the provider JSON unchanged; a provider 4xx returns the same status as problem JSON (code upstream_rejected, upstream: the provider error body). Cached like other reads, keyed on the exact body; force=1 refreshes.';

export const rawProxyRoutes = [
  defineRestRoute({
    method: 'POST',
    path: '/api/v1/raw/analytics/proxy',
    operation: 'RawAnalyticsProxy',
    field: 'rawProxy',
    query: ['force'],
    scope: 'raw',
    bodyVariable: 'request',
    respond: rawBodyResponse,
    summary: 'Raw analytics Data API request',
    description: `${BODY} path: properties/<id>:runReport|runPivotReport|batchRunReports|batchRunPivotReports|runRealtimeReport|checkCompatibility or properties/<id>/metadata (body ignored). ${SAME_RULES}`,
    tags: ['raw'],
  }),
  defineRestRoute({
    method: 'POST',
    path: '/api/v1/raw/engine1/proxy',
    operation: 'RawEngine1Proxy',
    field: 'rawProxy',
    query: ['force'],
    scope: 'raw',
    bodyVariable: 'request',
    respond: rawBodyResponse,
    summary: 'Raw engine1 request',
    description: `${BODY} path: sites/<siteUrl>/searchAnalytics/query, sites/<siteUrl>/sitemaps (GET upstream, body ignored) or urlInspection/index:inspect (body.siteUrl must be the project's site and body.inspectionUrl a URL of that site). <siteUrl> may be percent-encoded. ${SAME_RULES}`,
    tags: ['raw'],
  }),
  defineRestRoute({
    method: 'POST',
    path: '/api/v1/raw/engine2/proxy',
    operation: 'RawEngine2Proxy',
    field: 'rawProxy',
    query: ['force'],
    scope: 'raw',
    bodyVariable: 'request',
    respond: rawBodyResponse,
    summary: 'Raw engine2 request',
    description: `${BODY} path: one of the read methods GetUserSites, GetQueryStats, GetPageStats, GetRankAndTrafficStats, GetQueryPageStats?query=…, GetPageQueryStats?page=…, GetQueryTrafficStats?query=…, GetQueryPageDetailStats?query=…&page=… (siteUrl, if given, must be the project's site; the API key is added by Siteline). ${SAME_RULES}`,
    tags: ['raw'],
  }),
];
