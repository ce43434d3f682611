// The parts of GA Data API answers we read, checked before use (a wrong shape is a 502, not a crash).
// Loose objects: unknown fields pass; proto3 omits defaults, so nearly everything is optional.
import { z } from 'zod';

const value = z.looseObject({ value: z.string().optional() });
export const nativeRowSchema = z.looseObject({
  dimensionValues: z.array(value).optional(),
  metricValues: z.array(value).optional(),
});
export const dimensionHeaderSchema = z.looseObject({ name: z.string() });
export const metricHeaderSchema = z.looseObject({ name: z.string(), type: z.string().optional() });
const quotaStatus = z.looseObject({ consumed: z.number().optional(), remaining: z.number().optional() });
export const propertyQuotaSchema = z.looseObject({
  tokensPerDay: quotaStatus.optional(),
  tokensPerHour: quotaStatus.optional(),
  concurrentRequests: quotaStatus.optional(),
  serverErrorsPerProjectPerHour: quotaStatus.optional(),
  potentiallyThresholdedRequestsPerHour: quotaStatus.optional(),
  tokensPerProjectPerHour: quotaStatus.optional(),
});
const samplingSchema = z.looseObject({
  samplesReadCount: z.union([z.string(), z.number()]).optional(),
  samplingSpaceSize: z.union([z.string(), z.number()]).optional(),
});
export const responseMetadataSchema = z.looseObject({
  currencyCode: z.string().optional(),
  timeZone: z.string().optional(),
  dataLossFromOtherRow: z.boolean().optional(),
  subjectToThresholding: z.boolean().optional(),
  emptyReason: z.string().optional(),
  samplingMetadatas: z.array(samplingSchema).optional(),
});

export const reportSchema = z.looseObject({
  dimensionHeaders: z.array(dimensionHeaderSchema).optional(),
  metricHeaders: z.array(metricHeaderSchema).optional(),
  rows: z.array(nativeRowSchema).optional(),
  totals: z.array(nativeRowSchema).optional(),
  maximums: z.array(nativeRowSchema).optional(),
  minimums: z.array(nativeRowSchema).optional(),
  rowCount: z.number().optional(),
  metadata: responseMetadataSchema.optional(),
  propertyQuota: propertyQuotaSchema.optional(),
});
export type NativeReport = z.infer<typeof reportSchema>;
export type NativeRow = z.infer<typeof nativeRowSchema>;
export type NativePropertyQuota = z.infer<typeof propertyQuotaSchema>;
export type NativeResponseMetadata = z.infer<typeof responseMetadataSchema>;

export const batchSchema = z.looseObject({ reports: z.array(reportSchema).optional() });

const fieldMetadata = z.looseObject({
  apiName: z.string(),
  uiName: z.string().optional(),
  description: z.string().optional(),
  category: z.string().optional(),
  customDefinition: z.boolean().optional(),
  deprecatedApiNames: z.array(z.string()).optional(),
  type: z.string().optional(),
  expression: z.string().optional(),
  blockedReasons: z.array(z.string()).optional(),
});
export type NativeFieldMetadata = z.infer<typeof fieldMetadata>;
export const metadataSchema = z.looseObject({
  dimensions: z.array(fieldMetadata).optional(),
  metrics: z.array(fieldMetadata).optional(),
  comparisons: z.array(z.looseObject({ apiName: z.string(), uiName: z.string().optional() })).optional(),
});

export const compatibilitySchema = z.looseObject({
  dimensionCompatibilities: z
    .array(z.looseObject({ dimensionMetadata: fieldMetadata.optional(), compatibility: z.string().optional() }))
    .optional(),
  metricCompatibilities: z
    .array(z.looseObject({ metricMetadata: fieldMetadata.optional(), compatibility: z.string().optional() }))
    .optional(),
});

const subReport = z.looseObject({
  dimensionHeaders: z.array(dimensionHeaderSchema).optional(),
  metricHeaders: z.array(metricHeaderSchema).optional(),
  rows: z.array(nativeRowSchema).optional(),
  metadata: responseMetadataSchema.optional(),
});
export type NativeFunnelSubReport = z.infer<typeof subReport>;
export const funnelSchema = z.looseObject({
  funnelTable: subReport.optional(),
  funnelVisualization: subReport.optional(),
  propertyQuota: propertyQuotaSchema.optional(),
});
export type NativeFunnelReport = z.infer<typeof funnelSchema>;
