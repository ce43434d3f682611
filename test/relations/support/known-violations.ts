// Known violations awaiting fixes: relation failures this suite found that are real defects, reported and owned
// elsewhere, and not fixed on this branch. A failing case that matches an entry is counted and printed at the end
// of the file instead of failing it, so every other case of the same relation still runs; RELATIONS_STRICT=1
// turns them back into failures (use it to check whether a fix has landed). Issue 27's defects 1–3 are NOT listed:
// the suite fails on them until they are fixed.
//
// Removing an entry: delete it once its fix is merged and `RELATIONS_STRICT=1 npx vitest run test/relations` passes.
import type { RelationError } from './property.ts';

export interface KnownViolation {
  id: string;
  /** What is wrong and where the suspected code is. */
  defect: string;
  matches(error: RelationError): boolean;
}

export const KNOWN_VIOLATIONS_AWAITING_FIXES: readonly KnownViolation[] = [
  {
    id: 'sandbox-engine1-positions-per-grouping',
    defect:
      "sandbox data: engine1's impression-weighted position of one range differs with the grouping it is asked by: by date (what the search summary reads) the per-day position noise applies, without the date dimension it does not, and the per-country and per-device positions do not average to the same total. So insights/changes for metric=position (engine1's device and country rows) differs from the search summary's position by up to a few tenths of a place, and its country delta from its device-based change (src/sandbox/engine1/search-analytics.ts with the 'product' mode of src/sandbox/data/cube.ts).",
    matches: (e) =>
      typeof e.request !== 'string' && e.request.route === 'changes' && e.request.params.metric === 'position' && (e.relation.includes("change is the summary's number") || e.relation.includes('drivers add up')),
  },
  {
    id: 'sandbox-filtered-partitions',
    defect:
      'sandbox data: under a filter on one dimension family, a breakdown by another family totals differently than one by the filter\'s own family (e.g. filter=deviceCategory==mobile: Σ sessions by country ≠ by operatingSystem, about 10% apart), while GA\'s filtered totals do not depend on the breakdown; unfiltered, every partition adds up (src/sandbox/data/cube.ts: the joint combination weights do not keep each family\'s marginal).',
    matches: (e) => e.relation === 'breakdown rows add up' && typeof e.request !== 'string' && e.request.params.filter !== undefined && e.detail.includes(' vs GET '),
  },
];

export const STRICT = process.env.RELATIONS_STRICT === '1';

/** The entry a failure is a known instance of, unless running strict. */
export function knownViolationOf(error: RelationError): KnownViolation | undefined {
  return STRICT ? undefined : KNOWN_VIOLATIONS_AWAITING_FIXES.find((k) => k.matches(error));
}
