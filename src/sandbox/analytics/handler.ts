// The Data API surface: resolves the property, enforces its quota buckets, dispatches to the method and adds
// `propertyQuota` when asked. Paths: /v1beta/properties/{id}:{verb}, /v1beta/properties/{id}/metadata,
// /v1alpha/properties/{id}:runFunnelReport.
import { findByPropertyId, type DemoSite } from '../catalogue.ts';
import type { GaQuota, QuotaCategory } from '../control/ga-quota.ts';
import { reportCost } from '../control/ga-quota.ts';
import { camelKeys, googleError, jsonResponse, readJson } from '../http.ts';
import { propertyContext } from './context.ts';
import { toEnumNames, toEnumNumbers, wantsIntEnums } from './enums.ts';
import { invalid, noPropertyAccess } from './ga-errors.ts';
import { checkCompatibility, getMetadata } from './metadata.ts';
import { runFunnelReport } from './run-funnel.ts';
import { runPivotReport } from './run-pivot.ts';
import { runRealtimeReport, runReport, type Json } from './run-report.ts';

export interface AnalyticsRoute {
  version: 'v1beta' | 'v1alpha';
  propertyId: string;
  method: string;
}

const V1BETA_VERBS = ['runReport', 'batchRunReports', 'runPivotReport', 'batchRunPivotReports', 'runRealtimeReport', 'checkCompatibility'];

/** Matches the literal-colon paths the clients send (`/v1beta/properties/123:runReport`). */
export function matchAnalytics(method: string, path: string): AnalyticsRoute | undefined {
  const verb = /^\/(v1beta|v1alpha)\/properties\/([^/:]+):(\w+)$/.exec(path);
  if (verb && method === 'POST') {
    const [, version, propertyId, name] = verb as unknown as [string, 'v1beta' | 'v1alpha', string, string];
    if (version === 'v1beta' && V1BETA_VERBS.includes(name)) return { version, propertyId, method: name };
    if (version === 'v1alpha' && name === 'runFunnelReport') return { version, propertyId, method: name };
    return undefined;
  }
  const meta = /^\/v1beta\/properties\/([^/:]+)\/metadata$/.exec(path);
  if (meta && method === 'GET') return { version: 'v1beta', propertyId: meta[1]!, method: 'getMetadata' };
  return undefined;
}

export function quotaCategory(method: string): QuotaCategory {
  return method === 'runRealtimeReport' ? 'realtime' : method === 'runFunnelReport' ? 'funnel' : 'core';
}

export interface AnalyticsDeps {
  catalogue: readonly DemoSite[];
  quota: GaQuota;
  now: Date;
  /** Quota project: the credential's identity. */
  project: string;
}

export async function handleAnalytics(request: Request, route: AnalyticsRoute, deps: AnalyticsDeps): Promise<Response> {
  const { propertyId, method } = route;
  if (!/^\d+$/.test(propertyId)) throw invalid(`Invalid property name properties/${propertyId}. Property names look like properties/1234.`);
  const answer = (result: Json) => jsonResponse(wantsIntEnums(request.url) ? toEnumNumbers(result) : result);
  if (method === 'getMetadata' && propertyId === '0') return answer(getMetadata('0'));
  const body = method === 'getMetadata' ? {} : (toEnumNames(camelKeys(await readJson(request))) as Json);
  if (method === 'checkCompatibility' && propertyId === '0') return answer(checkCompatibility('0', body));
  const site = findByPropertyId(deps.catalogue, propertyId);
  if (!site) throw noPropertyAccess();
  const category = quotaCategory(method);
  deps.quota.assertAvailable(propertyId, deps.project, category, deps.now);
  const ctx = propertyContext(site, deps.now);
  let result: Json;
  let cost = 1;
  let wantsQuota = body.returnPropertyQuota === true;
  // batchRunReports has no top-level propertyQuota: each report that asked for it carries it.
  const batchQuota: Json[] = [];
  const days = (b: Json) => 30 * Math.max(1, Array.isArray(b.dateRanges) ? b.dateRanges.length : 1);
  switch (method) {
    case 'getMetadata':
      result = getMetadata(propertyId);
      cost = 0;
      break;
    case 'checkCompatibility':
      result = checkCompatibility(propertyId, body);
      break;
    case 'runReport': {
      const out = runReport(ctx, body);
      result = out.response;
      cost = reportCost(spanDays(out.query.ranges), out.query.dimensions.length, out.rowCount);
      break;
    }
    case 'runRealtimeReport': {
      const out = runRealtimeReport(ctx, body);
      result = out.response;
      cost = reportCost(1, out.query.dimensions.length, out.rowCount);
      break;
    }
    case 'runPivotReport': {
      const out = runPivotReport(ctx, body);
      result = out.response;
      cost = reportCost(days(body), Array.isArray(body.dimensions) ? body.dimensions.length : 0, out.rowCount);
      break;
    }
    case 'batchRunReports':
    case 'batchRunPivotReports': {
      const requests = Array.isArray(body.requests) ? (body.requests as Json[]) : [];
      const extra = Object.keys(body).filter((k) => k !== 'requests' && k !== 'property');
      if (extra.length) throw invalid(`Invalid JSON payload received. Unknown name "${extra[0]}": Cannot find field.`);
      if (requests.length === 0) throw invalid('requests must contain at least one request.');
      if (requests.length > 5) throw invalid(`A batch may contain at most 5 requests; this batch has ${requests.length}.`);
      const pivot = method === 'batchRunPivotReports';
      const reports = requests.map((r, i) => {
        const item = (r ?? {}) as Json;
        if (item.property !== undefined && item.property !== '' && item.property !== `properties/${propertyId}`) {
          throw invalid(`requests[${i}].property must be empty or equal to properties/${propertyId}.`);
        }
        const out = pivot ? runPivotReport(ctx, item) : runReport(ctx, item);
        cost += reportCost(days(item), Array.isArray(item.dimensions) ? item.dimensions.length : 0, out.rowCount);
        const { propertyQuota: _q, ...report } = out.response;
        if (item.returnPropertyQuota === true) batchQuota.push(report);
        return report;
      });
      result = pivot ? { pivotReports: reports, kind: 'analyticsData#batchRunPivotReports' } : { reports, kind: 'analyticsData#batchRunReports' };
      break;
    }
    case 'runFunnelReport':
      result = runFunnelReport(ctx, body).response;
      cost = 2;
      break;
    default:
      throw googleError(404, `Method ${method} not found.`);
  }
  const quota = deps.quota.charge(propertyId, deps.project, category, cost, deps.now);
  if (wantsQuota && method !== 'getMetadata' && method !== 'checkCompatibility') result = withQuota(result, quota);
  for (const report of batchQuota) Object.assign(report, withQuota(report, quota));
  return answer(result);
}

function spanDays(ranges: { start: number; end: number }[]): number {
  return ranges.reduce((acc, r) => acc + (r.end - r.start + 1), 0);
}

/** Inserts propertyQuota before `kind`, as the API orders it (zero `consumed` omitted per proto3). */
function withQuota(result: Json, quota: object): Json {
  const { kind, ...rest } = result;
  const cleaned = JSON.parse(JSON.stringify(quota, (_k, v: unknown) => (v === 0 ? undefined : v))) as Json;
  return { ...rest, propertyQuota: cleaned, kind };
}
