// Every REST endpoint of /api/v1, in one table (facade → stored operation).
import type { RestRoute } from './rest-route.ts';
import { funnelRoutes } from './routes/funnels.ts';
import { insightRoutes } from './routes/insights.ts';
import { projectRoutes } from './routes/projects.ts';
import { rawProxyRoutes } from './routes/raw-proxies.ts';
import { searchRoutes } from './routes/search.ts';
import { siteMetricRoutes } from './routes/site-metrics.ts';

export const REST_ROUTES: readonly RestRoute[] = [...projectRoutes, ...funnelRoutes, ...siteMetricRoutes, ...searchRoutes, ...insightRoutes, ...rawProxyRoutes];
