// The analytics (GA4 Data API) client for one property: official library calls through the resilience pipeline.
import type { analyticsdata_v1beta } from '@googleapis/analyticsdata';
import type { OAuth2Client } from 'google-auth-library';
import { invalidParameter } from '../../errors/app-error.ts';
import type { ProviderEndpoints } from '../endpoints.ts';
import type { GoogleSession } from '../google-auth.ts';
import type { RawResponse } from '../raw-response.ts';
import { googleRawAttempt } from '../raw-response.ts';
import { analyticsDataLibrary } from '../google-libraries.ts';
import type { Resilience } from '../resilience.ts';
import { MalformedAnswer, parseShape } from '../upstream-errors.ts';
import { classifyAnalyticsError } from './errors.ts';
import type { AnalyticsReport, FieldMetadata, MetricMetadata, RealtimeReport } from './normalize.ts';
import { normalizeRealtimeReport, normalizeReport, toFieldMetadata, toMetricMetadata } from './normalize.ts';
import type { FunnelReport } from './normalize-funnel.ts';
import { normalizeFunnel } from './normalize-funnel.ts';
import { toRawAnalyticsPath } from './raw-path.ts';
import { batchSchema, compatibilitySchema, funnelSchema, metadataSchema, reportSchema } from './shapes.ts';

export type RunReportRequest = analyticsdata_v1beta.Schema$RunReportRequest;
export type RunRealtimeReportRequest = analyticsdata_v1beta.Schema$RunRealtimeReportRequest;
export type CheckCompatibilityRequest = analyticsdata_v1beta.Schema$CheckCompatibilityRequest;
/**
 * v1alpha runFunnelReport body. The installed `@googleapis/analyticsdata` v1alpha surface
 * has no runFunnelReport method, so this one call goes through the same auth client's `request()` (same
 * transport, token, timeouts and error mapping) to a path built from constants.
 */
export interface RunFunnelReportRequest {
  dateRanges?: analyticsdata_v1beta.Schema$DateRange[];
  funnel: { isOpenFunnel?: boolean; steps: Record<string, unknown>[] };
  funnelBreakdown?: Record<string, unknown>;
  funnelNextAction?: Record<string, unknown>;
  funnelVisualizationType?: 'STANDARD_FUNNEL' | 'TRENDED_FUNNEL';
  segments?: Record<string, unknown>[];
  limit?: string;
  dimensionFilter?: analyticsdata_v1beta.Schema$FilterExpression;
  returnPropertyQuota?: boolean;
}

/** The provider allows at most 5 reports per batchRunReports call. */
export const BATCH_LIMIT = 5;
/** Chunks in flight at once: GA allows 10 concurrent requests per property, shared with everything else. */
const BATCH_PARALLELISM = 3;

export interface AnalyticsMetadata {
  dimensions: FieldMetadata[];
  metrics: MetricMetadata[];
}
export interface AnalyticsCompatibility {
  dimensions: { field: FieldMetadata; compatible: boolean }[];
  metrics: { field: MetricMetadata; compatible: boolean }[];
}

export interface AnalyticsClient {
  readonly propertyId: string;
  runReport(request: RunReportRequest): Promise<AnalyticsReport>;
  /** Any number of reports, sent in chunks of 5; answers in request order. */
  batchRunReports(requests: RunReportRequest[]): Promise<AnalyticsReport[]>;
  runRealtimeReport(request: RunRealtimeReportRequest): Promise<RealtimeReport>;
  getMetadata(): Promise<AnalyticsMetadata>;
  checkCompatibility(request: CheckCompatibilityRequest): Promise<AnalyticsCompatibility>;
  runFunnelReport(request: RunFunnelReportRequest): Promise<FunnelReport>;
  /** Raw proxy: `path` is `properties/<id>:<method>` or `properties/<id>/metadata`; native JSON back unchanged. */
  rawRequest(method: string, path: string, body?: unknown): Promise<RawResponse>;
}

export interface AnalyticsApis {
  beta: analyticsdata_v1beta.Analyticsdata;
}

export function createAnalyticsApis(auth: OAuth2Client, endpoints: ProviderEndpoints): AnalyticsApis {
  // retry: false — googleapis-common retries by default; retries are resilience.ts's job alone.
  const common = {
    auth,
    rootUrl: endpoints.analyticsRoot,
    retry: false,
    ...(endpoints.fetch ? { fetchImplementation: endpoints.fetch } : {}),
  };
  return { beta: analyticsDataLibrary().analyticsdata({ version: 'v1beta', ...common }) };
}

export interface AnalyticsClientDeps {
  session: GoogleSession;
  apis: AnalyticsApis;
  endpoints: ProviderEndpoints;
  resilience: Resilience;
  isTokenRequest: (url: unknown) => boolean;
}

/**
 * Every typed report asks for the property's quota state: the remaining buckets go into `meta.quota` and a
 * `quota_low` warning fires before the property locks up. Raw proxy bodies are sent exactly as given.
 */
