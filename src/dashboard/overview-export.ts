// CSV of exactly what an overview card shows: the card's own stored operation with the page's period, comparison,
// filter and row count, read as the signed-in account, in the REST API's CSV format (the same writer).
import type { H3 } from 'h3';
import { invalidParameter } from '../errors/app-error.ts';
import { CSV_TYPE, toCsv } from '../rest/csv.ts';
import type { DashboardDeps } from './dashboard-deps.ts';
import { createGuard } from './guard.ts';
import { filterParam, readOverviewState, type OverviewState } from './overview-state.ts';
import { readOperation } from './read-data.ts';

interface CardExport {
  operation: string;
  field: string;
  /** The body's list the CSV carries. */
  list: 'rows' | 'points';
  variables(state: OverviewState): Record<string, unknown>;
}

const breakdown = (dimension: string, metrics: string): CardExport => ({
  operation: 'SiteBreakdown',
  field: 'siteBreakdown',
  list: 'rows',
  variables: (state) => ({ dimension, metrics, period: state.period, limit: '10', filter: filterParam(state) }),
});

export const CARD_EXPORTS: Readonly<Record<string, CardExport>> = {
  chart: { operation: 'SiteTimeseries', field: 'siteTimeseries', list: 'points', variables: (s) => ({ metric: s.metric, period: s.period, interval: s.interval, compare: s.compare }) },
  pages: breakdown('pagePath', 'activeUsers,sessions'),
  channels: breakdown('sessionDefaultChannelGroup', 'sessions,activeUsers'),
  sources: breakdown('sessionSource', 'sessions,activeUsers'),
  campaigns: breakdown('sessionCampaignName', 'sessions,activeUsers'),
  countries: breakdown('country', 'sessions,activeUsers'),
  devices: breakdown('deviceCategory', 'sessions,activeUsers'),
  landingPages: { operation: 'LandingPages', field: 'landingPages', list: 'rows', variables: (s) => ({ period: s.period, limit: '10', filter: filterParam(s) }) },
  queries: { operation: 'SearchBreakdown', field: 'searchBreakdown', list: 'rows', variables: (s) => ({ dimension: 'query', period: s.period, limit: String(s.queryLimit), filter: filterParam(s) }) },
};

export function mountOverviewExport(app: H3, deps: DashboardDeps): void {
  const guard = createGuard(deps);
  app.get('/dashboard/p/:key/export.csv', async (event) => {
    const found = await guard.projectGet(event.req, event.context.params?.key, 'project.read');
    if (found instanceof Response) return found;
    const params = new URL(event.req.url).searchParams;
    const card = params.get('card') ?? '';
    const exported = CARD_EXPORTS[card];
    if (!exported) throw invalidParameter('card', `Unknown card '${card}'. Use one of: ${Object.keys(CARD_EXPORTS).join(', ')}.`);
    const state = readOverviewState(params);
    const read = await readOperation<Record<string, Record<string, unknown>[]>>(deps, found.session, exported.operation, exported.field, { project: found.project.key, ...exported.variables(state) });
    if (!read.ok) throw read.error;
    return new Response(toCsv(read.body[exported.list] ?? []), {
      headers: { 'content-type': CSV_TYPE, 'content-disposition': `attachment; filename="${found.project.key}-${card}.csv"`, 'cache-control': 'no-store' },
    });
  });
}
