// The planted truths a caller can switch on (POST /__sandbox/scenarios): their shapes and validation. Which
// site an event belongs to and whether its value exists is checked by the store against the catalogue.
import { z } from 'zod';
import { parseIsoDate } from '../data/calendar.ts';

/** GA dimensions a segment can be shifted on: those of the partition families (a session has one value). */
export const SHIFTABLE_DIMENSIONS = [
  'country', 'continent', 'city', 'deviceCategory', 'operatingSystem', 'browser',
  'sessionDefaultChannelGroup', 'sessionSource', 'sessionMedium', 'sessionSourceMedium', 'sessionCampaignName', 'landingPage',
] as const;

const isoDate = z.string().refine((s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && parseIsoDate(s) !== undefined, 'Use a real date as YYYY-MM-DD.');
const property = z.string().regex(/^\d+$/, 'Use the GA4 property id (digits).');
const dimension = z.enum(SHIFTABLE_DIMENSIONS);
const factor = z.number().positive('The factor must be greater than 0.').max(100);
const text = z.string().trim().min(1);

const segmentShift = z.strictObject({ kind: z.literal('segment_shift'), property, dimension, value: text, from: isoDate, factor });
const spike = z.strictObject({ kind: z.literal('spike'), property, dimension, value: text, date: isoDate, factor });
const rankingLoss = z.strictObject({ kind: z.literal('ranking_loss'), site: text, query: text, from: isoDate, position: z.number().min(1).max(100) });
const cannibalisation = z.strictObject({ kind: z.literal('cannibalisation'), site: text, query: text, pages: z.array(text).min(2).max(5), from: isoDate });

export const scenarioEventSchema = z.discriminatedUnion('kind', [segmentShift, spike, rankingLoss, cannibalisation]);
export const scenarioPostSchema = z.strictObject({ events: z.array(scenarioEventSchema).min(1).max(500) });

export type ScenarioEvent = z.infer<typeof scenarioEventSchema>;
export type StoredEvent = ScenarioEvent & { id: string };
export type SegmentEvent = Extract<StoredEvent, { kind: 'segment_shift' | 'spike' }>;
export type SearchEvent = Extract<StoredEvent, { kind: 'ranking_loss' | 'cannibalisation' }>;

/** First and last day (epoch days) an event is in force; a shift lasts to the end of time. */
export function eventDays(event: ScenarioEvent): { first: number; last: number } {
  if (event.kind === 'spike') {
    const day = parseIsoDate(event.date)!;
    return { first: day, last: day };
  }
  return { first: parseIsoDate(event.from)!, last: Number.POSITIVE_INFINITY };
}
