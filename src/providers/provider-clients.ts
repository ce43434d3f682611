// The entry point the app uses: per-data-source clients, cheap to create per request; auth clients, API
// objects and circuit breakers are created once per credential and shared. Each call goes where its credential
// belongs: credentials the sandbox issued to the sandbox, every other credential to the real provider.
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
import { createGoogleAuthCache, credentialIdentity, parseGoogleCredential } from './google-auth.ts';
import type { GoogleCredential } from './google-auth.ts';
import type { OutcomeHook, ProviderLogger, Resilience, ResilienceOptions } from './resilience.ts';
import { DEFAULT_RESILIENCE, createResilience } from './resilience.ts';

/** The sandbox's own credentials (as it writes them to its credentials dir) and where it answers. */
export interface SandboxRoute {
  endpoints: ProviderEndpoints;
  /** Service-account key JSON, OAuth client JSON (`client_id`, `client_secret`, `refresh_token`), Bing key. */
  credentials: { serviceAccountJson: string; oauthClientJson: string; bingApiKey: string };
}

export interface ProviderClientsOptions {
  /** The real providers (production roots; tests point them at a stand-in). */
  endpoints: ProviderEndpoints;
  /** When set, calls made with the sandbox's credentials go to the sandbox, whatever project makes them. */
  sandbox?: SandboxRoute;
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
  /** Whether a credential is one the sandbox issued (its calls go to the sandbox). */
  isSandboxCredential(credential: GoogleCredentialInput | string, source: 'analytics' | 'engine1' | 'engine2'): boolean;
}

export function createProviderClients(options: ProviderClientsOptions): ProviderClients {
  const resilience = createResilience(options.resilience, {
    logger: options.logger,
    onOutcome: options.onOutcome,
    concurrencyFor: (source) => (source === 'analytics' ? options.analyticsConcurrency : undefined),
  });
  const attemptTimeoutMs = options.resilience?.attemptTimeoutMs ?? DEFAULT_RESILIENCE.attemptTimeoutMs;
  const real = createProviderStack(options.endpoints, resilience, attemptTimeoutMs);
  const sandbox = options.sandbox ? createProviderStack(options.sandbox.endpoints, resilience, attemptTimeoutMs) : undefined;
  const sandboxIdentities = options.sandbox ? identitiesOf(options.sandbox.credentials) : new Set<string>();

  const googleStack = (credential: GoogleCredential) => (sandbox && sandboxIdentities.has(credentialIdentity(credential)) ? sandbox : real);
  const isSandboxCredential: ProviderClients['isSandboxCredential'] = (credential, source) => {
    if (source === 'engine2') return typeof credential === 'string' && sandboxIdentities.has(credentialIdentity({ kind: 'api_key', apiKey: credential }));
    return sandboxIdentities.has(credentialIdentity(parseGoogleCredential(credential, source)));
  };

  return {
    analytics(credential, propertyId) {
      const parsed = parseGoogleCredential(credential, 'analytics');
      return googleStack(parsed).analytics(parsed, propertyId);
    },
    engine1(credential, siteUrl) {
      if (siteUrl === '') throw invalidParameter('siteUrl', 'The engine1 site URL is empty.');
      const parsed = parseGoogleCredential(credential, 'engine1');
      return googleStack(parsed).engine1(parsed, siteUrl);
    },
    engine2(apiKey, siteUrl) {
      if (siteUrl === '') throw invalidParameter('siteUrl', 'The engine2 site URL is empty.');
      return (sandbox && isSandboxCredential(apiKey, 'engine2') ? sandbox : real).engine2(apiKey, siteUrl);
    },
    isSandboxCredential,
  };
}

function identitiesOf(credentials: SandboxRoute['credentials']): Set<string> {
  return new Set([
    credentialIdentity(parseGoogleCredential(credentials.serviceAccountJson, 'analytics')),
    credentialIdentity(parseGoogleCredential(credentials.oauthClientJson, 'analytics')),
    credentialIdentity({ kind: 'api_key', apiKey: credentials.bingApiKey.trim() }),
  ]);
}

interface ProviderStack {
  analytics(credential: GoogleCredential, propertyId: string): AnalyticsClient;
  engine1(credential: GoogleCredential, siteUrl: string): Engine1Client;
  engine2(apiKey: string, siteUrl: string): Engine2Client;
}

/** Clients bound to one set of endpoints: its own token cache and API objects, the shared resilience. */
function createProviderStack(endpoints: ProviderEndpoints, resilience: Resilience, attemptTimeoutMs: number): ProviderStack {
  const auth = createGoogleAuthCache(endpoints, { attemptTimeoutMs });
  // API objects hang off their auth client, so they live exactly as long as its cache entry.
  const analyticsApis = new WeakMap<OAuth2Client, AnalyticsApis>();
  const searchApis = new WeakMap<OAuth2Client, searchconsole_v1.Searchconsole>();
  const isTokenRequest = (url: unknown) => auth.isTokenRequest(url);
  return {
    analytics(credential, propertyId) {
      const session = auth.session(credential, 'analytics');
      let apis = analyticsApis.get(session.auth);
      if (apis === undefined) {
        apis = createAnalyticsApis(session.auth, endpoints);
        analyticsApis.set(session.auth, apis);
      }
      return createAnalyticsClient({ session, apis, endpoints, resilience, isTokenRequest }, propertyId);
    },
    engine1(credential, siteUrl) {
      const session = auth.session(credential, 'engine1');
      let api = searchApis.get(session.auth);
      if (api === undefined) {
        api = createSearchConsoleApi(session.auth, endpoints);
        searchApis.set(session.auth, api);
      }
      return createEngine1Client({ session, api, endpoints, resilience, isTokenRequest }, siteUrl);
    },
    engine2: (apiKey, siteUrl) => createEngine2Client({ endpoints, resilience }, apiKey, siteUrl),
  };
}
