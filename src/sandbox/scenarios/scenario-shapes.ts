// The shape of a planted event (POST /__sandbox/scenarios): four kinds, validated field by field.
import { z } from 'zod';
import { parseIsoDate } from '../data/calendar.ts';

const isoDate = z.string().refine((d) => parseIsoDate(d) !== undefined, 'a date as YYYY-MM-DD');
const factor = z.number().positive().max(100);

const segment = {
  property: z.string().min(1),
  dimension: z.string().min(1),
  value: z.string(),
  factor,
};

export const scenarioEventSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('segment_shift'), ...segment, from: isoDate }).strict(),
  z.object({ kind: z.literal('spike'), ...segment, date: isoDate }).strict(),
  z.object({ kind: z.literal('ranking_loss'), site: z.string().min(1), query: z.string().min(1), from: isoDate, position: z.number().min(1).max(100) }).strict(),
  z.object({ kind: z.literal('cannibalisation'), site: z.string().min(1), query: z.string().min(1), pages: z.array(z.string().min(1)).min(2).max(5), from: isoDate }).strict(),
]);

export type ScenarioEvent = z.infer<typeof scenarioEventSchema>;
export type StoredEvent = ScenarioEvent & { id: string };
export type SegmentEvent = Extract<ScenarioEvent, { kind: 'segment_shift' | 'spike' }>;
export type SearchEvent = Extract<ScenarioEvent, { kind: 'ranking_loss' | 'cannibalisation' }>;

export const postBodySchema = z.object({ events: z.array(scenarioEventSchema).min(1).max(500) }).strict();
