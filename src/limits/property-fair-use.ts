// Fair use of one data source's provider quota (a GA property's hourly/daily tokens) between the callers reading
// it, shared by every instance through Redis. Two mechanisms: a per-caller token bucket per data source (a share
// of the property's hourly tokens weighted by the kind of caller, so one agent cannot spend a property for
// everyone), and a degradation order driven by what the provider last said was left of the property's quota.
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from '../errors/app-error.ts';
import type { LimitState } from './limiter.ts';
import { rateLimitedError, toRateLimitHeaders } from './rate-limit-headers.ts';

/**
 * Work that would reach the provider: `load` (nothing cached to answer with), `reload` (only a stale copy is
 * cached), `refresh` (a background stale-while-revalidate refresh), `force` (a caller's `force=1`).
 */
export type UpstreamWork = 'load' | 'reload' | 'refresh' | 'force';

/** Interactive callers (API keys: dashboards, scripts) weigh more than agents (OAuth: MCP clients). */
export type CallerKind = 'api_key' | 'oauth';

export interface Caller {
  id: string;
  kind: CallerKind;
}

/**
 * The degradation order, from the share of the property's tightest bucket (hour or day) that is left:
 * `normal` ≥ 50 %; `conserve` < 50 %: stale copies are served with a warning instead of being refreshed;
 * `essential` < 25 %: `force=1` is refused too; `throttle` < 10 %: agents get no upstream work at all (429 with
 * Retry-After), interactive callers only within their share.
 */
export type PressureLevel = 'normal' | 'conserve' | 'essential' | 'throttle';

export interface QuotaObservation {
  tokensPerHour?: number;
  tokensPerDay?: number;
  /** What this deployment's Cloud project may still spend on the property this hour: the bucket one deployment meets first. */
  tokensPerProjectPerHour?: number;
}

export interface PropertyPressure {
  level: PressureLevel;
  /** Share (0–1) left of the tightest bucket; 1 when the provider never said. */
  left: number;
  observed?: QuotaObservation & { at: number };
}

export interface FairUseConfig {
  /** The property's hourly token quota (GA standard: 40,000; Analytics 360: 400,000). */
  tokensPerHour: number;
  tokensPerDay: number;
  /** GA standard: 14,000 (Analytics 360: 140,000). */
  tokensPerProjectPerHour: number;
  /** Share of the hourly tokens (the smaller of the property's and the project's) one caller of a kind may spend per data source per hour. */
  shareOf: Record<CallerKind, number>;
  /** Token cost charged per upstream report, before the call (GA's cost for a report of < 120 days, < 3 dimensions, < 10,000 rows). */
  tokensPerReport: number;
}

export const DEFAULT_FAIR_USE: FairUseConfig = {
  tokensPerHour: 40_000,
  tokensPerDay: 200_000,
  tokensPerProjectPerHour: 14_000,
  shareOf: { api_key: 0.5, oauth: 0.25 },
  tokensPerReport: 1,
};

export interface PropertyFairUse {
  readonly config: FairUseConfig;
  /** Records what the provider said is left of a data source's quota (GA's propertyQuota remaining counts). */
  observe(source: string, quota: QuotaObservation): Promise<void>;
  pressure(source: string): Promise<PropertyPressure>;
  /** Undefined when the work may go upstream (and its tokens are charged to the caller), else the 429 to answer. */
  admit(source: string, caller: Caller, work: UpstreamWork): Promise<AppError | undefined>;
  /** The last observation of every data source this instance saw, with its predicted exhaustion (the operator's gauges). */
  observed(): ReadonlyMap<string, ObservedQuota>;
}

export interface ObservedQuota extends QuotaObservation {
  at: number;
  /**
   * Seconds until the hourly tokens run out at the rate spent between the last two observations of the same hour;
   * absent when nothing was spent (or only one observation exists).
   */
  exhaustsInSec?: number;
}

export interface FairUseOptions {
  redis?: Redis;
  prefix?: string;
  config?: Partial<FairUseConfig>;
  now?: () => number;
}

const HOUR_SEC = 3600;

export function createPropertyFairUse(options: FairUseOptions = {}): PropertyFairUse {
  const config = { ...DEFAULT_FAIR_USE, ...options.config };
  const prefix = options.prefix ?? 'siteline:fair:';
  const now = options.now ?? Date.now;
  const { redis } = options;
  const local = new Map<string, ObservedQuota>();
  const buckets = new Map<CallerKind, RateLimiterAbstract>();

  const bucketOf = (kind: CallerKind): RateLimiterAbstract => {
    let bucket = buckets.get(kind);
    if (bucket === undefined) {
      const base = { keyPrefix: `${prefix}share:${kind}`, points: pointsOf(config, kind), duration: HOUR_SEC };
      bucket = redis === undefined
        ? new RateLimiterMemory(base)
        : new RateLimiterRedis({ ...base, storeClient: redis, rejectIfRedisNotReady: true, insuranceLimiter: new RateLimiterMemory(base) });
      buckets.set(kind, bucket);
    }
    return bucket;
  };

  const read = async (source: string): Promise<(QuotaObservation & { at: number }) | undefined> => {
    if (redis === undefined) return local.get(source);
    try {
      const raw = await redis.get(`${prefix}quota:${source}`);
      return raw === null ? local.get(source) : (JSON.parse(raw) as QuotaObservation & { at: number });
    } catch {
      return local.get(source);
    }
  };

  const pressure = async (source: string): Promise<PropertyPressure> => {
    const observed = await read(source);
    const left = leftShare(config, observed);
    return { level: levelOf(left), left, ...(observed === undefined ? {} : { observed }) };
  };

  return {
    config,
    async observe(source, quota) {
      if (quota.tokensPerHour === undefined && quota.tokensPerDay === undefined && quota.tokensPerProjectPerHour === undefined) return;
      const entry = { ...quota, at: now() };
      local.set(source, withPrediction(entry, local.get(source)));
      if (redis === undefined) return;
      // Losing an observation while Redis is away only delays degradation; the bucket still guards.
      await redis.set(`${prefix}quota:${source}`, JSON.stringify(entry), 'EX', HOUR_SEC).catch(() => undefined);
    },
    pressure,
    async admit(source, caller, work) {
      const { level } = await pressure(source);
      const refused = refusalOf(level, caller, work, config, now());
      if (refused !== undefined) return refused;
      return chargeShare(bucketOf(caller.kind), config, caller, source);
    },
    observed: () => local,
  };
}

