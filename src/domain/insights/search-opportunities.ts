// Search opportunities from a site's own search rows: queries ranking 4–20 whose CTR is below the site's own
// CTR-by-position curve, queries and pages losing clicks against the previous range, queries that lost every
// click, and queries where several of the site's pages compete (cannibalisation). Each comes with the numbers
// behind it and `clicksAtStake`, an estimate of the clicks a month-like period would gain or won back.
import { brandMatcher } from '../brand-terms.ts';

export interface SearchInputRow {
  query: string;
  /** Absent for rows an engine only reports per query. */
  page?: string;
  clicks: number;
  impressions: number;
  position: number;
}

export interface CurvePoint {
  position: number;
  ctr: number;
  impressions: number;
}

export type OpportunityKind = 'low_ctr' | 'losing_clicks' | 'lost_query' | 'cannibalisation';

export interface Opportunity {
  kind: OpportunityKind;
  brand?: boolean;
  query?: string;
  page?: string;
  pages?: string[];
  impressions: number;
  clicks: number;
  ctr: number;
  position: number | null;
  expectedCtr?: number;
  previousClicks?: number;
  previousPosition?: number | null;
  /** cannibalisation: at least one of the competing pages was not competing for the query in the range before. */
  emerging?: boolean;
  clicksAtStake: number;
}

export type BrandFilter = 'all' | 'brand' | 'nonbrand';

export interface OpportunityOptions {
  brandTerms: readonly string[];
  brand: BrandFilter;
  /** Entries kept per kind (largest clicksAtStake first). */
  perKind: number;
}

/** Positions the curve is estimated for; beyond 20 the site's own data is too thin to say anything. */
export const CURVE_POSITIONS = 20;
/** A position bucket needs this many impressions to stand on its own; thinner ones borrow from neighbours. */
const MIN_BUCKET_IMPRESSIONS = 100;
/** low_ctr: positions 4–20, at most this share of the expected CTR. */
const LOW_CTR_FACTOR = 0.6;
const LOW_CTR_POSITIONS = [4, 20] as const;
/** losing_clicks: at least this many clicks before and this relative drop — or a smaller drop with a worse position. */
const LOSING_MIN_PREVIOUS = 5;
const LOSING_MIN_DROP = 0.15;
const LOSING_MIN_DROP_WITH_RANK_LOSS = 0.05;
const RANK_LOSS = 1;
/** Fewer clicks lost than this is noise, whatever the share. */
const LOSING_MIN_CLICKS = 3;
/** lost_query: clicks before, none now. */
const LOST_MIN_PREVIOUS = 3;
/** cannibalisation: each competing page holds at least this share of the query's impressions. */
const COMPETING_SHARE = 0.15;
const COMPETING_MIN_IMPRESSIONS = 20;
/** Pages competing beyond the second results page cost nothing worth naming. */
const CANNIBALISATION_MAX_POSITION = 20;
const EMERGING_GROWTH = 0.5;

/** One query's figures over a range, with each page's share of them. */
export interface QueryFigures {
  query: string;
  clicks: number;
  impressions: number;
  positionWeight: number;
  pages: Map<string, { clicks: number; impressions: number; positionWeight: number }>;
}

/** A range's rows, or its figures per query already added up (`addToQueries`, which a caller can feed in slices). */
export type QueryInput = readonly SearchInputRow[] | ReadonlyMap<string, QueryFigures>;

/** Adds rows into per-query figures (and each query's pages); returns `into`. */
function addToQueries(rows: readonly SearchInputRow[], into: Map<string, QueryFigures> = new Map()): Map<string, QueryFigures> {
  for (const row of rows) addRow(into, row);
  return into;
}

export function addRow(into: Map<string, QueryFigures>, row: SearchInputRow): void {
  let q = into.get(row.query);
  if (!q) into.set(row.query, (q = { query: row.query, clicks: 0, impressions: 0, positionWeight: 0, pages: new Map() }));
  q.clicks += row.clicks;
  q.impressions += row.impressions;
  q.positionWeight += row.position * row.impressions;
  if (row.page !== undefined) {
    const p = q.pages.get(row.page) ?? { clicks: 0, impressions: 0, positionWeight: 0 };
    p.clicks += row.clicks;
    p.impressions += row.impressions;
    p.positionWeight += row.position * row.impressions;
    q.pages.set(row.page, p);
  }
}

