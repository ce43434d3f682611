// GA Data API answers → typed rows and warnings (metric strings parsed, proto3 omissions defaulted).
import { MalformedAnswer } from '../upstream-errors.ts';
import type {
  NativeFieldMetadata,
  NativePropertyQuota,
  NativeReport,
  NativeResponseMetadata,
  NativeRow,
} from './shapes.ts';

export interface ReportRow {
  dimensions: Record<string, string>;
  metrics: Record<string, number>;
}
export interface MetricHeader {
  name: string;
  type: string;
}
export type AnalyticsWarningCode = 'sampled' | 'thresholded' | 'other_row' | 'quota_low';
export interface ProviderWarning {
  code: AnalyticsWarningCode;
  message: string;
}
export interface AnalyticsReport {
  dimensionHeaders: string[];
  metricHeaders: MetricHeader[];
  rows: ReportRow[];
  /** Rows of the full result regardless of limit/offset (GA omits it when 0). */
  rowCount: number;
  totals: ReportRow[];
  maximums: ReportRow[];
  minimums: ReportRow[];
  currencyCode?: string;
  timeZone?: string;
  emptyReason?: string;
  warnings: ProviderWarning[];
  /** What is left of the property's quota buckets after this request (GA's `propertyQuota`), when it was sent. */
  quota?: QuotaRemaining;
}
/** Remaining tokens/requests per GA quota bucket, e.g. `{ tokensPerHour: 39120, … }`. */
export type QuotaRemaining = Partial<Record<QuotaBucket, number>>;
export type RealtimeReport = Omit<AnalyticsReport, 'currencyCode' | 'timeZone' | 'emptyReason'>;

interface Headers {
  dimensionHeaders?: { name: string }[];
  metricHeaders?: { name: string; type?: string }[];
}

/** Every GA metric value is a string; its header type says what it holds. `allFloat` for the funnel quirk. */
export function parseMetricValue(value: string | undefined, type: string | undefined, name: string): number {
  if (value === undefined || value === '') return 0;
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) throw new MalformedAnswer(`metric ${name} is not a number`);
  // Integer-typed values are integral on the wire; a fraction there (the funnel rate quirk) is kept as is.
  return type === 'TYPE_INTEGER' && Number.isInteger(parsed) ? Math.trunc(parsed) : parsed;
}

/**
 * Maps each row's values by header name. When a header name repeats (the funnel `metricHeaders` quirk: 4 metrics
 * listed twice while rows hold 4 values), the first occurrence wins.
 */
export function toRows(headers: Headers, rows: NativeRow[] | undefined): ReportRow[] {
  const dims = firstOccurrences((headers.dimensionHeaders ?? []).map((h) => h.name));
  const metricHeaders = headers.metricHeaders ?? [];
  const metrics = firstOccurrences(metricHeaders.map((h) => h.name));
  return (rows ?? []).map((row) => {
    const dimensions: Record<string, string> = {};
    for (const [name, index] of dims) dimensions[name] = row.dimensionValues?.[index]?.value ?? '';
    const values: Record<string, number> = {};
    for (const [name, index] of metrics) {
      const cell = row.metricValues?.[index];
      if (cell !== undefined) values[name] = parseMetricValue(cell.value, metricHeaders[index]?.type, name);
    }
    return { dimensions, metrics: values };
  });
}

function firstOccurrences(names: string[]): Map<string, number> {
  const map = new Map<string, number>();
  names.forEach((name, index) => {
    if (!map.has(name)) map.set(name, index);
  });
  return map;
}

export function normalizeReport(native: NativeReport): AnalyticsReport {
  return {
    dimensionHeaders: (native.dimensionHeaders ?? []).map((h) => h.name),
    metricHeaders: (native.metricHeaders ?? []).map((h) => ({ name: h.name, type: h.type ?? 'METRIC_TYPE_UNSPECIFIED' })),
    rows: toRows(native, native.rows),
    rowCount: native.rowCount ?? 0,
    totals: toRows(native, native.totals),
    maximums: toRows(native, native.maximums),
    minimums: toRows(native, native.minimums),
    currencyCode: native.metadata?.currencyCode,
    timeZone: native.metadata?.timeZone,
    emptyReason: native.metadata?.emptyReason,
    warnings: [...metadataWarnings(native.metadata), ...quotaWarnings(native.propertyQuota)],
    ...quotaField(native.propertyQuota),
  };
}

