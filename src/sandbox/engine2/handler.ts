// The Bing Webmaster JSON surface: GET /webmaster/api.svc/json/{Method}?apikey=&siteUrl=…, answering
// {"d": [...]} with __type and PascalCase, or a bare {ErrorCode, Message} error.
import { findByEngine2Site, type DemoSite } from '../catalogue.ts';
import { hashString } from '../data/hash.ts';
import { ProviderError } from '../http.ts';
import { bingDate, wcfJson } from './bing-dates.ts';
import { bingType, queryDaily, rankAndTraffic, weeklyStats } from './bing-stats.ts';

export const BING_METHODS = ['GetUserSites', 'GetQueryStats', 'GetPageStats', 'GetQueryPageStats', 'GetPageQueryStats', 'GetRankAndTrafficStats',
  'GetQueryTrafficStats', 'GetQueryPageDetailStats'];

export const bingError = (status: number, code: number, name: string) => new ProviderError(status, { ErrorCode: code, Message: `ERROR!!! ${name}` });

export function matchEngine2(path: string): string | undefined {
  const m = /^\/webmaster\/api\.svc\/json\/([A-Za-z]+)$/.exec(path);
  return m ? m[1] : undefined;
}

export function bingResponse(body: unknown, status = 200): Response {
  return new Response(wcfJson(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
}

export function handleEngine2(url: URL, method: string, catalogue: readonly DemoSite[], apiKey: string, keyRevoked: boolean, now: Date): Response {
  if (!BING_METHODS.includes(method)) throw bingError(404, 11, 'NotFound');
  const key = url.searchParams.get('apikey') ?? url.searchParams.get('apiKey');
  if (!key || key !== apiKey || keyRevoked) throw bingError(400, 3, 'InvalidApiKey');
  if (method === 'GetUserSites') {
    return bingResponse({
      d: catalogue.map((s) => ({
        __type: bingType('Site'), AuthenticationCode: hashString(s.key).toString(16).toUpperCase().padStart(8, '0'), DnsVerificationCode: '',
        IsVerified: true, Url: s.engine2.siteUrl,
      })),
    });
  }
  const siteUrl = url.searchParams.get('siteUrl');
  if (!siteUrl) throw bingError(400, 8, 'InvalidParameter');
  const site = findByEngine2Site(catalogue, siteUrl);
  if (!site) throw bingError(400, 14, 'NotAuthorized');
  const param = (name: string) => {
    const v = url.searchParams.get(name);
    if (v === null || v === '') throw bingError(400, 8, 'InvalidParameter');
    return v;
  };
  switch (method) {
    case 'GetQueryStats': return bingResponse({ d: weeklyStats(site, now, 'query') });
    case 'GetPageStats': return bingResponse({ d: weeklyStats(site, now, 'page') });
    case 'GetQueryPageStats': return bingResponse({ d: weeklyStats(site, now, 'page', { query: param('query') }) });
    case 'GetPageQueryStats': return bingResponse({ d: weeklyStats(site, now, 'query', { page: param('page') }) });
    case 'GetRankAndTrafficStats': return bingResponse({ d: rankAndTraffic(site, now) });
    case 'GetQueryTrafficStats':
      return bingResponse({ d: queryDaily(site, now, param('query')).map((r) => ({ __type: bingType('RankAndTrafficStats'), Clicks: r.clicks, Date: bingDate(r.day), Impressions: r.impressions })) });
    default:
      return bingResponse({ d: queryDaily(site, now, param('query'), param('page')).map((r) => ({ __type: bingType('DetailedQueryStats'), Clicks: r.clicks, Date: bingDate(r.day), Impressions: r.impressions, Position: r.position })) });
  }
}
