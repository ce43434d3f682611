// The parts of Search Console answers we read, checked before use (a wrong shape is a 502, not a crash).
import { z } from 'zod';

export const searchRowSchema = z.looseObject({
  keys: z.array(z.string()).optional(),
  clicks: z.number().optional(),
  impressions: z.number().optional(),
  ctr: z.number().optional(),
  position: z.number().optional(),
});
export type NativeSearchRow = z.infer<typeof searchRowSchema>;
/**
 * The answer around its rows. A page holds up to 25,000 rows: each is checked against `searchRowSchema` as it is
 * read (normalizeSearchRows, in slices of the event loop), not all at once here.
 */
export const searchAnalyticsSchema = z.looseObject({
  rows: z.custom<unknown[]>((rows) => Array.isArray(rows)).optional(),
  responseAggregationType: z.string().optional(),
  metadata: z
    .looseObject({
      firstIncompleteDate: z.string().optional(),
      first_incomplete_date: z.string().optional(),
      firstIncompleteHour: z.string().optional(),
      first_incomplete_hour: z.string().optional(),
    })
    .optional(),
});
export type NativeSearchAnalytics = z.infer<typeof searchAnalyticsSchema>;

export const sitesSchema = z.looseObject({
  siteEntry: z.array(z.looseObject({ siteUrl: z.string(), permissionLevel: z.string().optional() })).optional(),
});

const int64 = z.union([z.string(), z.number()]).optional();
export const sitemapsSchema = z.looseObject({
  sitemap: z
    .array(
      z.looseObject({
        path: z.string(),
        lastSubmitted: z.string().optional(),
        lastDownloaded: z.string().optional(),
        isPending: z.boolean().optional(),
        isSitemapsIndex: z.boolean().optional(),
        type: z.string().optional(),
        warnings: int64,
        errors: int64,
        contents: z.array(z.looseObject({ type: z.string().optional(), submitted: int64, indexed: int64 })).optional(),
      }),
    )
    .optional(),
});
export type NativeSitemaps = z.infer<typeof sitemapsSchema>;

export const inspectionSchema = z.looseObject({
  inspectionResult: z.looseObject({
    inspectionResultLink: z.string().optional(),
    indexStatusResult: z.looseObject({}).optional(),
  }),
});
