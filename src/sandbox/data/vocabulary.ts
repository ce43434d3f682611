// Word lists the demo sites are made of: page paths/titles and search queries per site kind, built combinatorially
// so a large site can have tens of thousands of distinct, plausible queries without storing them.
import type { SiteKind } from '../catalogue.ts';

interface KindWords {
  brandQuery: string;
  sections: readonly string[];
  topics: readonly string[];
  modifiers: readonly string[];
  qualifiers: readonly string[];
  fixedPages: readonly { path: string; title: string }[];
}

const SHOP: KindWords = {
  brandQuery: 'acme shop',
  sections: ['products', 'category', 'guides'],
  topics: [
    'running shoes', 'trail shoes', 'hiking boots', 'rain jacket', 'down jacket', 'fleece hoodie', 'merino socks', 'yoga mat',
    'water bottle', 'backpack', 'daypack', 'tent', 'sleeping bag', 'camping stove', 'headlamp', 'trekking poles', 'sunglasses',
    'sports watch', 'cycling helmet', 'bike lights', 'swim goggles', 'gym bag', 'resistance bands', 'dumbbells', 'kettlebell',
    'foam roller', 'compression tights', 'running shorts', 'base layer', 'beanie', 'gloves', 'sandals', 'sneakers', 'insoles',
    'climbing shoes', 'chalk bag', 'ski jacket', 'snow pants', 'thermos', 'cooler box', 'hammock', 'camp chair', 'rain cover',
    'duffel bag', 'travel pillow', 'windbreaker', 'softshell jacket', 'track pants', 'sports bra', 'hydration pack',
    'gaiters', 'crampons', 'bivy sack', 'first aid kit', 'multitool', 'pocket knife', 'fire starter', 'compass', 'map case', 'poncho',
  ],
  modifiers: ['best', 'cheap', 'womens', 'mens', 'kids', 'waterproof', 'lightweight', 'buy', 'sale', 'acme', 'vegan', 'wide',
    'ultralight', 'insulated', 'breathable', 'black', 'blue', 'red', 'green', 'grey', 'recycled', 'premium', 'budget', 'large', 'small',
    'durable', 'packable', 'warm', 'summer', 'winter'],
  qualifiers: ['review', 'size guide', 'near me', 'discount code', 'vs', 'for beginners', 'for travel', 'uk', 'germany', 'online',
    'free shipping', 'return policy', 'how to clean', 'how to choose', '2024', '2025', 'deals', 'outlet', 'in stock', 'comparison',
    'price', 'test', 'rating', 'alternative', 'gift', 'set', 'replacement', 'repair', 'warranty', 'colors'],
  fixedPages: [
    { path: '/', title: 'Acme Shop – Outdoor & Sports Gear' }, { path: '/cart', title: 'Your cart' }, { path: '/checkout', title: 'Checkout' },
    { path: '/checkout/thank-you', title: 'Thank you for your order' }, { path: '/sale', title: 'Sale' }, { path: '/search', title: 'Search' },
    { path: '/account', title: 'My account' }, { path: '/shipping', title: 'Shipping & returns' }, { path: '/contact', title: 'Contact us' },
  ],
};

const CONTENT: KindWords = {
  brandQuery: 'northwind journal',
  sections: ['articles', 'recipes', 'travel'],
  topics: [
    'sourdough bread', 'banana bread', 'pasta carbonara', 'ramen', 'curry', 'pancakes', 'cold brew', 'kimchi', 'granola', 'hummus',
    'lisbon', 'kyoto', 'iceland', 'patagonia', 'road trip', 'city break', 'packing list', 'budget travel', 'night train', 'hostels',
    'houseplants', 'composting', 'balcony garden', 'minimalism', 'home office', 'reading list', 'journaling', 'meal prep', 'fermentation',
    'coffee', 'tea', 'wine', 'cheese', 'chocolate', 'baking', 'grilling', 'camping food', 'vegan dinner', 'soup', 'salad',
  ],
  modifiers: ['easy', 'best', 'quick', 'healthy', 'vegan', 'classic', 'homemade', 'simple', 'cheap', 'authentic', 'beginner', 'one pot',
    'weekend', 'summer', 'winter', 'family', 'solo', 'slow', 'spicy', 'gluten free'],
  qualifiers: ['recipe', 'guide', 'tips', 'ideas', 'itinerary', 'how to', 'without yeast', 'in 3 days', 'on a budget', 'for two', 'checklist',
    'mistakes', 'history', 'near me', 'calories', 'substitute', 'step by step', 'what to pack', 'when to visit', 'best time'],
  fixedPages: [
    { path: '/', title: 'Northwind Journal' }, { path: '/about', title: 'About us' }, { path: '/newsletter', title: 'Newsletter' },
    { path: '/search', title: 'Search' }, { path: '/contact', title: 'Contact' },
  ],
};

