// The planted truths a caller can switch on (POST /__sandbox/scenarios): their shapes and validation. Which
// site an event belongs to and whether its value exists is checked by the store against the catalogue.
import { z } from 'zod';
import { parseIsoDate } from '../data/calendar.ts';

/** GA dimensions a segment can be shifted on: those of the partition families (a session has one value). */
export const SHIFTABLE_DIMENSIONS = [
  'country', 'continent', 'city', 'deviceCategory', 'operatingSystem', 'browser',
  'sessionDefaultChannelGroup', 'sessionSource', 'sessionMedium', 'sessionSourceMedium', 'sessionCampaignName', 'landingPage',
] as const;

/** The rates a `rate_shift` can move, and the GA counts behind each numerator (the denominator, sessions, stays). */
export const RATE_METRICS = {
  sessionKeyEventRate: ['keyEvents'],
  engagementRate: ['engagedSessions', 'userEngagementDuration'],
  screenPageViewsPerSession: ['screenPageViews'],
} as const satisfies Record<string, readonly string[]>;
export type RateMetric = keyof typeof RATE_METRICS;

const isoDate = z.string().refine((s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && parseIsoDate(s) !== undefined, 'Use a real date as YYYY-MM-DD.');
const property = z.string().regex(/^\d+$/, 'Use the GA4 property id (digits).');
const dimension = z.enum(SHIFTABLE_DIMENSIONS);
const factor = z.number().positive('The factor must be greater than 0.').max(100);
const text = z.string().trim().min(1);
/** Which search engines a search event happens on (default both). */
const engine = z.enum(['engine1', 'engine2', 'all']).optional();
const rateMetric = z.enum(Object.keys(RATE_METRICS) as [RateMetric, ...RateMetric[]]);

const segmentShift = z.strictObject({ kind: z.literal('segment_shift'), property, dimension, value: text, from: isoDate, factor });
const spike = z.strictObject({ kind: z.literal('spike'), property, dimension, value: text, date: isoDate, factor });
const trend = z.strictObject({ kind: z.literal('trend'), property, dimension, value: text, from: isoDate, to: isoDate, factor })
  .refine((e) => parseIsoDate(e.to)! > parseIsoDate(e.from)!, { message: 'to must be after from.', path: ['to'] });
const rateShift = z.strictObject({ kind: z.literal('rate_shift'), property, dimension, value: text, metric: rateMetric, from: isoDate, factor });
const rankingLoss = z.strictObject({ kind: z.literal('ranking_loss'), site: text, query: text, from: isoDate, position: z.number().min(1).max(100), engine });
const cannibalisation = z.strictObject({ kind: z.literal('cannibalisation'), site: text, query: text, pages: z.array(text).min(2).max(5), from: isoDate });
const pageDrop = z.strictObject({ kind: z.literal('page_drop'), site: text, page: text, from: isoDate, factor, engine });

export const scenarioEventSchema = z.discriminatedUnion('kind', [segmentShift, spike, trend, rateShift, rankingLoss, cannibalisation, pageDrop]);
export const scenarioPostSchema = z.strictObject({ events: z.array(scenarioEventSchema).min(1).max(500) });

export type ScenarioEvent = z.infer<typeof scenarioEventSchema>;
export type StoredEvent = ScenarioEvent & { id: string };
/** Events on a GA segment (named by property, dimension and value). */
export type SegmentEvent = Extract<StoredEvent, { kind: 'segment_shift' | 'spike' | 'trend' | 'rate_shift' }>;
/** Events on a search site (named by its URL). */
export type SearchEvent = Extract<StoredEvent, { kind: 'ranking_loss' | 'cannibalisation' | 'page_drop' }>;

type SegmentKind = SegmentEvent['kind'];
export const isSegmentEvent = <E extends ScenarioEvent>(event: E): event is Extract<E, { kind: SegmentKind }> => 'property' in event;

/** First and last day (epoch days) an event is in force; a shift lasts to the end of time. */
export function eventDays(event: ScenarioEvent): { first: number; last: number } {
  if (event.kind === 'spike') {
    const day = parseIsoDate(event.date)!;
    return { first: day, last: day };
  }
  return { first: parseIsoDate(event.from)!, last: Number.POSITIVE_INFINITY };
}

/** Whether the event is in force on a day. */
export function inForce(event: ScenarioEvent, day: number): boolean {
  const { first, last } = eventDays(event);
  return day >= first && day <= last;
}

/** The factor a segment event applies on a day it is in force: a trend ramps from 1 on `from` to `factor` on `to`. */
export function factorOn(event: SegmentEvent | Extract<SearchEvent, { kind: 'page_drop' }>, day: number): number {
  if (event.kind !== 'trend') return event.factor;
  const from = parseIsoDate(event.from)!;
  const to = parseIsoDate(event.to)!;
  return 1 + (event.factor - 1) * Math.min(1, (day - from + 1) / (to - from + 1));
}

/** Whether a search event happens on an engine. */
export function onEngine(event: SearchEvent, engineName: 'engine1' | 'engine2'): boolean {
  return !('engine' in event) || event.engine === undefined || event.engine === 'all' || event.engine === engineName;
}
