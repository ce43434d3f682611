// Mounts the dashboard: joining (setup, invitations, sign-up), projects, data sources and the Google flow,
// funnels, and each project's overview.
import type { H3 } from 'h3';
import { mountAccountRoutes } from './account-routes.ts';
import type { DashboardDeps } from './dashboard-deps.ts';
import { mountGoogleConnectRoutes } from './google-connect-routes.ts';
import { mountFunnelRoutes } from './funnel-routes.ts';
import { mountOverviewRoutes } from './overview-routes.ts';
import { mountProjectRoutes } from './project-routes.ts';
import { mountSourceRoutes } from './source-routes.ts';

export function mountDashboard(app: H3, deps: DashboardDeps): void {
  mountAccountRoutes(app, deps);
  mountProjectRoutes(app, deps);
  mountSourceRoutes(app, deps);
  mountGoogleConnectRoutes(app, deps);
  mountFunnelRoutes(app, deps);
  mountOverviewRoutes(app, deps);
}
