// The fault switches: their shape, defaults, validation (for POST /__sandbox/faults) and env-var parsing.
import { z } from 'zod';
import { applyTargetPatch, targetFaultsSchema, type TargetFaults } from './target-faults.ts';

export const PROVIDERS = ['analytics', 'engine1', 'engine2', 'token'] as const;
export type Provider = (typeof PROVIDERS)[number];

export interface ProviderFaults {
  /** Added to every response of the provider. */
  latencyMs: number;
  /** Uniform extra delay in [0, jitterMs). */
  jitterMs: number;
  /** Probability (0–1) of a 5xx with the provider's body. */
  errorRate: number;
  /** The next N requests get the provider's 429 (counts down). */
  burst429: number;
  /** Requests never answer until the client aborts. */
  hang: boolean;
  /** Probability (0–1) of a 200 whose body is truncated JSON. */
  malformedRate: number;
}

export interface GaQuotaLimits {
  tokensPerDay: number;
  tokensPerHour: number;
  tokensPerProjectPerHour: number;
  concurrentRequests: number;
}

export interface FaultSettings {
  /** Seeds every fault decision, so a test replays the same sequence. */
  seed: number;
  analytics: ProviderFaults;
  engine1: ProviderFaults;
  engine2: ProviderFaults;
  token: ProviderFaults;
  /** Revoked credentials: the token endpoint refuses them, their access tokens stop working, the Bing key is invalid. */
  revoked: { oauth: boolean; serviceAccount: boolean; bingKey: boolean };
  analyticsQuota: GaQuotaLimits;
  /** Switches for one GA property id, Search Console site URL or Bing site URL. */
  targets: Record<string, TargetFaults>;
  /**
   * The OAuth client's consent screen is in "Testing": refresh tokens issued at `refreshTokenIssuedAt` stop
   * working 7 days later (`invalid_grant`), as Google does for unpublished apps. Null: a published app.
   */
  oauthTestingApp: { refreshTokenIssuedAt: string } | null;
}

export type FaultPatch = {
  seed?: number;
  analytics?: Partial<ProviderFaults>;
  engine1?: Partial<ProviderFaults>;
  engine2?: Partial<ProviderFaults>;
  token?: Partial<ProviderFaults>;
  /** Applies to all four providers (then provider-specific keys override). */
  all?: Partial<ProviderFaults>;
  revoked?: Partial<FaultSettings['revoked']>;
  analyticsQuota?: Partial<GaQuotaLimits>;
  targets?: Record<string, z.infer<typeof targetFaultsSchema>>;
  oauthTestingApp?: { refreshTokenIssuedAt: string } | null;
};

export const NO_FAULTS: ProviderFaults = { latencyMs: 0, jitterMs: 0, errorRate: 0, burst429: 0, hang: false, malformedRate: 0 };

export function defaultFaults(): FaultSettings {
  return {
    seed: 1,
    analytics: { ...NO_FAULTS }, engine1: { ...NO_FAULTS }, engine2: { ...NO_FAULTS }, token: { ...NO_FAULTS },
    revoked: { oauth: false, serviceAccount: false, bingKey: false },
    analyticsQuota: { tokensPerDay: 200_000, tokensPerHour: 40_000, tokensPerProjectPerHour: 14_000, concurrentRequests: 10 },
    targets: {},
    oauthTestingApp: null,
  };
}

const providerSchema = z.strictObject({
  latencyMs: z.number().min(0).max(600_000),
  jitterMs: z.number().min(0).max(600_000),
  errorRate: z.number().min(0).max(1),
  burst429: z.number().int().min(0),
  hang: z.boolean(),
  malformedRate: z.number().min(0).max(1),
}).partial();

export const faultPatchSchema = z.strictObject({
  seed: z.number().int(),
  analytics: providerSchema, engine1: providerSchema, engine2: providerSchema, token: providerSchema, all: providerSchema,
  revoked: z.strictObject({ oauth: z.boolean(), serviceAccount: z.boolean(), bingKey: z.boolean() }).partial(),
  analyticsQuota: z.strictObject({
    tokensPerDay: z.number().int().min(0), tokensPerHour: z.number().int().min(0),
    tokensPerProjectPerHour: z.number().int().min(0), concurrentRequests: z.number().int().min(1),
  }).partial(),
  targets: z.record(z.string().min(1), targetFaultsSchema),
  oauthTestingApp: z.strictObject({ refreshTokenIssuedAt: z.iso.datetime({ offset: true }) }).nullable(),
}).partial();

