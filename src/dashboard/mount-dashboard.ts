// Mounts the dashboard: joining (setup, invitations, sign-up, the team), projects and who may see them, data
// sources and the Google flow, funnels, each project's overview and audit log. An expected refusal anywhere under
// /dashboard (a role that does not allow it, a value a provider listed but Siteline refuses) answers a page that
// says what happened, as does an unknown /dashboard path; never problem JSON in the browser.
import type { H3 } from 'h3';
import { h } from '../account/html.ts';
import { isAppError } from '../errors/app-error.ts';
import { mountAccessRoutes } from './access-routes.ts';
import { mountAccountRoutes } from './account-routes.ts';
import { mountAuditRoutes } from './audit-routes.ts';
import type { DashboardDeps } from './dashboard-deps.ts';
import { mountGoogleConnectRoutes } from './google-connect-routes.ts';
import { mountFunnelRoutes } from './funnel-routes.ts';
import { problemPage } from './layout.ts';
import { mountOverviewExport } from './overview-export.ts';
import { mountOverviewRoutes } from './overview-routes.ts';
import { mountProjectRoutes } from './project-routes.ts';
import { mountSourceRoutes } from './source-routes.ts';

const TITLES: Record<number, string> = { 400: 'Not saved', 403: 'Not allowed', 404: 'Not found', 409: 'Not saved', 410: 'No longer available', 413: 'Too large', 429: 'Too many requests' };

export function mountDashboard(app: H3, deps: DashboardDeps): void {
  const secure = deps.web.sessions.secure;
  app.use('/dashboard/**', async (event, next) => {
    try {
      return await next();
    } catch (error) {
      if (!isAppError(error) || error.status >= 500) throw error;
      const session = await deps.web.sessions.read(event.req).catch(() => undefined);
      const next = h`Go back and try again, or <a href="/dashboard">go to your projects</a>.`;
      return problemPage({ title: TITLES[error.status] ?? 'Not done', message: `${error.message} Nothing was changed.`, next, status: error.status, session, secure });
    }
  });
  mountAccountRoutes(app, deps);
  const settingsPage = mountProjectRoutes(app, deps);
  mountAccessRoutes(app, deps, settingsPage);
  mountAuditRoutes(app, deps);
  mountSourceRoutes(app, deps);
  mountGoogleConnectRoutes(app, deps);
  mountFunnelRoutes(app, deps);
  mountOverviewExport(app, deps);
  mountOverviewRoutes(app, deps);
  app.all('/dashboard/**', async (event) => {
    const session = await deps.web.sessions.read(event.req).catch(() => undefined);
    return problemPage({ title: 'Page not found', message: `There is no dashboard page at ${new URL(event.req.url).pathname}.`, next: h`<a href="/dashboard">Go to your projects</a>`, status: 404, session, secure });
  });
}
