// Applies per-property settings switched on through target faults (time zone, currency) to the catalogue the
// emulators read, so reports, metadata and hour buckets follow the property's own settings.
import type { DemoSite } from '../catalogue.ts';
import type { TargetFaults } from './target-faults.ts';

export function withTargetSettings(catalogue: readonly DemoSite[], targets: Record<string, TargetFaults>): readonly DemoSite[] {
  if (Object.keys(targets).length === 0) return catalogue;
  return catalogue.map((site) => {
    const t = targets[site.analytics.propertyId];
    if (t?.timeZone === undefined && t?.currencyCode === undefined) return site;
    return { ...site, timezone: t.timeZone ?? site.timezone, currency: t.currencyCode ?? site.currency };
  });
}
