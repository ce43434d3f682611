// The demo's funnels: two or three per project, built from events and pages that exist in that site's data, with
// stable keys (`<project>-<name>`, e.g. acme-shop-checkout) so the docs can link their results directly.
// Idempotent and safe for replicas seeding at once: an existing key is left as it is.
import type { Kysely } from 'kysely';
import type { SiteKind } from '../sandbox/catalogue.ts';
import { createFunnel, getFunnelByKey, type FunnelStep } from '../store/funnels-repository.ts';
import type { Database } from '../store/schema.ts';

interface DemoFunnel {
  slug: string;
  name: string;
  steps: FunnelStep[];
}

const event = (name: string, value: string): FunnelStep => ({ name, type: 'event', match: 'exact', value });
const page = (name: string, match: FunnelStep['match'], value: string): FunnelStep => ({ name, type: 'page', match, value });

export const DEMO_FUNNELS: Record<SiteKind, readonly DemoFunnel[]> = {
  shop: [
    { slug: 'checkout', name: 'Checkout', steps: [event('Viewed a product', 'view_item'), event('Added to cart', 'add_to_cart'), event('Began checkout', 'begin_checkout'), event('Purchased', 'purchase')] },
    { slug: 'product-to-purchase', name: 'Product page to purchase', steps: [page('Product page', 'begins_with', '/products/'), page('Cart', 'exact', '/cart'), page('Checkout', 'exact', '/checkout'), page('Thank you', 'exact', '/checkout/thank-you')] },
    { slug: 'signup', name: 'Sign-up', steps: [event('Visited', 'session_start'), event('Engaged', 'user_engagement'), event('Signed up', 'sign_up')] },
  ],
  content: [
    { slug: 'newsletter', name: 'Article to newsletter', steps: [page('Read an article', 'begins_with', '/articles/'), page('Newsletter page', 'exact', '/newsletter'), event('Subscribed', 'form_submit')] },
    { slug: 'signup', name: 'Sign-up', steps: [event('Visited', 'session_start'), event('Scrolled', 'scroll'), event('Signed up', 'sign_up')] },
  ],
  saas: [
    { slug: 'signup', name: 'Pricing to sign-up', steps: [page('Home', 'exact', '/'), page('Pricing', 'exact', '/pricing'), page('Sign-up form', 'exact', '/signup'), event('Signed up', 'sign_up')] },
    { slug: 'purchase', name: 'Trial to paid', steps: [page('Pricing', 'exact', '/pricing'), event('Began checkout', 'begin_checkout'), event('Purchased', 'purchase')] },
  ],
};

/** The stable key of a demo funnel. */
export function demoFunnelKey(projectKey: string, slug: string): string {
  return `${projectKey}-${slug}`;
}

export async function ensureDemoFunnels(db: Kysely<Database>, project: { id: string; key: string }, kind: SiteKind, accountId: string): Promise<void> {
  for (const funnel of DEMO_FUNNELS[kind]) {
    const key = demoFunnelKey(project.key, funnel.slug);
    if (await getFunnelByKey(db, key)) continue;
    try {
      await createFunnel(db, { projectId: project.id, key, name: funnel.name, steps: funnel.steps, createdVia: 'cli', createdByAccountId: accountId });
    } catch (error) {
      // Another replica created it between the look-up and the insert.
      if (!(await getFunnelByKey(db, key))) throw error;
    }
  }
}
