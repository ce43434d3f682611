// The GA dimension families of a site: which dimension values occur together (a city within its country,
// a browser on its device) and how they tilt pages per session, conversions and revenue.
import type { Atom, Family } from '../data/cube.ts';
import { COUNTRIES, homeCountry } from '../data/geo.ts';
import { hashString, unit } from '../data/hash.ts';
import type { SiteModel } from '../data/site-model.ts';
import { zipfShares } from '../data/site-model.ts';
import { wordsFor } from '../data/vocabulary.ts';

export const EVENT_NAMES = [
  'page_view', 'session_start', 'first_visit', 'user_engagement', 'scroll', 'view_item', 'add_to_cart', 'begin_checkout',
  'purchase', 'sign_up', 'form_submit',
] as const;

/** Share of sessions in which each event occurs ("reach") and events per occurrence. */
const EVENT_PROFILE: Record<string, { reach: number; perSession: number; kinds: string[] }> = {
  page_view: { reach: 1, perSession: 2.6, kinds: ['shop', 'content', 'saas'] },
  session_start: { reach: 1, perSession: 1, kinds: ['shop', 'content', 'saas'] },
  first_visit: { reach: 0.55, perSession: 1, kinds: ['shop', 'content', 'saas'] },
  user_engagement: { reach: 0.7, perSession: 1.6, kinds: ['shop', 'content', 'saas'] },
  scroll: { reach: 0.45, perSession: 1.3, kinds: ['shop', 'content', 'saas'] },
  view_item: { reach: 0.35, perSession: 2.1, kinds: ['shop', 'saas'] },
  add_to_cart: { reach: 0.07, perSession: 1.3, kinds: ['shop'] },
  begin_checkout: { reach: 0.035, perSession: 1.1, kinds: ['shop', 'saas'] },
  purchase: { reach: 0.021, perSession: 1, kinds: ['shop', 'saas'] },
  sign_up: { reach: 0.012, perSession: 1, kinds: ['shop', 'content', 'saas'] },
  form_submit: { reach: 0.02, perSession: 1, kinds: ['shop', 'content', 'saas'] },
};

export const KEY_EVENTS = new Set(['purchase', 'sign_up', 'form_submit']);

export function eventsOf(kind: string): string[] {
  return EVENT_NAMES.filter((e) => EVENT_PROFILE[e]!.kinds.includes(kind));
}

export function eventReach(event: string): number {
  return EVENT_PROFILE[event]?.reach ?? 0;
}

const atom = (share: number, values: string[], attrs?: Record<string, number>): Atom => ({ share, values, attrs });

function normalise(atoms: Atom[]): Atom[] {
  const sum = atoms.reduce((a, x) => a + x.share, 0);
  return atoms.map((x) => ({ ...x, share: x.share / sum }));
}