export function normalizeRealtimeReport(native: NativeReport): RealtimeReport {
  const { currencyCode: _c, timeZone: _t, emptyReason: _e, ...report } = normalizeReport(native);
  return report;
}

export function metadataWarnings(metadata: NativeResponseMetadata | undefined): ProviderWarning[] {
  const warnings: ProviderWarning[] = [];
  const samples = metadata?.samplingMetadatas ?? [];
  if (samples.length > 0) {
    const shares = samples.map((s) => Number(s.samplesReadCount ?? 0) / Math.max(1, Number(s.samplingSpaceSize ?? 0)));
    const lowest = Math.min(...shares);
    const percent = Number.isFinite(lowest) ? ` (as little as ${(lowest * 100).toFixed(1)}% of the data was read)` : '';
    warnings.push({ code: 'sampled', message: `The analytics provider sampled this report${percent}.` });
  }
  if (metadata?.subjectToThresholding === true) {
    warnings.push({
      code: 'thresholded',
      message: 'The analytics provider withheld some rows to protect user privacy (thresholding); totals may be low.',
    });
  }
  if (metadata?.dataLossFromOtherRow === true) {
    warnings.push({
      code: 'other_row',
      message: 'Some values were grouped into an "(other)" row because the property has too many distinct values.',
    });
  }
  return warnings;
}

/** Bucket sizes of a standard and a GA360 property; the response has no limit field. */
const QUOTA_LIMITS = {
  tokensPerDay: [200_000, 2_000_000],
  tokensPerHour: [40_000, 400_000],
  tokensPerProjectPerHour: [14_000, 140_000],
  serverErrorsPerProjectPerHour: [10, 50],
  potentiallyThresholdedRequestsPerHour: [120, 120],
} satisfies Record<string, [standard: number, ga360: number]>;
export type QuotaBucket = keyof typeof QUOTA_LIMITS;

/** `{ quota }` when GA sent its quota state (proto3 omits a remaining count of 0). */
export function quotaField(quota: NativePropertyQuota | undefined): { quota?: QuotaRemaining } {
  if (quota === undefined) return {};
  const remaining: QuotaRemaining = {};
  for (const bucket of Object.keys(QUOTA_LIMITS) as QuotaBucket[]) {
    const status = (quota as Record<string, { remaining?: number } | undefined>)[bucket];
    if (status !== undefined) remaining[bucket] = status.remaining ?? 0;
  }
  return { quota: remaining };
}

/**
 * `consumed` is what this request cost, not the bucket's total, so the share left is `remaining / limit`. The
 * limit is inferred (a remaining count above the standard limit means GA360); a GA360 property low on quota can
 * therefore be under-reported, never over-reported.
 */
export function quotaWarnings(quota: NativePropertyQuota | undefined): ProviderWarning[] {
  if (quota === undefined) return [];
  const low: string[] = [];
  for (const [bucket, [standard, ga360]] of Object.entries(QUOTA_LIMITS) as [string, [number, number]][]) {
    const status = (quota as Record<string, { consumed?: number; remaining?: number } | undefined>)[bucket];
    if (status === undefined) continue;
    const remaining = status.remaining ?? 0;
    const limit = remaining > standard ? ga360 : standard;
    if (remaining < limit * 0.1) low.push(`${bucket} (${remaining} left)`);
  }
  if (low.length === 0) return [];
  return [{ code: 'quota_low', message: `The analytics property is nearly out of quota: ${low.join(', ')}.` }];
}

export interface FieldMetadata {
  apiName: string;
  uiName: string;
  description: string;
  category: string;
  custom: boolean;
  deprecatedApiNames: string[];
}
export interface MetricMetadata extends FieldMetadata {
  type: string;
  expression?: string;
  blockedReasons: string[];
}

export function toFieldMetadata(field: NativeFieldMetadata): FieldMetadata {
  return {
    apiName: field.apiName,
    uiName: field.uiName ?? field.apiName,
    description: field.description ?? '',
    category: field.category ?? '',
    custom: field.customDefinition ?? false,
    deprecatedApiNames: field.deprecatedApiNames ?? [],
  };
}

export function toMetricMetadata(field: NativeFieldMetadata): MetricMetadata {
  return {
    ...toFieldMetadata(field),
    type: field.type ?? 'METRIC_TYPE_UNSPECIFIED',
    expression: field.expression,
    blockedReasons: field.blockedReasons ?? [],
  };
}
