// Subscriptions of a project: a periodic report or an alert rule, delivered to confirmed email recipients and/or
// webhooks. Pure: validating what a form or API sent, and when each report falls due in the project's time zone.
import { invalidParameter, type FieldError } from '../errors/app-error.ts';
import { addDays, startOfIsoWeek, startOfMonth, type IsoDate } from './calendar.ts';
import { isTimeZone, localTimeAt, startOfDayInZone } from './time-zone.ts';

export const SUBSCRIPTION_KINDS = ['report', 'alert'] as const;
export type SubscriptionKind = (typeof SUBSCRIPTION_KINDS)[number];

export const CADENCES = ['daily', 'weekly', 'monthly'] as const;
export type Cadence = (typeof CADENCES)[number];

/** The metrics an alert may watch: the analytics and search totals every project has. */
export const ALERT_METRICS = ['sessions', 'users', 'key_events', 'page_views', 'search_clicks', 'search_impressions'] as const;
export type AlertMetric = (typeof ALERT_METRICS)[number];

/** `anomaly`: the anomaly detector flags a day; `change`: the metric moved by more than the threshold. */
export const ALERT_CONDITIONS = ['anomaly', 'change'] as const;
export type AlertCondition = (typeof ALERT_CONDITIONS)[number];

export const ALERT_BASELINES = ['previous_period', 'previous_year'] as const;
export type AlertBaseline = (typeof ALERT_BASELINES)[number];

export const WEBHOOK_FORMATS = ['json', 'slack'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

export const MAX_SUBSCRIPTION_NAME_LENGTH = 100;
/** A change alert's threshold in percent: above 0, and at most a hundredfold change. */
export const MAX_THRESHOLD_PERCENT = 10_000;

export interface ReportSchedule {
  cadence: Cadence;
  /** Local hour of the project's time zone, 0–23. */
  hour: number;
}

export type AlertRule =
  | { metric: AlertMetric; condition: 'anomaly' }
  | { metric: AlertMetric; condition: 'change'; thresholdPercent: number; baseline: AlertBaseline };

export type SubscriptionSpec = { kind: 'report'; name: string; schedule: ReportSchedule } | { kind: 'alert'; name: string; rule: AlertRule };

/** What a form or API sends: every field a string or absent, as received. */
export interface SubscriptionFields {
  kind?: string | undefined;
  name?: string | undefined;
  cadence?: string | undefined;
  hour?: string | undefined;
  metric?: string | undefined;
  condition?: string | undefined;
  threshold_percent?: string | undefined;
  baseline?: string | undefined;
}

function oneOf<T extends string>(errors: FieldError[], param: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value !== undefined && (allowed as readonly string[]).includes(value)) return value as T;
  errors.push({ param, code: 'invalid_value', message: `'${param}' must be one of ${allowed.join(', ')}; got '${value ?? ''}'.` });
  return undefined;
}

function wholeNumber(errors: FieldError[], param: string, value: string | undefined, min: number, max: number): number | undefined {
  const n = value !== undefined && /^\d{1,5}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (Number.isInteger(n) && n >= min && n <= max) return n;
  errors.push({ param, code: 'invalid_value', message: `'${param}' must be a whole number from ${min} to ${max}; got '${value ?? ''}'.` });
  return undefined;
}

/** Every problem at once, each naming its parameter; the first names the problem JSON. */
export function parseSubscription(fields: SubscriptionFields): SubscriptionSpec {
  const errors: FieldError[] = [];
  const name = (fields.name ?? '').trim();
  if (!name || name.length > MAX_SUBSCRIPTION_NAME_LENGTH) {
    errors.push({ param: 'name', code: 'invalid_value', message: `The name must be 1–${MAX_SUBSCRIPTION_NAME_LENGTH} characters.` });
  }
  const kind = oneOf(errors, 'kind', fields.kind, SUBSCRIPTION_KINDS);
  let spec: SubscriptionSpec | undefined;
  if (kind === 'report') {
    const cadence = oneOf(errors, 'cadence', fields.cadence, CADENCES);
    const hour = wholeNumber(errors, 'hour', fields.hour, 0, 23);
    if (cadence && hour !== undefined) spec = { kind, name, schedule: { cadence, hour } };
  } else if (kind === 'alert') {
    const metric = oneOf(errors, 'metric', fields.metric, ALERT_METRICS);
    const condition = oneOf(errors, 'condition', fields.condition, ALERT_CONDITIONS);
    if (condition === 'change') {
      const thresholdPercent = wholeNumber(errors, 'threshold_percent', fields.threshold_percent, 1, MAX_THRESHOLD_PERCENT);
      const baseline = oneOf(errors, 'baseline', fields.baseline, ALERT_BASELINES);
      if (metric && thresholdPercent !== undefined && baseline) spec = { kind, name, rule: { metric, condition, thresholdPercent, baseline } };
    } else if (metric && condition) {
      spec = { kind, name, rule: { metric, condition } };
    }
  }
  if (errors.length > 0 || !spec) throw invalidParameter(errors[0]?.param ?? 'kind', errors.map((e) => e.message).join(' '), errors);
  return spec;
}

/** True when a change alert fires: the relative change exceeds the threshold (a rise from zero always does). */
export function changeExceeds(current: number, previous: number, thresholdPercent: number): boolean {
  if (previous === 0) return current !== 0;
  return (Math.abs(current - previous) / Math.abs(previous)) * 100 > thresholdPercent;
}

/** One report occasion: the period it names (the idempotency key's second half) and when it falls due. */
export interface ReportOccasion {
  /** The local send day `2026-11-26` (daily), the week's Monday `2026-11-23` (weekly), the month `2026-11` (monthly). */
  periodKey: string;
  dueAt: number;
}

function sendDay(cadence: Cadence, localDate: IsoDate): IsoDate {
  if (cadence === 'daily') return localDate;
  if (cadence === 'weekly') return startOfIsoWeek(localDate);
  return startOfMonth(localDate);
}

function previousSendDay(cadence: Cadence, day: IsoDate): IsoDate {
  if (cadence === 'daily') return addDays(day, -1);
  if (cadence === 'weekly') return addDays(day, -7);
  return startOfMonth(addDays(day, -1));
}

function occasionOn(schedule: ReportSchedule, day: IsoDate, timeZone: string): ReportOccasion {
  // Hours are counted from local midnight, so on a day the clocks change the report may move by that hour.
  const dueAt = startOfDayInZone(day, timeZone) + schedule.hour * 3_600_000;
  const periodKey = schedule.cadence === 'monthly' ? day.slice(0, 7) : day;
  return { periodKey, dueAt };
}

/**
 * The latest occasion due at or before `now`: daily reports on every day, weekly ones on Mondays, monthly ones on
 * the first, each at the schedule's hour in the project's zone. Running this twice in one period gives the same key.
 */
export function latestDueOccasion(schedule: ReportSchedule, timeZone: string, now: number): ReportOccasion {
  if (!isTimeZone(timeZone)) throw invalidParameter('timezone', `'${timeZone}' is not a time zone.`);
  const today = sendDay(schedule.cadence, localTimeAt(now, timeZone).date);
  const current = occasionOn(schedule, today, timeZone);
  return current.dueAt <= now ? current : occasionOn(schedule, previousSendDay(schedule.cadence, today), timeZone);
}