export function applyPatch(current: FaultSettings, patch: FaultPatch): FaultSettings {
  const next = structuredClone(current);
  if (patch.seed !== undefined) next.seed = patch.seed;
  for (const p of PROVIDERS) Object.assign(next[p], patch.all ?? {}, patch[p] ?? {});
  Object.assign(next.revoked, patch.revoked ?? {});
  Object.assign(next.analyticsQuota, patch.analyticsQuota ?? {});
  if (patch.targets) next.targets = applyTargetPatch(next.targets, patch.targets);
  if (patch.oauthTestingApp !== undefined) next.oauthTestingApp = patch.oauthTestingApp;
  return next;
}

const ENV_KEYS: [keyof ProviderFaults, string, 'number' | 'boolean'][] = [
  ['latencyMs', 'LATENCY_MS', 'number'], ['jitterMs', 'JITTER_MS', 'number'], ['errorRate', 'ERROR_RATE', 'number'],
  ['burst429', 'BURST_429', 'number'], ['hang', 'HANG', 'boolean'], ['malformedRate', 'MALFORMED_RATE', 'number'],
];

/**
 * Reads SANDBOX_<SWITCH> (every provider) and SANDBOX_<PROVIDER>_<SWITCH> (one provider), plus
 * SANDBOX_REVOKED (comma list of oauth, service-account, bing-key), SANDBOX_FAULT_SEED and
 * SANDBOX_GA_TOKENS_PER_DAY / _PER_HOUR / _PER_PROJECT_PER_HOUR / SANDBOX_GA_CONCURRENT_REQUESTS.
 */
export function faultsFromEnv(env: NodeJS.ProcessEnv): FaultPatch {
  const patch: FaultPatch = {};
  const read = (name: string, kind: 'number' | 'boolean'): number | boolean | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === '') return undefined;
    if (kind === 'boolean') return ['1', 'true', 'yes', 'on'].includes(raw.toLowerCase());
    const n = Number(raw);
    if (!Number.isFinite(n)) throw new Error(`${name} must be a number, got "${raw}"`);
    return n;
  };
  const section = (prefix: string): Partial<ProviderFaults> | undefined => {
    const out: Record<string, unknown> = {};
    for (const [key, suffix, kind] of ENV_KEYS) {
      const v = read(`${prefix}${suffix}`, kind);
      if (v !== undefined) out[key] = v;
    }
    return Object.keys(out).length ? (out as Partial<ProviderFaults>) : undefined;
  };
  const all = section('SANDBOX_');
  if (all) patch.all = all;
  for (const p of PROVIDERS) {
    const s = section(`SANDBOX_${p.toUpperCase()}_`);
    if (s) patch[p] = s;
  }
  const seed = read('SANDBOX_FAULT_SEED', 'number');
  if (seed !== undefined) patch.seed = Number(seed);
  if (env.SANDBOX_REVOKED) {
    const list = env.SANDBOX_REVOKED.split(',').map((s) => s.trim());
    patch.revoked = { oauth: list.includes('oauth'), serviceAccount: list.includes('service-account'), bingKey: list.includes('bing-key') };
  }
  const quota: Partial<GaQuotaLimits> = {};
  const q = (key: keyof GaQuotaLimits, name: string) => {
    const v = read(name, 'number');
    if (v !== undefined) quota[key] = Number(v);
  };
  q('tokensPerDay', 'SANDBOX_GA_TOKENS_PER_DAY');
  q('tokensPerHour', 'SANDBOX_GA_TOKENS_PER_HOUR');
  q('tokensPerProjectPerHour', 'SANDBOX_GA_TOKENS_PER_PROJECT_PER_HOUR');
  q('concurrentRequests', 'SANDBOX_GA_CONCURRENT_REQUESTS');
  if (Object.keys(quota).length) patch.analyticsQuota = quota;
  return patch;
}
