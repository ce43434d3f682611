// The entry point the app uses: per-data-source clients, cheap to create per request; auth clients, API
// objects and circuit breakers are created once per credential and shared.
import type { searchconsole_v1 } from '@googleapis/searchconsole';
import type { OAuth2Client } from 'google-auth-library';
import { invalidParameter } from '../errors/app-error.ts';
import type { ConcurrencyLimiter } from '../limits/concurrency.ts';
import type { AnalyticsApis, AnalyticsClient } from './analytics/client.ts';
import { createAnalyticsApis, createAnalyticsClient } from './analytics/client.ts';
import type { Engine1Client } from './engine1/client.ts';
import { createEngine1Client, createSearchConsoleApi } from './engine1/client.ts';
import type { Engine2Client } from './engine2/client.ts';
import { createEngine2Client } from './engine2/client.ts';
import type { ProviderEndpoints } from './endpoints.ts';
import { createGoogleAuthCache, parseGoogleCredential } from './google-auth.ts';
import type { GoogleCredential } from './google-auth.ts';
import type { OutcomeHook, ProviderLogger, ResilienceOptions } from './resilience.ts';
import { DEFAULT_RESILIENCE, createResilience } from './resilience.ts';

export interface ProviderClientsOptions {
  endpoints: ProviderEndpoints;
  logger?: ProviderLogger;
  onOutcome?: OutcomeHook;
  /** Caps concurrent analytics requests per property (the provider allows 10), across instances when Redis-backed. */
  analyticsConcurrency?: ConcurrencyLimiter;
  /** Tests shorten timeouts and backoffs; production uses SPEC §10's values. */
  resilience?: Partial<ResilienceOptions>;
}

/** A stored Google credential: service-account key JSON, `{client_id, client_secret, refresh_token}`, or parsed. */
export type GoogleCredentialInput = GoogleCredential | string | Record<string, unknown>;

export interface ProviderClients {
  analytics(credential: GoogleCredentialInput, propertyId: string): AnalyticsClient;
  engine1(credential: GoogleCredentialInput, siteUrl: string): Engine1Client;
  engine2(apiKey: string, siteUrl: string): Engine2Client;
}

export function createProviderClients(options: ProviderClientsOptions): ProviderClients {
  const { endpoints } = options;
  const resilience = createResilience(options.resilience, {
    logger: options.logger,
    onOutcome: options.onOutcome,
    concurrencyFor: (source) => (source === 'analytics' ? options.analyticsConcurrency : undefined),
  });
  const attemptTimeoutMs = options.resilience?.attemptTimeoutMs ?? DEFAULT_RESILIENCE.attemptTimeoutMs;
  const auth = createGoogleAuthCache(endpoints, { attemptTimeoutMs });
  // API objects hang off their auth client, so they live exactly as long as its cache entry.
  const analyticsApis = new WeakMap<OAuth2Client, AnalyticsApis>();
  const searchApis = new WeakMap<OAuth2Client, searchconsole_v1.Searchconsole>();
  const isTokenRequest = (url: unknown) => auth.isTokenRequest(url);

  return {
    analytics(credential, propertyId) {
      const session = auth.session(parseGoogleCredential(credential, 'analytics'), 'analytics');
      let apis = analyticsApis.get(session.auth);
      if (apis === undefined) {
        apis = createAnalyticsApis(session.auth, endpoints);
        analyticsApis.set(session.auth, apis);
      }
      return createAnalyticsClient({ session, apis, endpoints, resilience, isTokenRequest }, propertyId);
    },
    engine1(credential, siteUrl) {
      if (siteUrl === '') throw invalidParameter('siteUrl', 'The engine1 site URL is empty.');
      const session = auth.session(parseGoogleCredential(credential, 'engine1'), 'engine1');
      let api = searchApis.get(session.auth);
      if (api === undefined) {
        api = createSearchConsoleApi(session.auth, endpoints);
        searchApis.set(session.auth, api);
      }
      return createEngine1Client({ session, api, endpoints, resilience, isTokenRequest }, siteUrl);
    },
    engine2(apiKey, siteUrl) {
      if (siteUrl === '') throw invalidParameter('siteUrl', 'The engine2 site URL is empty.');
      return createEngine2Client({ endpoints, resilience }, apiKey, siteUrl);
    },
  };
}
