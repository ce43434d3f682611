// The GA dimension families of a site: which dimension values occur together (a city within its country,
// a browser on its device) and how they tilt pages per session, conversions and revenue.
import type { SiteKind } from '../catalogue.ts';
import { REACH, REACH_SHARE, VIEWED, type Atom, type Family } from '../data/cube.ts';
import { eventProfiles, RATIOS } from '../data/events.ts';
import { REFERRAL_SHARE, TRAFFIC_ROWS } from '../data/traffic.ts';
import { COUNTRIES, homeCountry } from '../data/geo.ts';
import { hashString, unit } from '../data/hash.ts';
import type { SiteModel } from '../data/site-model.ts';
import { zipfShares } from '../data/site-model.ts';
import { wordsFor } from '../data/vocabulary.ts';
import { channelCourse, countryCourse, deviceCourse, landingCourse } from '../data/segment-courses.ts';

/** The event names a site of this kind sends. */
export function eventsOf(kind: SiteKind): string[] {
  return eventProfiles(kind).map((e) => e.name);
}

/** Share of sessions in which an event occurs (0 for one the site never sends). */
export function eventReach(kind: SiteKind, event: string): number {
  return eventProfiles(kind).find((e) => e.name === event)?.reach ?? 0;
}

const atom = (share: number, values: string[], attrs?: Record<string, number>): Atom => ({ share, values, attrs });

function normalise(atoms: Atom[]): Atom[] {
  const sum = atoms.reduce((a, x) => a + x.share, 0);
  return atoms.map((x) => ({ ...x, share: x.share / sum }));
}

/** A reach family's atoms: each also carries its session reach and its (normalised) partition share. */
function withReach(atoms: Atom[], reachOf: (atom: Atom, i: number) => number): Atom[] {
  return normalise(atoms).map((x, i) => ({ ...x, attrs: { ...x.attrs, [REACH]: Math.min(1, reachOf(x, i)), [REACH_SHARE]: x.share } }));
}

/** A value's own rates: engagement (`eng`) and session duration (`dur`). Its course over time: segment-courses.ts. */
function character(seed: number, salt: number, eng: number, dur: number): Record<string, number> {
  return { eng: eng * (0.94 + 0.12 * unit(seed, salt, 1)), dur: dur * (0.9 + 0.2 * unit(seed, salt, 2)) };
}