function withQuota<T extends object>(request: T): T & { returnPropertyQuota: true } {
  return { ...request, returnPropertyQuota: true };
}

export function toPropertyId(value: string): string {
  const id = value.startsWith('properties/') ? value.slice('properties/'.length) : value;
  if (!/^\d{1,20}$/.test(id)) throw invalidParameter('propertyId', `Analytics property id "${value}" is not numeric.`);
  return id;
}

export function createAnalyticsClient(deps: AnalyticsClientDeps, propertyIdInput: string): AnalyticsClient {
  const propertyId = toPropertyId(propertyIdInput);
  const property = `properties/${propertyId}`;
  const { beta } = deps.apis;

  function call<T>(operation: string, attempt: (signal: AbortSignal) => Promise<T>, raw = false): Promise<T> {
    return deps.resilience.execute({
      source: 'analytics',
      operation,
      target: propertyId,
      credentialId: deps.session.identity,
      attempt,
      classify: (error) => classifyAnalyticsError(error, { propertyId, raw, isTokenRequest: deps.isTokenRequest, account: deps.session.account }),
    });
  }
  // Redirects are never followed: a 3xx from a provider is an error, not a new destination.
  const opts = (signal: AbortSignal) => ({ signal, redirect: 'manual' as const });

  async function runBatch(requests: RunReportRequest[]): Promise<AnalyticsReport[]> {
    return call('batchRunReports', async (signal) => {
      const res = await beta.properties.batchRunReports({ property, requestBody: { requests: requests.map(withQuota) } }, opts(signal));
      const reports = parseShape(batchSchema, res.data, 'batchRunReports').reports ?? [];
      if (reports.length !== requests.length) throw new MalformedAnswer('batchRunReports: wrong number of reports');
      return reports.map(normalizeReport);
    });
  }

  return {
    propertyId,
    runReport: (request) =>
      call('runReport', async (signal) => {
        const res = await beta.properties.runReport({ property, requestBody: withQuota(request) }, opts(signal));
        return normalizeReport(parseShape(reportSchema, res.data, 'runReport'));
      }),
    async batchRunReports(requests) {
      const chunks: RunReportRequest[][] = [];
      for (let i = 0; i < requests.length; i += BATCH_LIMIT) chunks.push(requests.slice(i, i + BATCH_LIMIT));
      const results: AnalyticsReport[][] = chunks.map(() => []);
      let next = 0;
      const worker = async () => {
        while (next < chunks.length) {
          const index = next++;
          results[index] = await runBatch(chunks[index] ?? []);
        }
      };
      await Promise.all(Array.from({ length: Math.min(BATCH_PARALLELISM, chunks.length) }, worker));
      return results.flat();
    },
    runRealtimeReport: (request) =>
      call('runRealtimeReport', async (signal) => {
        const res = await beta.properties.runRealtimeReport({ property, requestBody: withQuota(request) }, opts(signal));
        return normalizeRealtimeReport(parseShape(reportSchema, res.data, 'runRealtimeReport'));
      }),
    getMetadata: () =>
      call('getMetadata', async (signal) => {
        const res = await beta.properties.getMetadata({ name: `${property}/metadata` }, opts(signal));
        const native = parseShape(metadataSchema, res.data, 'getMetadata');
        return {
          dimensions: (native.dimensions ?? []).map(toFieldMetadata),
          metrics: (native.metrics ?? []).map(toMetricMetadata),
        };
      }),
    checkCompatibility: (request) =>
      call('checkCompatibility', async (signal) => {
        const res = await beta.properties.checkCompatibility({ property, requestBody: request }, opts(signal));
        const native = parseShape(compatibilitySchema, res.data, 'checkCompatibility');
        return {
          dimensions: (native.dimensionCompatibilities ?? []).flatMap((c) =>
            c.dimensionMetadata ? [{ field: toFieldMetadata(c.dimensionMetadata), compatible: c.compatibility === 'COMPATIBLE' }] : [],
          ),
          metrics: (native.metricCompatibilities ?? []).flatMap((c) =>
            c.metricMetadata ? [{ field: toMetricMetadata(c.metricMetadata), compatible: c.compatibility === 'COMPATIBLE' }] : [],
          ),
        };
      }),
    runFunnelReport: (request) =>
      call('runFunnelReport', async (signal) => {
        const res = await deps.session.auth.request<unknown>({
          url: new URL(`v1alpha/${property}:runFunnelReport`, deps.endpoints.analyticsRoot),
          method: 'POST',
          data: withQuota(request),
          responseType: 'json',
          ...opts(signal),
        });
        return normalizeFunnel(parseShape(funnelSchema, res.data, 'runFunnelReport'));
      }),
    async rawRequest(method, path, body) {
      const target = toRawAnalyticsPath(method, path, propertyId);
      return call(`raw:${target.operation}`, (signal) => googleRawAttempt(deps.session, deps.endpoints.analyticsRoot, target, body, signal), true);
    },
  };
}
