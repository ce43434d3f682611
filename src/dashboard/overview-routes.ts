// The project overview: one execution of the stored DashboardOverview operation per page view (every card reads
// the same root fields as its REST route, so the page and `GET /api/v1/metrics/<project>/…` agree for the same
// period, comparison and filter), plus the funnels. The view lives in the URL (overview-state.ts). "Refresh now" is
// a POST with the session's CSRF token, for editors and admins: it reads the page once with `force` (one refresh of
// the project's hourly allowance) and sends the browser back to the view, which then reads the refreshed cache.
import type { H3 } from 'h3';
import { h, redirectResponse } from '../account/html.ts';
import type { Session } from '../account/sessions.ts';
import { listSources } from '../store/data-sources-repository.ts';

import type { DashboardDeps } from './dashboard-deps.ts';
import { createGuard, type RoledProject } from './guard.ts';
import { problemPage, streamedDashboardPage } from './layout.ts';
import { overviewBody, type OverviewView } from './overview-page.ts';
import { filterParam, overviewUrl, readOverviewState, type OverviewState } from './overview-state.ts';
import { projectHeader } from './project-pages.ts';
import { readOperation, readOperationByField } from './read-data.ts';

const MAX_FUNNELS = 10;

/** The overview operation's response keys and the root field each one is (which names its contract shape). */
const OVERVIEW_FIELDS = {
  siteSummary: 'siteSummary',
  searchSummary: 'searchSummary',
  siteTimeseries: 'siteTimeseries',
  pages: 'siteBreakdown',
  channels: 'siteBreakdown',
  sources: 'siteBreakdown',
  campaigns: 'siteBreakdown',
  countries: 'siteBreakdown',
  devices: 'siteBreakdown',
  landingPages: 'landingPages',
  queries: 'searchBreakdown',
  changes: 'changes',
  anomalies: 'anomalies',
  searchOpportunities: 'searchOpportunities',
  realtime: 'realtime',
} as const;

export function overviewVariables(projectKey: string, state: OverviewState, force: boolean): Record<string, unknown> {
  return {
    project: projectKey,
    period: state.period,
    compare: state.compare,
    metric: state.metric,
    interval: state.interval,
    filter: filterParam(state),
    queryLimit: String(state.queryLimit),
    ...(force ? { force: '1' } : {}),
  };
}

async function readOverview(deps: DashboardDeps, session: Session, project: RoledProject, state: OverviewState, force: boolean) {
  return readOperationByField(deps, session, 'DashboardOverview', OVERVIEW_FIELDS, overviewVariables(project.key, state, force));
}

export function mountOverviewRoutes(app: H3, deps: DashboardDeps): void {
  const { db, sessions, clock } = deps.web;
  const guard = createGuard(deps);

  app.get('/dashboard/p/:key', async (event) => {
    const found = await guard.projectGet(event.req, event.context.params?.key, 'project.read');
    if (found instanceof Response) return found;
    const { session, project } = found;
    const state = readOverviewState(new URL(event.req.url).searchParams);
    return streamedDashboardPage({
      title: `${project.name} · Overview`,
      session,
      current: 'projects',
      secure: sessions.secure,
      formActions: deps.google ? [deps.google.flow.authOrigin] : [],
      first: projectHeader(project, 'overview'),
      progress: 'Reading the numbers… A first read of a period can take a few seconds; later views come from the cache.',
      // The frame is already sent: a failure now can only be shown in the page, and is logged.
      rest: overviewContent(session, project, state).catch((error: unknown) => {
        deps.web.logger.error({ err: error }, 'overview failed');
        return h`<p class="error" role="alert">Reading this overview failed; the error was logged. Reload to try again.</p>`;
      }),
    });
  });

  async function overviewContent(session: Session, project: RoledProject, state: OverviewState) {
    const [reads, list] = await Promise.all([
      readOverview(deps, session, project, state, false),
      readOperation<{ funnels: { key: string; name: string }[] }>(deps, session, 'FunnelsList', 'project', { project: project.key }),
    ]);
    const funnels = await Promise.all(
      (list.ok ? list.body.funnels.slice(0, MAX_FUNNELS) : []).map(async (f) => ({ key: f.key, name: f.name, result: await readOperation(deps, session, 'FunnelResults', 'funnelResults', { funnel: f.key }) })),
    );
    // Read after the reports: a credential they just found revoked shows as an error here.
    const sources = await listSources(db, project.id);
    const { siteSummary, searchSummary, siteTimeseries, ...cards } = reads;
    const view = { csrf: session.csrf, project, sources, googleConfigured: deps.google !== undefined, now: clock(), state, summary: siteSummary, search: searchSummary, timeseries: siteTimeseries, cards, funnels } as OverviewView;
    return overviewBody(view);
  }

  app.post('/dashboard/p/:key', async (event) => {
    // Refreshing spends the providers' quota for everyone on the project: editors and admins.
    const found = await guard.projectPost(event.req, event.context.params?.key, 'report.refresh');
    if (found instanceof Response) return found;
    const { session, project } = found;
    const state = readOverviewState(new URL(event.req.url).searchParams);
    const reads = await readOverview(deps, session, project, state, true);
    const refused = Object.values(reads).find((r) => !r.ok && r.error.code === 'rate_limited');
    if (refused && !refused.ok) {
      return problemPage({ title: 'Not refreshed', message: refused.error.message, next: h`<a href="${overviewUrl(project.key, state)}">Back to the overview</a> (it shows the data kept so far).`, status: 429, session, secure: sessions.secure });
    }
    return redirectResponse(overviewUrl(project.key, state));
  });
}