export function buildFamilies(model: SiteModel): Family[] {
  const { seed, site, origin, pages } = model;
  const home = homeCountry(site.timezone);
  const geo: Atom[] = [];
  COUNTRIES.forEach((c, i) => {
    const w = c.weight * (c.alpha2 === home ? 9 : 1) * (0.6 + 0.8 * unit(seed, 100 + i));
    const cityShares = zipfShares(c.cities.length + 1, 1.2, seed ^ (200 + i), 0.3);
    [...c.cities, '(not set)'].forEach((city, j) => {
      geo.push(atom(w * cityShares[j]!, [c.continent, c.name, c.alpha2, city, c.language, city === '(not set)' ? '(not set)' : String(1_000_000 + (hashString(c.alpha2 + city) % 9_000_000))], {
        conv: c.alpha2 === home ? 1.25 : 0.9,
        ...character(seed, 4000 + i, c.alpha2 === home ? 1.04 : 0.96, c.alpha2 === home ? 1.1 : 0.92),
        ...countryCourse(seed, i, c.name, c.weight * (c.alpha2 === home ? 9 : 1)),
      }));
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
      device.push(atom(share * b, [cat, os, browser, 'web'], {
        pv: cat === 'mobile' ? 0.85 : 1.15,
        conv: cat === 'mobile' ? 0.7 : cat === 'tablet' ? 0.9 : 1.35,
        ...character(seed, hashString(os + browser + cat), cat === 'mobile' ? 0.92 : cat === 'tablet' ? 0.97 : 1.09, cat === 'mobile' ? 0.78 : 1.22),
        ...deviceCourse(seed, cat),
      }));
    }
  }

  const pps = RATIOS[site.kind].pps;
  const page = pages.map((p, i) =>
    atom(p.share, [p.path, p.title, origin + p.path, site.domain + p.path, p.path, site.domain, p.title], {
      pv: /^\/(products|articles|docs)\//.test(p.path) ? 1.2 : 1,
      [VIEWED]: 1,
      ...character(seed, 6000 + i, /^\/(cart|checkout)/.test(p.path) ? 1.12 : 1, /^\/(articles|docs)\//.test(p.path) ? 1.3 : 1),
      // Pages keep their share of views over time (their reach is what funnels and breakdowns agree on).
      trend: 0,
    }));
  // A session that views n pages reaches a page of view share q with 1 − (1 − q)^n; landing on it means viewing it.
  const viewReach = pages.map((p) => Math.max(1 - Math.pow(1 - p.share, pps), Math.min(0.98, p.landingShare * 1.05)));
  const landing = pages.filter((p) => p.landingShare > 0).map((p) =>
    atom(p.landingShare, [p.path, p.path], { conv: p.path === '/pricing' || p.path === '/sale' ? 1.8 : p.path === '/' ? 1.1 : 0.95, eng: p.path === '/' ? 1.05 : 0.97, ...landingCourse(seed, p.path) }));

  const traffic = trafficAtoms(model);

  const events = eventProfiles(site.kind);
  const reachSum = events.reduce((a, e) => a + e.reach, 0);
  const perSessionSum = events.reduce((a, e) => a + e.perSession, 0);
  const eventAtoms = events.map((p) => {
    const e = p.name;
    const share = p.reach / reachSum;
    const one = (wanted: string) => (e === wanted ? 1 / share : 0);
    return atom(share, [e, p.key ? 'true' : 'false'], {
      pv: one('page_view'),
      // Counts split by occurrences per session, so the daily eventCount lands on each event as it was made up.
      ev: p.perSession / perSessionSum / share,
      key: p.key ? 1 / share : 0,
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
    { key: 'page', dims: ['pagePath', 'pageTitle', 'pageLocation', 'fullPageUrl', 'pagePathPlusQueryString', 'hostName', 'unifiedScreenName'], atoms: withReach(page, (_, i) => viewReach[i]!) },
    { key: 'landing', dims: ['landingPage', 'landingPagePlusQueryString'], atoms: withReach(landing, (x) => x.share) },
    { key: 'traffic', dims: TRAFFIC_DIMS, atoms: normalise(traffic) },
    { key: 'event', dims: ['eventName', 'isKeyEvent'], atoms: withReach(eventAtoms, (_, i) => events[i]!.reach) },
    { key: 'plan', dims: ['customEvent:plan_tier'], atoms: normalise(plan) },
    { key: 'demographics', dims: ['userAgeBracket', 'userGender'], atoms: normalise(demographicAtoms(seed)) },
    { key: 'item', dims: ['itemName', 'itemCategory', 'itemBrand'], atoms: normalise(items) },
  ];
}

/** Age × gender from Google signals: most users are 'unknown' (no signals), the rest spread over the brackets. */
function demographicAtoms(seed: number): Atom[] {
  const ages: [string, number][] = [['18-24', 0.14], ['25-34', 0.3], ['35-44', 0.23], ['45-54', 0.16], ['55-64', 0.1], ['65+', 0.07]];
  const out: Atom[] = [atom(0.55, ['unknown', 'unknown'])];
  ages.forEach(([age, share], i) => {
    const female = 0.38 + 0.24 * unit(seed, 700 + i);
    out.push(atom(0.45 * share * female, [age, 'female']), atom(0.45 * share * (1 - female), [age, 'male']));
  });
  return out;
}

const TRAFFIC_DIMS = ['sessionSource', 'sessionMedium', 'sessionSourceMedium', 'sessionDefaultChannelGroup', 'sessionCampaignName',
  'firstUserSource', 'firstUserMedium', 'firstUserDefaultChannelGroup'];

const REFERRERS = ['news.ycombinator.com', 'reddit.com', 'github.com', 'medium.com', 'producthunt.com', 'wikipedia.org', 'stackoverflow.com',
  'dev.to', 'substack.com', 'quora.com', 'pinterest.com', 'trustpilot.com', 'outdoorgearlab.example', 'blog.example', 'forum.example'];

function trafficAtoms(model: SiteModel): Atom[] {
  const { seed, size } = model;
  const refShares = zipfShares(Math.min(size.referrers, REFERRERS.length * 4), 1.1, seed ^ 0x99);
  const atoms: Atom[] = TRAFFIC_ROWS.map(([source, medium, channel, campaign, share, conv, eng], i) =>
    atom(share, [source, medium, `${source} / ${medium}`, channel, campaign, source, medium, channel], { conv, ...character(seed, 8000 + i, eng, eng), ...channelCourse(seed, channel, `${source} / ${medium}`) }));
  refShares.forEach((share, i) => {
    const base = REFERRERS[i % REFERRERS.length]!;
    const source = i < REFERRERS.length ? base : `${['blog', 'shop', 'news', 'forum'][Math.floor(i / REFERRERS.length) % 4]}.${base}`;
    atoms.push(atom(REFERRAL_SHARE * share, [source, 'referral', `${source} / referral`, 'Referral', '(referral)', source, 'referral', 'Referral'], { conv: 0.8, ...character(seed, 9000 + i, 0.9, 0.9), ...channelCourse(seed, 'Referral', `${source} / referral`) }));
  });
  return atoms;
}
