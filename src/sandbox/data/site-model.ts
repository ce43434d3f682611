// The per-site generative model shared by all three providers: the page list, Zipf shares, and the daily
// totals of the site's web traffic (trend × weekly and yearly seasonality × noise), all seeded by the site key.
import type { DemoSite, SiteKind, SiteSize } from '../catalogue.ts';
import { siteOrigin } from '../catalogue.ts';
import { gaussian, hashString, unit } from './hash.ts';
import { buildPages, buildQueries } from './vocabulary.ts';
import { dateParts, weekday } from './calendar.ts';
import { otherEventsPerSession, RATIOS } from './events.ts';
import type { CellEffect } from './cube.ts';
import { TREND_ANCHOR } from './own-trends.ts';

export interface SizeProfile {
  sessions: number;
  pages: number;
  queries: number;
  referrers: number;
  items: number;
}

export const SIZES: Record<SiteSize, SizeProfile> = {
  small: { sessions: 180, pages: 30, queries: 900, referrers: 8, items: 6 },
  medium: { sessions: 3_200, pages: 320, queries: 7_000, referrers: 25, items: 24 },
  large: { sessions: 42_000, pages: 2_500, queries: 45_000, referrers: 60, items: 240 },
};

/** Data starts here (GA accepts dates from 2015-08-14; the demo sites launched later). */
export const FIRST_DAY = Math.floor(Date.UTC(2021, 0, 1) / 86_400_000);

export interface Page {
  path: string;
  title: string;
  /** Share of pageviews. */
  share: number;
  /** Share of landings (entrances). */
  landingShare: number;
  /** Share of organic search impressions. */
  searchShare: number;
}

export interface SiteModel {
  site: DemoSite;
  seed: number;
  size: SizeProfile;
  origin: string;
  pages: Page[];
  readonly queries: string[];
  /** Daily GA base totals (integers), keyed by base-metric name. Zero outside [FIRST_DAY, ∞). */
  dailyTotals(day: number): Readonly<Record<string, number>>;
  /** The relative volume of a day: trend × seasonality × noise (also drives the search engines). */
  volume(day: number): number;
  /** Planted changes of the day (sandbox scenarios), already in `dailyTotals`; absent on the plain model. */
  dayEffects?(day: number): readonly CellEffect[];
}

/** Normalised Zipf weights with multiplicative noise so neighbouring ranks are not perfectly ordered. */
export function zipfShares(count: number, exponent: number, seed: number, noise = 0.25): number[] {
  const raw = Array.from({ length: count }, (_, r) => (1 / Math.pow(r + 1, exponent)) * (1 - noise + 2 * noise * unit(seed, r)));
  const sum = raw.reduce((a, b) => a + b, 0);
  return raw.map((w) => w / sum);
}

const WEEKLY: Record<SiteKind, number[]> = {
  // Sunday … Saturday
  shop: [1.12, 0.95, 0.93, 0.94, 0.97, 1.0, 1.09],
  content: [1.05, 1.0, 0.98, 0.97, 0.98, 0.96, 1.06],
  saas: [0.55, 1.14, 1.18, 1.17, 1.13, 1.02, 0.61],
};

const models = new Map<string, SiteModel>();

/** Forgets every built model (benchmarks measure cold generation with it). */
export function clearSiteModels(): void {
  models.clear();
}

export function siteModel(site: DemoSite): SiteModel {
  const cacheKey = `${site.key}|${site.analytics.propertyId}|${site.size}|${site.kind}`;
  let model = models.get(cacheKey);
  if (!model) models.set(cacheKey, (model = createSiteModel(site)));
  return model;
}

