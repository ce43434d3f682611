// The demo catalogue: the sites the sandbox serves. The rest of the app seeds its demo projects from it.
import type { SiteScenario } from './scenarios/scenario-store.ts';

export type SiteSize = 'small' | 'medium' | 'large';
export type SiteKind = 'shop' | 'content' | 'saas';

export interface DemoSite {
  key: string;
  name: string;
  domain: string;
  timezone: string;
  currency: string;
  size: SiteSize;
  /** Drives the vocabulary (pages, queries, events that matter). */
  kind: SiteKind;
  analytics: { propertyId: string };
  engine1: { siteUrl: string };
  engine2: { siteUrl: string };
  /** Planted events (sandbox scenarios) the site's data carries, attached per request; none on the catalogue. */
  scenario?: SiteScenario;
}

export const DEMO_SITES: readonly DemoSite[] = [
  {
    key: 'acme-shop',
    name: 'Acme Shop',
    domain: 'www.acme-shop.example',
    timezone: 'Europe/Berlin',
    currency: 'EUR',
    size: 'large',
    kind: 'shop',
    analytics: { propertyId: '314159265' },
    engine1: { siteUrl: 'https://www.acme-shop.example/' },
    engine2: { siteUrl: 'https://www.acme-shop.example/' },
  },
  {
    key: 'northwind-journal',
    name: 'Northwind Journal',
    domain: 'northwind-journal.example',
    timezone: 'America/New_York',
    currency: 'USD',
    size: 'medium',
    kind: 'content',
    analytics: { propertyId: '271828182' },
    engine1: { siteUrl: 'sc-domain:northwind-journal.example' },
    engine2: { siteUrl: 'https://northwind-journal.example/' },
  },
  {
    key: 'tiny-saas',
    name: 'Tiny SaaS',
    domain: 'app.tiny-saas.example',
    timezone: 'UTC',
    currency: 'USD',
    size: 'small',
    kind: 'saas',
    analytics: { propertyId: '161803398' },
    engine1: { siteUrl: 'https://app.tiny-saas.example/' },
    engine2: { siteUrl: 'https://app.tiny-saas.example/' },
  },
];

export function findByPropertyId(catalogue: readonly DemoSite[], propertyId: string): DemoSite | undefined {
  return catalogue.find((s) => s.analytics.propertyId === propertyId);
}

export function findByEngine1Site(catalogue: readonly DemoSite[], siteUrl: string): DemoSite | undefined {
  return catalogue.find((s) => s.engine1.siteUrl === siteUrl);
}

/** Bing matches site URLs loosely (case, trailing slash), as its own UI does. */
export function findByEngine2Site(catalogue: readonly DemoSite[], siteUrl: string): DemoSite | undefined {
  const norm = (u: string) => u.trim().toLowerCase().replace(/\/+$/, '');
  return catalogue.find((s) => norm(s.engine2.siteUrl) === norm(siteUrl));
}

/** Scheme + host that page URLs of the site start with (for engine1, engine2 and GA pageLocation). */
export function siteOrigin(site: DemoSite): string {
  return `https://${site.domain}`;
}
