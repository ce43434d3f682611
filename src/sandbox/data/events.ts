// The site's events as GA collects them, shared by the daily totals (eventCount) and the event family: how many
// sessions each event occurs in (reach) and how many times per session on average, tied to the site's own ratios
// so session_start ≈ sessions, first_visit ≈ new users, page_view ≈ views and purchase ≈ purchases.
import type { SiteKind } from '../catalogue.ts';

export interface KindRatios {
  /** Views per session. */
  pps: number;
  engaged: number;
  /** Users per session (one day). */
  users: number;
  newShare: number;
  key: number;
  cart: number;
  checkout: number;
  buy: number;
  aov: number;
  credits: number;
}

export const RATIOS: Record<SiteKind, KindRatios> = {
  shop: { pps: 3.4, engaged: 0.64, users: 0.8, newShare: 0.58, key: 0.035, cart: 0.085, checkout: 0.45, buy: 0.62, aov: 7_400, credits: 0 },
  content: { pps: 1.7, engaged: 0.52, users: 0.86, newShare: 0.7, key: 0.012, cart: 0, checkout: 0, buy: 0, aov: 0, credits: 0 },
  saas: { pps: 2.6, engaged: 0.71, users: 0.74, newShare: 0.45, key: 0.06, cart: 0, checkout: 0.02, buy: 0.55, aov: 2_900, credits: 1.4 },
};

export interface EventProfile {
  name: string;
  /** Share of sessions in which the event occurs. */
  reach: number;
  /** Occurrences per session, over all sessions. */
  perSession: number;
  key: boolean;
}

/** The events a site of this kind sends. `page_view`, `session_start` and `first_visit` mirror the totals. */
export function eventProfiles(kind: SiteKind): EventProfile[] {
  const r = RATIOS[kind];
  const checkoutsPerSession = (r.cart > 0 ? r.cart : 1) * r.checkout;
  const purchasesPerSession = checkoutsPerSession * r.buy;
  const newPerSession = r.users * r.newShare;
  const all: (EventProfile & { kinds: SiteKind[] })[] = [
    { name: 'page_view', reach: 1, perSession: r.pps, key: false, kinds: ['shop', 'content', 'saas'] },
    { name: 'session_start', reach: 1, perSession: 1, key: false, kinds: ['shop', 'content', 'saas'] },
    { name: 'first_visit', reach: newPerSession, perSession: newPerSession, key: false, kinds: ['shop', 'content', 'saas'] },
    { name: 'user_engagement', reach: r.engaged, perSession: r.engaged * 1.6, key: false, kinds: ['shop', 'content', 'saas'] },
    { name: 'scroll', reach: 0.45, perSession: 0.45 * 1.3, key: false, kinds: ['shop', 'content', 'saas'] },
    { name: 'view_item', reach: 0.35, perSession: 0.35 * 2.1, key: false, kinds: ['shop', 'saas'] },
    { name: 'add_to_cart', reach: r.cart / 1.3, perSession: r.cart, key: false, kinds: ['shop'] },
    { name: 'begin_checkout', reach: checkoutsPerSession / 1.1, perSession: checkoutsPerSession, key: false, kinds: ['shop', 'saas'] },
    { name: 'purchase', reach: purchasesPerSession, perSession: purchasesPerSession, key: true, kinds: ['shop', 'saas'] },
    { name: 'sign_up', reach: 0.012, perSession: 0.012, key: true, kinds: ['shop', 'content', 'saas'] },
    { name: 'form_submit', reach: 0.02, perSession: 0.02, key: true, kinds: ['shop', 'content', 'saas'] },
  ];
  return all.filter((e) => e.kinds.includes(kind)).map(({ kinds: _kinds, ...e }) => e);
}

/** Events per session beyond page_view, session_start and first_visit (which follow their own totals). */
export function otherEventsPerSession(kind: SiteKind): number {
  return eventProfiles(kind)
    .filter((e) => !['page_view', 'session_start', 'first_visit'].includes(e.name))
    .reduce((a, e) => a + e.perSession, 0);
}
