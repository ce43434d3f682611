// Reads a demo site's unplanted baseline through Siteline's own REST API (the 28 days ending at the anchor): each
// segment's share of sessions, the site's queries with the pages that rank for them, and its search pages. The
// planner picks planted causes from these, so they are real segments, queries and pages of the site.
import { addDays, type IsoDate } from '../../src/domain/calendar.ts';
import type { DemoSite } from '../../src/sandbox/catalogue.ts';
import { customPeriod, SHIFT_DIMENSIONS, type ShiftDimension } from './cases.ts';
import type { Lane } from './lane.ts';
import type { QueryBaseline, Segment, SiteBaseline } from './plan.ts';
import { normaliseValue } from './score.ts';

type Row = Record<string, unknown>;

const rowsOf = (body: unknown): Row[] => ((body as { rows?: Row[] }).rows ?? []);
/** Queries the filter grammar takes without quoting (the demo's queries are plain words). */
const PLAIN_QUERY = /^[a-z0-9][a-z0-9 -]*$/;
/** How many candidate queries get their pages looked up by default (one request each; cannibalisations need them). */
export const QUERIES_WITH_PAGES = 15;

export async function readBaseline(lane: Lane, site: DemoSite, anchor: IsoDate, queriesWithPages = QUERIES_WITH_PAGES): Promise<SiteBaseline> {
  const period = customPeriod(addDays(anchor, -27), anchor);
  const base = `/api/v1/metrics/${site.key}`;
  const summary = (await lane.get(`${base}/summary?period=${period}&compare=none`)) as { metrics: { sessions: number } };
  const total = summary.metrics.sessions;
  const segments = {} as Record<ShiftDimension, Segment[]>;
  for (const dimension of SHIFT_DIMENSIONS) {
    const rows = rowsOf(await lane.get(`${base}/dimension?dimension=${dimension}&metrics=sessions&limit=50&period=${period}`));
    segments[dimension] = rows
      .map((r) => ({ value: String(r[dimension]), share: total > 0 ? Number(r.sessions) / total : 0 }))
      .filter((s) => s.value !== '(not set)' && s.value !== '');
  }
  const queryRows = rowsOf(await lane.get(`${base}/search/dimension?dimension=query&limit=100&period=${period}`));
  const pages = rowsOf(await lane.get(`${base}/search/dimension?dimension=page&limit=50&period=${period}`)).map((r) => ({ page: normaliseValue(r.page), clicks: Number(r.clicks) }));
  // A project without engine2 answers 409 here: no engine2-only losses are planted on it.
  const engine2Rows = await lane.get(`${base}/search/dimension?dimension=query&sp=engine2&limit=300&period=${period}`).then(rowsOf, () => undefined);
  const onEngine2 = new Set((engine2Rows ?? []).map((r) => String(r.query).toLowerCase()));
  const queries: QueryBaseline[] = [];
  for (const row of queryRows) {
    const query = String(row.query);
    if (!PLAIN_QUERY.test(query)) continue;
    const entry: QueryBaseline = { query, clicks: Number(row.clicks), impressions: Number(row.impressions), position: Number(row.position), pages: [], engine2: onEngine2.has(query.toLowerCase()) };
    if (queries.filter((q) => q.pages.length > 0).length < queriesWithPages && entry.position <= 10) {
      const filter = encodeURIComponent(`query==${query}`);
      entry.pages = rowsOf(await lane.get(`${base}/search/dimension?dimension=page&limit=5&period=${period}&filter=${filter}`)).map((r) => normaliseValue(r.page));
    }
    queries.push(entry);
  }
  return { project: site.key, propertyId: site.analytics.propertyId, siteUrl: site.engine1.siteUrl, engine2: engine2Rows !== undefined, segments, queries, pages };
}