function withPrediction(current: QuotaObservation & { at: number }, previous: ObservedQuota | undefined): ObservedQuota {
  const sameHour = previous !== undefined && Math.floor(previous.at / 3_600_000) === Math.floor(current.at / 3_600_000);
  const before = sameHour ? hourlyLeft(previous) : undefined;
  const now = hourlyLeft(current);
  if (before === undefined || now === undefined) return current;
  const spent = before - now;
  const seconds = (current.at - previous!.at) / 1000;
  if (spent <= 0 || seconds <= 0) return { ...current, ...(previous!.exhaustsInSec === undefined ? {} : { exhaustsInSec: previous!.exhaustsInSec }) };
  return { ...current, exhaustsInSec: Math.round(now / (spent / seconds)) };
}

/** The tighter of the two hourly buckets. */
function hourlyLeft(q: QuotaObservation): number | undefined {
  if (q.tokensPerHour === undefined) return q.tokensPerProjectPerHour;
  return q.tokensPerProjectPerHour === undefined ? q.tokensPerHour : Math.min(q.tokensPerHour, q.tokensPerProjectPerHour);
}

function pointsOf(config: FairUseConfig, kind: CallerKind): number {
  return Math.max(1, Math.floor(Math.min(config.tokensPerHour, config.tokensPerProjectPerHour) * config.shareOf[kind]));
}

function leftShare(config: FairUseConfig, observed: QuotaObservation | undefined): number {
  if (observed === undefined) return 1;
  const hour = observed.tokensPerHour === undefined ? 1 : observed.tokensPerHour / config.tokensPerHour;
  const day = observed.tokensPerDay === undefined ? 1 : observed.tokensPerDay / config.tokensPerDay;
  const project = observed.tokensPerProjectPerHour === undefined ? 1 : observed.tokensPerProjectPerHour / config.tokensPerProjectPerHour;
  return Math.max(0, Math.min(1, hour, day, project));
}

export function levelOf(left: number): PressureLevel {
  if (left < 0.1) return 'throttle';
  if (left < 0.25) return 'essential';
  if (left < 0.5) return 'conserve';
  return 'normal';
}

/** The degradation order as one rule: which work each level refuses before any token is charged. */
function refusalOf(level: PressureLevel, caller: Caller, work: UpstreamWork, config: FairUseConfig, at: number): AppError | undefined {
  if (level === 'normal') return undefined;
  const lowPriority = work === 'refresh' || work === 'reload' || (work === 'force' && level !== 'conserve');
  const agentCut = level === 'throttle' && caller.kind === 'oauth';
  if (!lowPriority && !agentCut) return undefined;
  // Quota returns within the hour; a caller told to wait for the next hour's tokens retries once, not in a loop.
  const state: LimitState = { policy: { name: 'property', points: config.tokensPerHour, windowSec: HOUR_SEC }, allowed: false, remaining: 0, resetMs: msToNextHour(at) };
  const retryAfter = String(Math.max(1, Math.ceil(state.resetMs / 1000)));
  return new AppError(
    'rate_limited',
    `The data source's provider quota is low (${level}): ${work === 'force' ? 'force=1 is' : 'new provider reports for this caller are'} paused until its hourly tokens return. Retry after ${retryAfter} s.`,
    { headers: { ...toRateLimitHeaders([state]), 'Retry-After': retryAfter } },
  );
}

async function chargeShare(bucket: RateLimiterAbstract, config: FairUseConfig, caller: Caller, source: string): Promise<AppError | undefined> {
  const points = pointsOf(config, caller.kind);
  const policy = { name: 'property-share', points, windowSec: HOUR_SEC };
  try {
    await bucket.consume(`${source}:${caller.id}`, config.tokensPerReport);
    return undefined;
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    const state: LimitState = { policy, allowed: false, remaining: Math.max(0, points - rejection.consumedPoints), resetMs: rejection.msBeforeNext };
    return rateLimitedError(state, [state], `provider report tokens of this data source for one caller`);
  }
}

function msToNextHour(at: number): number {
  const ms = HOUR_SEC * 1000;
  return ms - (at % ms);
}
