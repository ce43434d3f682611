// sites.list/get, sitemaps.list/get and urlInspection.index.inspect for the demo sites.
import { findByEngine1Site, siteOrigin, type DemoSite } from '../catalogue.ts';
import { hashString, unit } from '../data/hash.ts';
import { PACIFIC, isoDate, zonedParts } from '../data/calendar.ts';
import { siteModel } from '../data/site-model.ts';
import { badRequest, noSitePermission, notFound } from './gsc-errors.ts';

type Json = Record<string, unknown>;

export function listSites(catalogue: readonly DemoSite[]): Json {
  return { siteEntry: catalogue.map((s) => ({ siteUrl: s.engine1.siteUrl, permissionLevel: 'siteOwner' })) };
}

export function getSite(site: DemoSite): Json {
  return { siteUrl: site.engine1.siteUrl, permissionLevel: 'siteOwner' };
}

function sitemapsOf(site: DemoSite, now: Date): Json[] {
  const origin = siteOrigin(site);
  const today = zonedParts(now, PACIFIC).day;
  const pages = siteModel(site).pages.length;
  const seed = hashString(site.key);
  const entry = (path: string, submitted: number, index: boolean, daysAgo: number): Json => ({
    path: origin + path,
    lastSubmitted: `${isoDate(today - 40 - daysAgo)}T08:12:00.000Z`,
    isPending: false,
    isSitemapsIndex: index,
    type: index ? 'sitemap' : 'sitemap',
    lastDownloaded: `${isoDate(today - 1 - (daysAgo % 3))}T0${3 + (daysAgo % 5)}:41:17.000Z`,
    warnings: '0',
    errors: unit(seed, daysAgo) < 0.2 ? '1' : '0',
    contents: [{ type: 'web', submitted: String(submitted), indexed: '0' }],
  });
  return [entry('/sitemap.xml', pages, true, 0), entry('/sitemap-pages.xml', Math.ceil(pages * 0.7), false, 1), entry('/sitemap-posts.xml', Math.floor(pages * 0.3), false, 2)];
}

export function listSitemaps(site: DemoSite, now: Date): Json {
  return { sitemap: sitemapsOf(site, now) };
}

export function getSitemap(site: DemoSite, feedpath: string, now: Date): Json {
  const found = sitemapsOf(site, now).find((s) => s.path === feedpath);
  if (!found) throw notFound(`Sitemap not found: ${feedpath}`);
  return found;
}

export function inspectUrl(catalogue: readonly DemoSite[], body: Json, now: Date): Json {
  const inspectionUrl = String(body.inspectionUrl ?? '');
  const siteUrl = String(body.siteUrl ?? '');
  if (!inspectionUrl) throw badRequest('inspectionUrl is required.');
  if (!siteUrl) throw badRequest('siteUrl is required.');
  const site = findByEngine1Site(catalogue, siteUrl);
  if (!site) throw noSitePermission(siteUrl);
  const origin = siteOrigin(site);
  if (!inspectionUrl.startsWith(origin)) throw badRequest(`URL ${inspectionUrl} does not belong to property ${siteUrl}.`);
  const path = new URL(inspectionUrl).pathname;
  const known = siteModel(site).pages.some((p) => p.path === path);
  const h = hashString(inspectionUrl);
  const today = zonedParts(now, PACIFIC).day;
  const indexStatusResult: Json = known
    ? {
      verdict: 'PASS', coverageState: 'Submitted and indexed', robotsTxtState: 'ALLOWED', indexingState: 'INDEXING_ALLOWED',
      lastCrawlTime: `${isoDate(today - 1 - (h % 20))}T${String(h % 24).padStart(2, '0')}:22:31Z`, pageFetchState: 'SUCCESSFUL',
      googleCanonical: inspectionUrl, userCanonical: inspectionUrl, crawledAs: 'MOBILE', sitemap: [`${origin}/sitemap.xml`],
      referringUrls: [`${origin}/`],
    }
    : { verdict: 'NEUTRAL', coverageState: 'URL is unknown to Google', robotsTxtState: 'ROBOTS_TXT_STATE_UNSPECIFIED', indexingState: 'INDEXING_STATE_UNSPECIFIED', pageFetchState: 'PAGE_FETCH_STATE_UNSPECIFIED' };
  return {
    inspectionResult: {
      inspectionResultLink: `https://search.google.com/search-console/inspect?resource_id=${encodeURIComponent(siteUrl)}&id=${h.toString(36)}`,
      indexStatusResult,
      mobileUsabilityResult: known ? { verdict: 'PASS' } : { verdict: 'VERDICT_UNSPECIFIED' },
    },
  };
}