function queriesOf(input: QueryInput): ReadonlyMap<string, QueryFigures> {
  return input instanceof Map ? input : addToQueries(input as readonly SearchInputRow[]);
}

const positionOf = (f: { impressions: number; positionWeight: number }) => (f.impressions > 0 ? f.positionWeight / f.impressions : null);
const ctrOf = (f: { clicks: number; impressions: number }) => (f.impressions > 0 ? f.clicks / f.impressions : 0);

/**
 * CTR by rounded position 1–20 over the site's queries (clicks / impressions of every query at that position),
 * thin buckets filled from their neighbours, then made non-increasing (pool adjacent violators, weighted by
 * impressions): a lower rank never earns a higher expected CTR.
 */
export function ctrCurve(input: QueryInput): CurvePoint[] {
  const buckets = Array.from({ length: CURVE_POSITIONS }, (_, i) => ({ position: i + 1, clicks: 0, impressions: 0 }));
  for (const q of queriesOf(input).values()) {
    const position = positionOf(q);
    if (position === null) continue;
    const bucket = buckets[Math.min(CURVE_POSITIONS, Math.max(1, Math.round(position))) - 1]!;
    bucket.clicks += q.clicks;
    bucket.impressions += q.impressions;
  }
  const raw = buckets.map((b) => (b.impressions >= MIN_BUCKET_IMPRESSIONS ? b.clicks / b.impressions : null));
  const filled = raw.map((v, i) => v ?? nearest(raw, i));
  const pooled = nonIncreasing(filled.map((ctr, i) => ({ ctr, weight: Math.max(1, buckets[i]!.impressions) })));
  return buckets.map((b, i) => ({ position: b.position, ctr: round(pooled[i]!, 4), impressions: b.impressions }));
}

function nearest(values: readonly (number | null)[], i: number): number {
  for (let d = 1; d < values.length; d++) {
    const found = [values[i - d], values[i + d]].filter((v): v is number => v !== null && v !== undefined);
    if (found.length) return found.reduce((a, b) => a + b, 0) / found.length;
  }
  return 0;
}

function nonIncreasing(points: readonly { ctr: number; weight: number }[]): number[] {
  const blocks: { ctr: number; weight: number; size: number }[] = [];
  for (const p of points) {
    blocks.push({ ...p, size: 1 });
    while (blocks.length > 1 && blocks.at(-2)!.ctr < blocks.at(-1)!.ctr) {
      const b = blocks.pop()!;
      const a = blocks.pop()!;
      const weight = a.weight + b.weight;
      blocks.push({ ctr: (a.ctr * a.weight + b.ctr * b.weight) / weight, weight, size: a.size + b.size });
    }
  }
  return blocks.flatMap((b) => Array.from({ length: b.size }, () => b.ctr));
}

export function expectedCtr(curve: readonly CurvePoint[], position: number): number {
  return curve[Math.min(curve.length, Math.max(1, Math.round(position))) - 1]?.ctr ?? 0;
}

/**
 * `previous` undefined: no range before can be compared (the provider's history does not reach it), so nothing is
 * called losing, lost or emerging — an unknown range is not a range without clicks.
 */
export function findOpportunities(current: QueryInput, previous: QueryInput | undefined, curve: readonly CurvePoint[], options: OpportunityOptions): Opportunity[] {
  return opportunitySteps(current, previous, curve, options).flatMap((step) => step());
}

/**
 * `findOpportunities` as one step per kind, in answer order: each reads every query of a range once, so a caller
 * with tens of thousands of queries can give the event loop back between them.
 */
