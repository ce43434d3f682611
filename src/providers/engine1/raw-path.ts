// Validates a raw-proxy path for engine1 and rebuilds the upstream path from constants.
import { invalidParameter, notFound } from '../../errors/app-error.ts';

export interface RawEngine1Target {
  method: 'GET' | 'POST';
  /** Relative to the API root. */
  path: string;
  operation: 'searchAnalytics.query' | 'sitemaps.list' | 'urlInspection.inspect';
}

const ALLOWED = 'sites/<siteUrl>/searchAnalytics/query, sites/<siteUrl>/sitemaps or urlInspection/index:inspect';

export function toRawEngine1Path(method: string, path: string, siteUrl: string, body: unknown): RawEngine1Target {
  const verb = method.toUpperCase();
  if (path === 'urlInspection/index:inspect') {
    expectMethod(verb, 'POST');
    const bodySite = typeof body === 'object' && body !== null ? (body as { siteUrl?: unknown }).siteUrl : undefined;
    if (bodySite !== siteUrl) throw notFound('The site in the body is not this project\'s engine1 site.');
    assertInspectionUrlInSite((body as { inspectionUrl?: unknown }).inspectionUrl, siteUrl);
    return { method: 'POST', path: 'v1/urlInspection/index:inspect', operation: 'urlInspection.inspect' };
  }
  const match = /^sites\/(.+?)\/(searchAnalytics\/query|sitemaps)$/s.exec(path);
  if (match === null) throw invalidParameter('path', `Path "${path.slice(0, 200)}" is not allowed; use ${ALLOWED}.`);
  const [, segment = '', rest] = match;
  let site: string;
  try {
    site = segment.includes('%') ? decodeURIComponent(segment) : segment;
  } catch {
    throw invalidParameter('path', 'The site segment of the path is not valid percent-encoding.');
  }
  // Exact match against the bound site: traversal or another host can only match if it *is* the project's site.
  if (site !== siteUrl) throw notFound('The site in the path is not this project\'s engine1 site.');
  const encoded = encodeURIComponent(siteUrl);
  if (rest === 'sitemaps') {
    expectMethod(verb, 'GET');
    return { method: 'GET', path: `webmasters/v3/sites/${encoded}/sitemaps`, operation: 'sitemaps.list' };
  }
  expectMethod(verb, 'POST');
  return { method: 'POST', path: `webmasters/v3/sites/${encoded}/searchAnalytics/query`, operation: 'searchAnalytics.query' };
}

function expectMethod(actual: string, expected: 'GET' | 'POST'): void {
  if (actual !== expected) throw invalidParameter('method', `This path takes ${expected}, not ${actual}.`);
}

/**
 * Search Console inspects only URLs of the property: under a URL-prefix property's prefix (same scheme and host),
 * or on a domain property's host or any of its subdomains, over http or https.
 */
function assertInspectionUrlInSite(inspectionUrl: unknown, siteUrl: string): void {
  const refuse = () => invalidParameter('inspectionUrl', `inspectionUrl must be an absolute URL of this project's site ${siteUrl}.`);
  if (typeof inspectionUrl !== 'string' || !URL.canParse(inspectionUrl)) throw refuse();
  const url = new URL(inspectionUrl);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse();
  if (siteUrl.startsWith('sc-domain:')) {
    const domain = siteUrl.slice('sc-domain:'.length).toLowerCase();
    if (url.hostname !== domain && !url.hostname.endsWith(`.${domain}`)) throw refuse();
    return;
  }
  if (!URL.canParse(siteUrl) || !url.href.startsWith(new URL(siteUrl).href)) throw refuse();
}
