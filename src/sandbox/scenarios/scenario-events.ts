// The events POST /__sandbox/scenarios plants: their shape and validation against the catalogue, so a typo in a
// property id, site URL, dimension or value is a 400 naming the field instead of an event that silently matches
// nothing.
import { z } from 'zod';
import { siteOrigin, type DemoSite } from '../catalogue.ts';
import { parseIsoDate } from '../data/calendar.ts';

const isoDate = z.string().refine((d) => parseIsoDate(d) !== undefined, 'a date as YYYY-MM-DD');
const factor = z.number().positive().max(100);

const segment = {
  property: z.string().min(1),
  dimension: z.string().min(1),
  value: z.string(),
  factor,
};

export const scenarioEventSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('segment_shift'), ...segment, from: isoDate }).strict(),
  z.object({ kind: z.literal('spike'), ...segment, date: isoDate }).strict(),
  z.object({ kind: z.literal('ranking_loss'), site: z.string().min(1), query: z.string().min(1), from: isoDate, position: z.number().min(1).max(100) }).strict(),
  z.object({ kind: z.literal('cannibalisation'), site: z.string().min(1), query: z.string().min(1), pages: z.array(z.string().min(1)).min(2).max(5), from: isoDate }).strict(),
]);

export type ScenarioEvent = z.infer<typeof scenarioEventSchema>;
export type StoredEvent = ScenarioEvent & { id: string };
export type SegmentEvent = Extract<ScenarioEvent, { kind: 'segment_shift' | 'spike' }>;
export type SearchEvent = Extract<ScenarioEvent, { kind: 'ranking_loss' | 'cannibalisation' }>;

export const postBodySchema = z.object({ events: z.array(scenarioEventSchema).min(1).max(500) }).strict();

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