export function opportunitySteps(current: QueryInput, previous: QueryInput | undefined, curve: readonly CurvePoint[], options: OpportunityOptions): (() => Opportunity[])[] {
  const brandOf = remembered(brandMatcher(options.brandTerms));
  // The brand filter is one of queries, so it applies to the figures per query as it would to their rows.
  const kept = (input: QueryInput) => {
    const queries = queriesOf(input);
    return options.brand === 'all' ? queries : new Map([...queries].filter(([query]) => brandOf(query) === (options.brand === 'brand')));
  };
  let ranges: { now: ReadonlyMap<string, QueryFigures>; before: ReadonlyMap<string, QueryFigures> | undefined } | undefined;
  const read = () => (ranges ??= { now: kept(current), before: previous === undefined ? undefined : kept(previous) });
  const top = (list: Opportunity[]) => list.sort((a, b) => b.clicksAtStake - a.clicksAtStake).slice(0, options.perKind);
  /** A kind that compares with the range before: none when that range is unknown. */
  const compared = (find: (now: ReadonlyMap<string, QueryFigures>, before: ReadonlyMap<string, QueryFigures>) => Opportunity[]) => () => {
    const { now, before } = read();
    return before === undefined ? [] : top(find(now, before));
  };
  return [
    () => top(lowCtr(read().now, curve, brandOf)),
    compared((now, before) => losingQueries(now, before, brandOf)),
    compared((now, before) => losingPages(now, before)),
    compared((now, before) => lostQueries(now, before, brandOf)),
    () =>
      cannibalisation(read().now, read().before, curve, brandOf)
        // New competition first, the biggest queries first (a planted or real split of a big query matters most).
        .sort((a, b) => Number(b.emerging ?? false) - Number(a.emerging ?? false) || (a.emerging ? b.impressions - a.impressions : b.clicksAtStake - a.clicksAtStake))
        .slice(0, options.perKind),
  ];
}

/** A query's brand answer, worked out once however many rows and kinds ask for it. */
function remembered(isBrand: (query: string) => boolean): (query: string) => boolean {
  const known = new Map<string, boolean>();
  return (query) => {
    let brand = known.get(query);
    if (brand === undefined) known.set(query, (brand = isBrand(query)));
    return brand;
  };
}

function mainPage(q: QueryFigures): string | undefined {
  let best: string | undefined;
  let most = -1;
  for (const [page, f] of q.pages) if (f.impressions > most) [best, most] = [page, f.impressions];
  return best;
}

function figures(q: { clicks: number; impressions: number; positionWeight: number }) {
  const position = positionOf(q);
  return { impressions: q.impressions, clicks: q.clicks, ctr: round(ctrOf(q), 4), position: position === null ? null : round(position, 1) };
}

function lowCtr(now: ReadonlyMap<string, QueryFigures>, curve: readonly CurvePoint[], brandOf: (q: string) => boolean): Opportunity[] {
  const out: Opportunity[] = [];
  for (const q of now.values()) {
    const position = positionOf(q);
    if (position === null || position < LOW_CTR_POSITIONS[0] || position > LOW_CTR_POSITIONS[1]) continue;
    const expected = expectedCtr(curve, position);
    const atStake = Math.round(q.impressions * expected - q.clicks);
    if (ctrOf(q) >= LOW_CTR_FACTOR * expected || atStake < 1) continue;
    const page = mainPage(q);
    out.push({ kind: 'low_ctr', brand: brandOf(q.query), query: q.query, ...(page ? { page } : {}), ...figures(q), expectedCtr: expected, clicksAtStake: atStake });
  }
  return out;
}

function losingQueries(now: ReadonlyMap<string, QueryFigures>, before: ReadonlyMap<string, QueryFigures>, brandOf: (q: string) => boolean): Opportunity[] {
  const out: Opportunity[] = [];
  for (const b of before.values()) {
    const q = now.get(b.query);
    if (!q || q.clicks === 0 || b.clicks < LOSING_MIN_PREVIOUS) continue;
    const lost = b.clicks - q.clicks;
    if (!isLosing(lost, b, q)) continue;
    const page = mainPage(b);
    out.push({ kind: 'losing_clicks', brand: brandOf(q.query), query: q.query, ...(page ? { page } : {}), ...figures(q), previousClicks: b.clicks, previousPosition: roundOrNull(positionOf(b)), clicksAtStake: lost });
  }
  return out;
}

/** Lost at least 15% of its clicks, or 5% while its position worsened by a place or more. */
function isLosing(lost: number, before: { clicks: number; impressions: number; positionWeight: number }, now: { impressions: number; positionWeight: number }): boolean {
  if (lost < LOSING_MIN_CLICKS) return false;
  if (lost >= LOSING_MIN_DROP * before.clicks) return true;
  const then = positionOf(before);
  const position = positionOf(now);
  return then !== null && position !== null && position - then >= RANK_LOSS && lost >= LOSING_MIN_DROP_WITH_RANK_LOSS * before.clicks;
}

