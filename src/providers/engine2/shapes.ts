// Bing Webmaster JSON answers: the `{"d": …}` wrapper with PascalCase fields; bare `{ErrorCode, Message}` errors.
import { z } from 'zod';

const number = z.number().optional();
export const queryStatsSchema = z.looseObject({
  Query: z.string().optional(),
  Date: z.string(),
  Clicks: number,
  Impressions: number,
  AvgImpressionPosition: number,
  AvgClickPosition: number,
});
export type NativeQueryStats = z.infer<typeof queryStatsSchema>;
export const trafficStatsSchema = z.looseObject({ Date: z.string(), Clicks: number, Impressions: number });
export type NativeTrafficStats = z.infer<typeof trafficStatsSchema>;
export const siteSchema = z.looseObject({ Url: z.string(), IsVerified: z.boolean().optional() });

/** `d: null` means no rows (observed). */
export const listOf = <T extends z.ZodType>(item: T) => z.looseObject({ d: z.array(item).nullable() });
/** A list answer before its rows are checked (each against its own schema, as it is read). */
export const uncheckedList = z.looseObject({ d: z.custom<unknown[]>((rows) => Array.isArray(rows)).nullable() });

export const errorBodySchema = z.looseObject({ ErrorCode: z.number(), Message: z.string().optional() });