function createSiteModel(site: DemoSite): SiteModel {
  const seed = hashString(site.key);
  const size = SIZES[site.size];
  const basePages = buildPages(site.kind, size.pages);
  const viewShares = zipfShares(basePages.length, 0.95, seed ^ 0x51);
  const landing = zipfShares(basePages.length, 1.1, seed ^ 0x52, 0.6);
  // Search sends visitors to the pages people land on: a page's search share follows its landing share.
  const search = landing.map((l, i) => l * (0.55 + 0.9 * unit(seed ^ 0x53, i)));
  const pages = basePages.map((p, i) => ({
    ...p,
    share: viewShares[i]!,
    // Cart and checkout pages are visited, not landed on or found through search.
    landingShare: /^\/(cart|checkout|account|signup\/done)/.test(p.path) ? 0 : landing[i]!,
    searchShare: /^\/(cart|checkout|account|search|login|signup\/done)/.test(p.path) ? 0 : search[i]!,
  }));
  renormalise(pages, 'landingShare');
  renormalise(pages, 'searchShare');
  shapeViewShares(pages, site.kind);
  let queries: string[] | undefined;
  const weekly = WEEKLY[site.kind];
  const ratios = RATIOS[site.kind];
  const phase = unit(seed, 7) * Math.PI * 2;
  const cache = new Map<number, Record<string, number>>();

  const volume = (day: number): number => {
    if (day < FIRST_DAY) return 0;
    const trend = Math.max(0.3, 1 + 0.22 * ((day - TREND_ANCHOR) / 365));
    const season = 1 + 0.12 * Math.sin((2 * Math.PI * dateParts(day).dayOfYear) / 365.25 + phase);
    const noise = Math.exp(0.07 * gaussian(seed, day));
    return trend * season * weekly[weekday(day)]! * noise;
  };

  const dailyTotals = (day: number): Record<string, number> => {
    let totals = cache.get(day);
    if (totals) return totals;
    const v = volume(day);
    const n = (k: number) => Math.exp(0.04 * gaussian(seed, day, k));
    const sessions = Math.round(size.sessions * v);
    const totalUsers = Math.min(sessions, Math.round(sessions * ratios.users * n(1)));
    const newUsers = Math.min(totalUsers, Math.round(totalUsers * ratios.newShare * n(2)));
    const activeUsers = Math.min(totalUsers, Math.round(totalUsers * 0.965));
    const engagedSessions = Math.min(sessions, Math.round(sessions * ratios.engaged * n(3)));
    const screenPageViews = Math.max(sessions, Math.round(sessions * ratios.pps * n(4)));
    // page_view, session_start and first_visit are the views, sessions and new users themselves.
    const eventCount = screenPageViews + sessions + newUsers + Math.round(sessions * otherEventsPerSession(site.kind) * n(5));
    const addToCarts = Math.round(sessions * ratios.cart * n(6));
    const checkouts = Math.round((ratios.cart > 0 ? addToCarts : sessions) * ratios.checkout * n(7));
    const ecommercePurchases = Math.min(checkouts, Math.round(checkouts * ratios.buy * n(8)));
    const purchaseRevenue = Math.round(ecommercePurchases * ratios.aov * n(9)); // in cents
    const itemsViewed = Math.round(sessions * (ratios.cart > 0 ? 1.3 : 0) * n(10));
    totals = {
      sessions, totalUsers, newUsers, activeUsers, engagedSessions, screenPageViews, eventCount,
      userEngagementDuration: Math.round(engagedSessions * 118 * n(11)),
      keyEvents: Math.round(sessions * ratios.key * n(12)) + ecommercePurchases,
      addToCarts, checkouts, ecommercePurchases, purchaseRevenue,
      itemsViewed, itemsAddedToCart: Math.round(addToCarts * 1.2), itemsPurchased: Math.round(ecommercePurchases * 1.7), itemRevenue: purchaseRevenue,
      creditsUsed: Math.round(sessions * ratios.credits * 3.1 * n(13)), creditsCount: Math.round(sessions * ratios.credits * n(13)),
    };
    if (cache.size > 20_000) cache.clear();
    cache.set(day, totals);
    return totals;
  };

  return {
    site, seed, size, origin: siteOrigin(site), pages, dailyTotals, volume,
    // Built on first use: only the search engines need the (large) query vocabulary.
    get queries() {
      return (queries ??= buildQueries(site.kind, size.queries));
    },
  };
}

/**
 * Views follow what visitors do: a page is viewed at least as often as it is landed on, and the pages at the end
 * of a purchase or sign-up are viewed about as often as the events that happen there (thank-you ≈ purchases).
 */
function shapeViewShares(pages: Page[], kind: SiteKind): void {
  const r = RATIOS[kind];
  const checkouts = (r.cart > 0 ? r.cart : 1) * r.checkout;
  const fixed: Record<string, number> = {
    '/cart': r.cart * 1.6,
    '/checkout': checkouts * 1.25,
    '/checkout/thank-you': checkouts * r.buy,
    '/signup/done': 0.012,
    '/account': 0.04,
  };
  for (let pass = 0; pass < 3; pass++) {
    for (const p of pages) {
      const perSession = fixed[p.path];
      // Shares are of views; a page seen `perSession` times per session has perSession / pps of them.
      p.share = perSession !== undefined ? perSession / r.pps : Math.max(p.share, (p.landingShare * 1.15) / r.pps);
    }
    renormalise(pages, 'share');
  }
}

function renormalise<K extends string>(rows: Record<K, number>[], key: K): void {
  const sum = rows.reduce((a, r) => a + r[key], 0);
  for (const r of rows) r[key] = sum > 0 ? r[key] / sum : 0;
}

/** Relative activity per local hour (0–23): a night trough and a kind-specific daytime peak. */
export function hourProfile(kind: SiteKind): number[] {
  const peak = kind === 'saas' ? 11 : kind === 'shop' ? 20 : 8;
  const raw = Array.from({ length: 24 }, (_, h) => {
    const dist = Math.min(Math.abs(h - peak), 24 - Math.abs(h - peak));
    const night = h >= 1 && h <= 5 ? 0.25 : 1;
    return (0.25 + Math.exp(-(dist * dist) / 18)) * night;
  });
  const sum = raw.reduce((a, b) => a + b, 0);
  return raw.map((x) => x / sum);
}