const SAAS: KindWords = {
  brandQuery: 'tiny saas',
  sections: ['docs', 'blog', 'integrations'],
  topics: ['invoicing', 'time tracking', 'api', 'webhooks', 'slack', 'zapier', 'stripe', 'csv export', 'reports', 'teams', 'sso',
    'pricing', 'free plan', 'credits', 'onboarding', 'dashboards', 'alerts', 'roles', 'audit log', 'billing'],
  modifiers: ['how to', 'tiny saas', 'best', 'free', 'open source', 'simple', 'small business', 'automate', 'setup', 'configure'],
  qualifiers: ['tutorial', 'example', 'alternative', 'pricing', 'limits', 'error', 'integration', 'guide', 'vs', 'review'],
  fixedPages: [
    { path: '/', title: 'Tiny SaaS – simple invoicing' }, { path: '/pricing', title: 'Pricing' }, { path: '/signup', title: 'Sign up' },
    { path: '/signup/done', title: 'Welcome aboard' }, { path: '/login', title: 'Log in' }, { path: '/contact', title: 'Contact sales' },
    { path: '/docs', title: 'Documentation' }, { path: '/changelog', title: 'Changelog' },
  ],
};

export function wordsFor(kind: SiteKind): KindWords {
  return kind === 'shop' ? SHOP : kind === 'content' ? CONTENT : SAAS;
}

const slug = (text: string) => text.toLowerCase().normalize('NFD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
const title = (text: string) => text.replace(/\b\w/g, (c) => c.toUpperCase());

/** `count` pages: fixed pages first, then section/topic pages, then numbered variants. */
export function buildPages(kind: SiteKind, count: number): { path: string; title: string }[] {
  const w = wordsFor(kind);
  const pages = [...w.fixedPages];
  const seen = new Set(pages.map((p) => p.path));
  for (let i = 0; pages.length < count; i++) {
    const topic = w.topics[i % w.topics.length]!;
    const section = w.sections[Math.floor(i / w.topics.length) % w.sections.length]!;
    const round = Math.floor(i / (w.topics.length * w.sections.length));
    const modifier = round === 0 ? '' : `${w.modifiers[(round - 1) % w.modifiers.length]!} `;
    const suffix = round > w.modifiers.length ? `-${round}` : '';
    const path = `/${section}/${slug(modifier + topic)}${suffix}`;
    if (seen.has(path)) continue;
    seen.add(path);
    pages.push({ path, title: `${title(modifier + topic)}${suffix ? ` ${round}` : ''} – ${title(section)}` });
  }
  return pages.slice(0, count);
}

/**
 * `count` distinct queries in popularity order: the brand, bare topics, modifier+topic, topic+qualifier,
 * then modifier+topic+qualifier walked in a scrambled order so neighbours in rank are not alphabetical neighbours.
 */
export function buildQueries(kind: SiteKind, count: number): string[] {
  const w = wordsFor(kind);
  const out: string[] = [w.brandQuery];
  const seen = new Set(out);
  const push = (q: string) => {
    if (out.length < count && !seen.has(q)) {
      seen.add(q);
      out.push(q);
    }
  };
  const T = w.topics.length, M = w.modifiers.length, Q = w.qualifiers.length;
  for (const t of w.topics) push(t);
  for (let i = 0; i < T * M && out.length < count; i++) push(`${w.modifiers[(i * 7) % M]!} ${w.topics[i % T]!}`);
  for (let i = 0; i < T * Q && out.length < count; i++) push(`${w.topics[i % T]!} ${w.qualifiers[(i * 11) % Q]!}`);
  const n = T * M * Q;
  const step = coprimeStep(n);
  for (let i = 0; i < n && out.length < count; i++) {
    const p = (i * step) % n;
    push(`${w.modifiers[p % M]!} ${w.topics[Math.floor(p / M) % T]!} ${w.qualifiers[Math.floor(p / (M * T))]!}`);
  }
  // Still short (only for absurd counts): number the brand query.
  for (let i = 2; out.length < count; i++) push(`${w.brandQuery} ${i}`);
  return out;
}

function coprimeStep(n: number): number {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  let step = Math.floor(n * 0.618) | 1;
  while (gcd(step, n) !== 1) step += 2;
  return step;
}

export { slug as toSlug };
