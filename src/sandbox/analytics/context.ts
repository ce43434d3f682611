// What every analytics method needs about the property it serves: the site, its model and families, the clock.
import type { DemoSite } from '../catalogue.ts';
import type { Family } from '../data/cube.ts';
import { siteModel, type SiteModel } from '../data/site-model.ts';
import { buildFamilies } from './families.ts';
import { plantedModel } from '../scenarios/planted-model.ts';
import { invalid } from './ga-errors.ts';

export interface PropertyContext {
  site: DemoSite;
  model: SiteModel;
  families: readonly Family[];
  now: Date;
}

const familyCache = new WeakMap<SiteModel, Family[]>();

export function propertyContext(site: DemoSite, now: Date): PropertyContext {
  const model = siteModel(site);
  let families = familyCache.get(model);
  if (!families) familyCache.set(model, (families = buildFamilies(model)));
  return { site, model: plantedModel(model, families, site), families, now };
}

/** Units of each currency per US dollar: enough to honour a request's `currencyCode`. */
const PER_USD: Record<string, number> = { USD: 1, EUR: 0.92, GBP: 0.79, CHF: 0.88, JPY: 151, CAD: 1.36, AUD: 1.52, SEK: 10.6, PLN: 3.98 };

export function currencyRate(from: string, to: unknown): { code: string; rate: number } {
  if (to === undefined || to === '' || to === from) return { code: from, rate: 1 };
  const code = String(to);
  if (!/^[A-Z]{3}$/.test(code) || PER_USD[code] === undefined) throw invalid(`Invalid currencyCode ${code}. Use an ISO 4217 code such as USD or EUR.`);
  return { code, rate: PER_USD[code] / PER_USD[from]! };
}
