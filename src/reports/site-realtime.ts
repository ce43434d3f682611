// Realtime: active users of the last 30 minutes, per minute, and the top pages, countries, devices
// and events right now. Each part is one realtime report; all are cached for at most 30 s.
import type { ReportDeps } from './report-deps.ts';
import { requireProject, requireSource } from './project-lookup.ts';
import { buildMeta, type Meta } from './meta.ts';
import type { RealtimeReport } from '../providers/analytics/normalize.ts';
import { toDimensions, toMetrics } from '../providers/analytics/translate.ts';

/** Standard properties keep 30 minutes of realtime data. */
const MINUTES = 30;
const TOP = 10;

export interface SiteRealtime {
  project: string;
  activeUsers: number;
  perMinute: { minutesAgo: number; activeUsers: number }[];
  topPages: { page: string; activeUsers: number; screenPageViews: number }[];
  countries: { country: string; activeUsers: number }[];
  devices: { device: string; activeUsers: number }[];
  topEvents: { eventName: string; eventCount: number }[];
  meta: Meta;
}

const top = (dimension: string, metrics: string[]) => ({
  dimensions: toDimensions([dimension]),
  metrics: toMetrics(metrics),
  orderBys: [{ metric: { metricName: metrics[0] }, desc: true }],
  limit: String(TOP),
});

export async function siteRealtime(ctx: ReportDeps, args: { project: string }): Promise<SiteRealtime> {
  const project = await requireProject(ctx, args.project);
  const source = await requireSource(ctx, project, 'analytics');
  const load = (request: Parameters<typeof ctx.loaders.analytics.realtime>[1]) => ctx.loaders.analytics.realtime(source, request);
  const results = await Promise.all([
    load({ metrics: toMetrics(['activeUsers']) }),
    load({ dimensions: toDimensions(['minutesAgo']), metrics: toMetrics(['activeUsers']), limit: String(MINUTES) }),
    load(top('unifiedScreenName', ['activeUsers', 'screenPageViews'])),
    load(top('country', ['activeUsers'])),
    load(top('deviceCategory', ['activeUsers'])),
    load(top('eventName', ['eventCount'])),
  ]);
  const [total, minutes, pages, countries, devices, events] = results.map((r) => r.value) as RealtimeReport[];
  const byMinute = new Map(minutes!.rows.map((r) => [Number(r.dimensions.minutesAgo), r.metrics.activeUsers ?? 0]));
  return {
    project: project.key,
    activeUsers: total!.rows[0]?.metrics.activeUsers ?? 0,
    perMinute: Array.from({ length: MINUTES }, (_, minutesAgo) => ({ minutesAgo, activeUsers: byMinute.get(minutesAgo) ?? 0 })),
    topPages: pages!.rows.map((r) => ({ page: r.dimensions.unifiedScreenName ?? '', activeUsers: r.metrics.activeUsers ?? 0, screenPageViews: r.metrics.screenPageViews ?? 0 })),
    countries: countries!.rows.map((r) => ({ country: r.dimensions.country ?? '', activeUsers: r.metrics.activeUsers ?? 0 })),
    devices: devices!.rows.map((r) => ({ device: r.dimensions.deviceCategory ?? '', activeUsers: r.metrics.activeUsers ?? 0 })),
    topEvents: events!.rows.map((r) => ({ eventName: r.dimensions.eventName ?? '', eventCount: r.metrics.eventCount ?? 0 })),
    meta: buildMeta({ results, sources: ['analytics'], now: ctx.services.clock() }),
  };
}
