// Planted events checked against the catalogue, so a typo in a property id, site URL, dimension or value is a 400
// naming the field instead of an event that silently matches nothing.
import { siteOrigin, type DemoSite } from '../catalogue.ts';
import type { ScenarioEvent } from './scenario-shapes.ts';

export interface EventIssue {
  path: string;
  message: string;
}

/** The host a site URL names: `sc-domain:example.com`, `https://www.example.com/` or a bare host. */
function hostOf(siteUrl: string): string {
  const trimmed = siteUrl.trim().toLowerCase();
  if (trimmed.startsWith('sc-domain:')) return trimmed.slice('sc-domain:'.length);
  try {
    return new URL(trimmed.includes('://') ? trimmed : `https://${trimmed}`).hostname;
  } catch {
    return trimmed;
  }
}

/** The demo site an event is about: by GA property id, or by the engine1 or engine2 site URL (matched by host). */
export function siteOfEvent(catalogue: readonly DemoSite[], event: ScenarioEvent): DemoSite | undefined {
  if (event.kind === 'segment_shift' || event.kind === 'spike') return catalogue.find((s) => s.analytics.propertyId === event.property);
  const host = hostOf(event.site);
  // sc-domain: covers the apex and every subdomain, as a domain property does.
  return catalogue.find((s) => [s.engine1.siteUrl, s.engine2.siteUrl, s.domain].some((u) => hostOf(u) === host) || s.domain.endsWith(`.${host}`));
}

/** A page given as a path or a full URL of the site, as the page URL the engines report. */
export function pageUrl(site: DemoSite, page: string): string {
  return page.startsWith('/') ? siteOrigin(site) + page : page;
}

export function catalogueIssues(catalogue: readonly DemoSite[], events: readonly ScenarioEvent[], segmentValues: (site: DemoSite, dimension: string) => readonly string[] | undefined): EventIssue[] {
  const issues: EventIssue[] = [];
  events.forEach((event, i) => {
    const at = (field: string) => `events[${i}].${field}`;
    const site = siteOfEvent(catalogue, event);
    if (!site) {
      const field = event.kind === 'segment_shift' || event.kind === 'spike' ? 'property' : 'site';
      issues.push({ path: at(field), message: `No sandbox site has this ${field === 'property' ? 'GA4 property id' : 'site URL'}.` });
      return;
    }
    if (event.kind === 'segment_shift' || event.kind === 'spike') {
      const values = segmentValues(site, event.dimension);
      if (!values) issues.push({ path: at('dimension'), message: `Events can shift these dimensions: country, city, continent, deviceCategory, operatingSystem, browser, sessionDefaultChannelGroup, sessionSource, sessionMedium, sessionSourceMedium, sessionCampaignName, landingPage.` });
      else if (!values.includes(event.value)) issues.push({ path: at('value'), message: `'${event.value}' is not a ${event.dimension} of this property (e.g. ${values.slice(0, 3).map((v) => `'${v}'`).join(', ')}).` });
    }
    if (event.kind === 'cannibalisation') {
      event.pages.forEach((page, j) => {
        const url = pageUrl(site, page);
        if (!url.startsWith(`${siteOrigin(site)}/`)) issues.push({ path: at(`pages[${j}]`), message: `Pages are paths ('/a') or URLs of ${siteOrigin(site)}.` });
      });
    }
  });
  return issues;
}
