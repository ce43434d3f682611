// The project overview: every number read through the same stored operations as the REST API (SiteSummary,
// SearchSummary, SiteTimeseries, SearchTimeseries, SiteBreakdown, SearchBreakdown, FunnelsList, FunnelResults) for the API's
// default period, so the page and `GET /api/v1/metrics/<project>/summary` agree; `?force=1` bypasses the cache.
import type { H3 } from 'h3';
import { h } from '../account/html.ts';
import { listSources } from '../store/data-sources-repository.ts';
import type { DashboardDeps } from './dashboard-deps.ts';
import { createGuard } from './guard.ts';
import { dashboardPage } from './layout.ts';
import { overviewBody, type OverviewView } from './overview-page.ts';
import { projectHeader } from './project-pages.ts';
import { readOperation } from './read-data.ts';

const MAX_FUNNELS = 10;

export function mountOverviewRoutes(app: H3, deps: DashboardDeps): void {
  const { db, sessions, clock } = deps.web;
  const guard = createGuard(deps);

  app.get('/dashboard/p/:key', async (event) => {
    const refresh = new URL(event.req.url).searchParams.get('force') === '1';
    // Refreshing spends the providers' quota for everyone on the project: editors and admins.
    const found = await guard.projectGet(event.req, event.context.params?.key, refresh ? 'report.refresh' : 'project.read');
    if (found instanceof Response) return found;
    const { session, project } = found;
    const force = refresh ? { force: '1' } : {};
    const vars = { project: project.key, ...force };
    const read = <T>(operation: string, field: string, extra: Record<string, unknown> = {}) => readOperation<T>(deps, session, operation, field, { ...vars, ...extra });
    const [summary, search, sessionsRead, clicks, pages, queries, list] = await Promise.all([
      read('SiteSummary', 'siteSummary'),
      read('SearchSummary', 'searchSummary'),
      read('SiteTimeseries', 'siteTimeseries', { metric: 'sessions' }),
      read('SearchTimeseries', 'searchTimeseries'),
      read('SiteBreakdown', 'siteBreakdown', { dimension: 'pagePath', limit: '10' }),
      read('SearchBreakdown', 'searchBreakdown', { dimension: 'query', limit: '10' }),
      readOperation<{ funnels: { key: string; name: string }[] }>(deps, session, 'FunnelsList', 'project', { project: project.key }),
    ]);
    const funnels = await Promise.all(
      (list.ok ? list.body.funnels.slice(0, MAX_FUNNELS) : []).map(async (f) => ({ key: f.key, name: f.name, result: await readOperation(deps, session, 'FunnelResults', 'funnelResults', { funnel: f.key, ...force }) })),
    );
    // Read after the reports: a credential they just found revoked shows as an error here.
    const sources = await listSources(db, project.id);
    const view = { csrf: session.csrf, project, sources, googleConfigured: deps.google !== undefined, now: clock(), summary, search, sessions: sessionsRead, clicks, pages, queries, funnels } as OverviewView;
    return dashboardPage({
      title: `${project.name} · Overview`,
      session,
      current: 'projects',
      secure: sessions.secure,
      formActions: deps.google ? [deps.google.flow.authOrigin] : [],
      body: h`${projectHeader(project, 'overview')}${overviewBody(view)}`,
    });
  });
}