export function buildFamilies(model: SiteModel): Family[] {
  const { seed, site, origin, pages } = model;
  const home = homeCountry(site.timezone);
  const geo: Atom[] = [];
  COUNTRIES.forEach((c, i) => {
    const w = c.weight * (c.alpha2 === home ? 9 : 1) * (0.6 + 0.8 * unit(seed, 100 + i));
    const cityShares = zipfShares(c.cities.length + 1, 1.2, seed ^ (200 + i), 0.3);
    [...c.cities, '(not set)'].forEach((city, j) => {
      geo.push(atom(w * cityShares[j]!, [c.continent, c.name, c.alpha2, city, c.language, city === '(not set)' ? '(not set)' : String(1_000_000 + (hashString(c.alpha2 + city) % 9_000_000))], { conv: c.alpha2 === home ? 1.25 : 0.9 }));
    });
  });

  const mobileShare = site.kind === 'saas' ? 0.28 : site.kind === 'shop' ? 0.58 : 0.64;
  const device: Atom[] = [];
  const platforms: [string, string, number, [string, number][]][] = [
    ['desktop', 'Windows', (1 - mobileShare) * 0.62, [['Chrome', 0.66], ['Edge', 0.22], ['Firefox', 0.12]]],
    ['desktop', 'Macintosh', (1 - mobileShare) * 0.3, [['Chrome', 0.52], ['Safari', 0.4], ['Firefox', 0.08]]],
    ['desktop', 'Linux', (1 - mobileShare) * 0.05, [['Chrome', 0.6], ['Firefox', 0.4]]],
    ['desktop', 'Chrome OS', (1 - mobileShare) * 0.03, [['Chrome', 1]]],
    ['mobile', 'iOS', mobileShare * 0.46, [['Safari', 0.82], ['Chrome', 0.18]]],
    ['mobile', 'Android', mobileShare * 0.54, [['Chrome', 0.78], ['Samsung Internet', 0.22]]],
    ['tablet', 'iOS', 0.045, [['Safari', 0.9], ['Chrome', 0.1]]],
    ['tablet', 'Android', 0.02, [['Chrome', 1]]],
  ];
  for (const [cat, os, share, browsers] of platforms) {
    for (const [browser, b] of browsers) {
      device.push(atom(share * b, [cat, os, browser, 'web'], { pv: cat === 'mobile' ? 0.85 : 1.15, conv: cat === 'mobile' ? 0.7 : cat === 'tablet' ? 0.9 : 1.35 }));
    }
  }

  const page = pages.map((p) =>
    atom(p.share, [p.path, p.title, origin + p.path, site.domain + p.path, p.path, site.domain, p.title], {
      pv: /^\/(products|articles|docs)\//.test(p.path) ? 1.2 : 1,
    }));
  const landing = pages.filter((p) => p.landingShare > 0).map((p) =>
    atom(p.landingShare, [p.path, p.path], { conv: p.path === '/pricing' || p.path === '/sale' ? 1.8 : p.path === '/' ? 1.1 : 0.95 }));

  const traffic = trafficAtoms(model);

  const events = eventsOf(site.kind);
  const reachSum = events.reduce((a, e) => a + eventReach(e), 0);
  const eventAtoms = events.map((e) => {
    const p = EVENT_PROFILE[e]!;
    const share = p.reach / reachSum;
    const one = (wanted: string) => (e === wanted ? 1 / share : 0);
    return atom(share, [e, KEY_EVENTS.has(e) ? 'true' : 'false'], {
      pv: one('page_view'),
      ev: (p.reach * p.perSession) / share,
      key: KEY_EVENTS.has(e) ? 1 / share : 0,
      cart: one('add_to_cart'),
      buy: one('purchase'),
      checkout: one('begin_checkout'),
      credits: one('user_engagement'),
      conv: 1,
    });
  });

  const planTiers: [string, number, number][] = [['(not set)', 0.72, 0], ['free', 0.16, 1], ['pro', 0.08, 4], ['team', 0.03, 9], ['enterprise', 0.01, 22]];
  const plan = planTiers.map(([tier, share, credits]) => atom(share, [tier], { credits: credits / 0.02, conv: tier === '(not set)' ? 0.9 : 1.4 }));

  const words = wordsFor(site.kind);
  const itemShares = zipfShares(model.size.items, 1, seed ^ 0x77);
  const items = itemShares.map((share, i) => {
    const topic = words.topics[i % words.topics.length]!;
    const variant = Math.floor(i / words.topics.length);
    const name = `${variant ? `${words.modifiers[(variant - 1) % words.modifiers.length]} ` : ''}${topic}`.replace(/\b\w/g, (c) => c.toUpperCase());
    return atom(share, [name, words.sections[i % words.sections.length]!.replace(/^\w/, (c) => c.toUpperCase()), site.name], { price: 0.5 + unit(seed, 900 + i) * 1.5 });
  });

  return [
    { key: 'geo', dims: ['continent', 'country', 'countryId', 'city', 'language', 'cityId'], atoms: normalise(geo) },
    { key: 'stream', dims: ['streamId', 'streamName', 'appVersion'], atoms: [atom(1, [String(2_000_000_000 + (seed % 999_999_999)), `${site.name} web`, '(not set)'])] },
    { key: 'device', dims: ['deviceCategory', 'operatingSystem', 'browser', 'platform'], atoms: normalise(device) },
    { key: 'page', dims: ['pagePath', 'pageTitle', 'pageLocation', 'fullPageUrl', 'pagePathPlusQueryString', 'hostName', 'unifiedScreenName'], atoms: normalise(page) },
    { key: 'landing', dims: ['landingPage', 'landingPagePlusQueryString'], atoms: normalise(landing) },
    { key: 'traffic', dims: TRAFFIC_DIMS, atoms: normalise(traffic) },
    { key: 'event', dims: ['eventName', 'isKeyEvent'], atoms: normalise(eventAtoms) },
    { key: 'plan', dims: ['customEvent:plan_tier'], atoms: normalise(plan) },
    { key: 'item', dims: ['itemName', 'itemCategory', 'itemBrand'], atoms: normalise(items) },
  ];
}

const TRAFFIC_DIMS = ['sessionSource', 'sessionMedium', 'sessionSourceMedium', 'sessionDefaultChannelGroup', 'sessionCampaignName',
  'firstUserSource', 'firstUserMedium', 'firstUserDefaultChannelGroup'];

const REFERRERS = ['news.ycombinator.com', 'reddit.com', 'github.com', 'medium.com', 'producthunt.com', 'wikipedia.org', 'stackoverflow.com',
  'dev.to', 'substack.com', 'quora.com', 'pinterest.com', 'trustpilot.com', 'outdoorgearlab.example', 'blog.example', 'forum.example'];

function trafficAtoms(model: SiteModel): Atom[] {
  const { seed, size } = model;
  const rows: [string, string, string, string, number, number][] = [
    ['google', 'organic', 'Organic Search', '(organic)', 0.42, 1],
    ['bing', 'organic', 'Organic Search', '(organic)', 0.05, 1.05],
    ['duckduckgo', 'organic', 'Organic Search', '(organic)', 0.012, 1],
    ['(direct)', '(none)', 'Direct', '(direct)', 0.22, 1.2],
    ['newsletter', 'email', 'Email', 'weekly-digest', 0.04, 1.6],
    ['google', 'cpc', 'Paid Search', 'brand-search', 0.05, 1.4],
    ['facebook.com', 'referral', 'Organic Social', '(referral)', 0.025, 0.6],
    ['instagram.com', 'referral', 'Organic Social', '(referral)', 0.018, 0.55],
    ['t.co', 'referral', 'Organic Social', '(referral)', 0.01, 0.5],
    ['linkedin.com', 'referral', 'Organic Social', '(referral)', 0.012, 0.8],
  ];
  const refShares = zipfShares(Math.min(size.referrers, REFERRERS.length * 4), 1.1, seed ^ 0x99);
  const atoms: Atom[] = rows.map(([source, medium, channel, campaign, share, conv]) =>
    atom(share, [source, medium, `${source} / ${medium}`, channel, campaign, source, medium, channel], { conv }));
  refShares.forEach((share, i) => {
    const base = REFERRERS[i % REFERRERS.length]!;
    const source = i < REFERRERS.length ? base : `${['blog', 'shop', 'news', 'forum'][Math.floor(i / REFERRERS.length) % 4]}.${base}`;
    atoms.push(atom(0.1 * share, [source, 'referral', `${source} / referral`, 'Referral', '(referral)', source, 'referral', 'Referral'], { conv: 0.8 }));
  });
  return atoms;
}
