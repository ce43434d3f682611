// Pages in planted events may be given as paths or as full URLs of the site.
import type { DemoSite } from '../catalogue.ts';

/** A page as a path of the site (accepts the full URL too). */
export function pagePath(site: DemoSite, page: string): string {
  const origin = `https://${site.domain}`;
  return page.toLowerCase().startsWith(origin.toLowerCase()) ? page.slice(origin.length) || '/' : page;
}