function losingPages(now: ReadonlyMap<string, QueryFigures>, before: ReadonlyMap<string, QueryFigures>): Opportunity[] {
  const pagesOf = (m: ReadonlyMap<string, QueryFigures>) => {
    const pages = new Map<string, { clicks: number; impressions: number; positionWeight: number }>();
    for (const q of m.values()) {
      for (const [page, f] of q.pages) {
        const p = pages.get(page) ?? { clicks: 0, impressions: 0, positionWeight: 0 };
        p.clicks += f.clicks;
        p.impressions += f.impressions;
        p.positionWeight += f.positionWeight;
        pages.set(page, p);
      }
    }
    return pages;
  };
  const pagesNow = pagesOf(now);
  const out: Opportunity[] = [];
  for (const [page, b] of pagesOf(before)) {
    const p = pagesNow.get(page) ?? { clicks: 0, impressions: 0, positionWeight: 0 };
    const lost = b.clicks - p.clicks;
    if (b.clicks < LOSING_MIN_PREVIOUS || !isLosing(lost, b, p)) continue;
    out.push({ kind: 'losing_clicks', page, ...figures(p), previousClicks: b.clicks, previousPosition: roundOrNull(positionOf(b)), clicksAtStake: lost });
  }
  return out;
}

function lostQueries(now: ReadonlyMap<string, QueryFigures>, before: ReadonlyMap<string, QueryFigures>, brandOf: (q: string) => boolean): Opportunity[] {
  const out: Opportunity[] = [];
  for (const b of before.values()) {
    const q = now.get(b.query);
    if (b.clicks < LOST_MIN_PREVIOUS || (q && q.clicks > 0)) continue;
    const page = mainPage(b);
    const current = q ?? { clicks: 0, impressions: 0, positionWeight: 0 };
    out.push({ kind: 'lost_query', brand: brandOf(b.query), query: b.query, ...(page ? { page } : {}), ...figures(current), previousClicks: b.clicks, previousPosition: roundOrNull(positionOf(b)), clicksAtStake: b.clicks });
  }
  return out;
}

/** Several pages each taking a real share of one query's impressions; at stake: what the best of them alone would earn. */
function competingPages(q: QueryFigures): [string, { clicks: number; impressions: number; positionWeight: number }][] {
  return [...q.pages].filter(([, f]) => f.impressions >= COMPETING_MIN_IMPRESSIONS && f.impressions >= COMPETING_SHARE * q.impressions);
}

/** Emerging competition (a page that was not competing before) comes first: that is what changed. */
function cannibalisation(now: ReadonlyMap<string, QueryFigures>, before: ReadonlyMap<string, QueryFigures> | undefined, curve: readonly CurvePoint[], brandOf: (q: string) => boolean): Opportunity[] {
  const out: Opportunity[] = [];
  for (const q of now.values()) {
    const competing = competingPages(q);
    if (competing.length < 2) continue;
    competing.sort((a, b) => b[1].impressions - a[1].impressions);
    const best = Math.min(...competing.map(([, f]) => positionOf(f) ?? Infinity));
    if (best > CANNIBALISATION_MAX_POSITION) continue;
    // Emerging: a competing page that had less than half its current impressions for the query before.
    const earlier = before?.get(q.query);
    const emerging = before === undefined ? undefined : competing.some(([page, f]) => (earlier?.pages.get(page)?.impressions ?? 0) < EMERGING_GROWTH * f.impressions);
    const expected = expectedCtr(curve, best);
    out.push({
      kind: 'cannibalisation',
      brand: brandOf(q.query),
      query: q.query,
      pages: competing.map(([page]) => page),
      ...figures(q),
      expectedCtr: expected,
      ...(emerging === undefined ? {} : { emerging }),
      clicksAtStake: Math.max(0, Math.round(q.impressions * expected - q.clicks)),
    });
  }
  return out;
}

function roundOrNull(value: number | null): number | null {
  return value === null ? null : round(value, 1);
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
