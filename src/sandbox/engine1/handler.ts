// The Search Console surface: `/webmasters/v3/...` (and `/v1/sites/...` for searchAnalytics) plus
// `/v1/urlInspection/index:inspect`. siteUrl is one percent-encoded path segment, decoded before lookup.
import { findByEngine1Site, type DemoSite } from '../catalogue.ts';
import { camelKeys, jsonResponse, readJson } from '../http.ts';
import { badRequest, noSitePermission, notFound } from './gsc-errors.ts';
import { querySearchAnalytics } from './search-analytics.ts';
import { getSite, getSitemap, inspectUrl, listSitemaps, listSites } from './sites.ts';

export interface Engine1Route {
  method: string;
  siteUrl?: string;
  feedpath?: string;
}

const decode = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest(`Invalid siteUrl: ${segment}`);
  }
};

export function matchEngine1(method: string, path: string): Engine1Route | undefined {
  if (path === '/v1/urlInspection/index:inspect' && method === 'POST') return { method: 'urlInspection.index.inspect' };
  if ((path === '/webmasters/v3/sites' || path === '/v1/sites') && method === 'GET') return { method: 'sites.list' };
  const m = /^\/(?:webmasters\/v3|v1)\/sites\/([^/]+)(\/.*)?$/.exec(path);
  if (!m) return undefined;
  const siteUrl = decode(m[1]!);
  const rest = m[2] ?? '';
  if (rest === '/searchAnalytics/query' && method === 'POST') return { method: 'searchanalytics.query', siteUrl };
  if (rest === '' && method === 'GET') return { method: 'sites.get', siteUrl };
  if (rest === '/sitemaps' && method === 'GET') return { method: 'sitemaps.list', siteUrl };
  const feed = /^\/sitemaps\/([^/]+)$/.exec(rest);
  if (feed && method === 'GET') return { method: 'sitemaps.get', siteUrl, feedpath: decode(feed[1]!) };
  return undefined;
}

export async function handleEngine1(request: Request, route: Engine1Route, catalogue: readonly DemoSite[], now: Date): Promise<Response> {
  if (route.method === 'sites.list') return jsonResponse(listSites(catalogue));
  if (route.method === 'urlInspection.index.inspect') return jsonResponse(inspectUrl(catalogue, camelKeys(await readJson(request)) as Record<string, unknown>, now));
  const site = findByEngine1Site(catalogue, route.siteUrl!);
  if (!site) throw noSitePermission(route.siteUrl!);
  switch (route.method) {
    case 'searchanalytics.query':
      return jsonResponse(querySearchAnalytics(site, camelKeys(await readJson(request)) as Record<string, unknown>, now));
    case 'sites.get':
      return jsonResponse(getSite(site));
    case 'sitemaps.list':
      return jsonResponse(listSitemaps(site, now));
    case 'sitemaps.get':
      return jsonResponse(getSitemap(site, route.feedpath!, now));
    default:
      throw notFound(`Method not found: ${route.method}`);
  }
}
