// The entry point the app uses: per-data-source clients, cheap to create per request; auth clients, API
// objects and circuit breakers are created once per credential and shared. Each call goes to whoever issued its
// credential (credential-issuer.ts): the sandbox's to the sandbox, every other credential to the real provider.
import type { searchconsole_v1 } from '@googleapis/searchconsole';
import type { OAuth2Client } from 'google-auth-library';
import { AppError, invalidParameter } from '../errors/app-error.ts';
import { SOURCE_DISPLAY_NAMES, type Source } from '../domain/sources.ts';
import type { ConcurrencyLimiter } from '../limits/concurrency.ts';
import type { AnalyticsApis, AnalyticsClient } from './analytics/client.ts';
import { createAnalyticsApis, createAnalyticsClient } from './analytics/client.ts';
import { createIssuerLookup, type IssuedCredential, type SandboxIssuedCredentials } from './credential-issuer.ts';
import type { Engine1Client } from './engine1/client.ts';
import { createEngine1Client, createSearchConsoleApi } from './engine1/client.ts';
import type { Engine2Client } from './engine2/client.ts';
import { createEngine2Client } from './engine2/client.ts';
import type { ProviderEndpoints } from './endpoints.ts';
import { createGoogleAuthCache, parseGoogleCredential } from './google-auth.ts';
import type { GoogleCredential } from './google-auth.ts';
import type { OutcomeHook, ProviderLogger, Resilience, ResilienceOptions } from './resilience.ts';
import { DEFAULT_RESILIENCE, createResilience } from './resilience.ts';

/** The sandbox's own credentials (as it writes them to its credentials dir) and where it answers. */
export interface SandboxRoute {
  /** Absent when the sandbox is not running: its credentials are then refused here, never sent to a real provider. */
  endpoints?: ProviderEndpoints;
  credentials: SandboxIssuedCredentials;
}

export interface ProviderClientsOptions {
  /** The real providers (production roots; tests point them at a stand-in). */
  endpoints: ProviderEndpoints;
  /** When set, calls made with credentials the sandbox issued go to the sandbox, whatever project makes them. */
  sandbox?: SandboxRoute;
  logger?: ProviderLogger;
  onOutcome?: OutcomeHook;
  /** Caps concurrent analytics requests per property (the provider allows 10), across instances when Redis-backed. */
  analyticsConcurrency?: ConcurrencyLimiter;
  /** Tests shorten timeouts and backoffs; production uses DEFAULT_RESILIENCE (src/providers/resilience.ts). */
  resilience?: Partial<ResilienceOptions>;
}

/** A stored Google credential: service-account key JSON, `{client_id, client_secret, refresh_token}`, or parsed. */
export type GoogleCredentialInput = GoogleCredential | string | Record<string, unknown>;

export interface ProviderClients {
  analytics(credential: GoogleCredentialInput, propertyId: string): AnalyticsClient;
  engine1(credential: GoogleCredentialInput, siteUrl: string): Engine1Client;
  engine2(apiKey: string, siteUrl: string): Engine2Client;
  /** Whether a credential is one the sandbox issued (its calls go to the sandbox, or nowhere when it is off). */
  isSandboxCredential(credential: GoogleCredentialInput | string, source: Source): boolean;
}

export function createProviderClients(options: ProviderClientsOptions): ProviderClients {
  const resilience = createResilience(options.resilience, {
    logger: options.logger,
    onOutcome: options.onOutcome,
    concurrencyFor: (source) => (source === 'analytics' ? options.analyticsConcurrency : undefined),
  });
  const attemptTimeoutMs = options.resilience?.attemptTimeoutMs ?? DEFAULT_RESILIENCE.attemptTimeoutMs;
  const real = createProviderStack(options.endpoints, resilience, attemptTimeoutMs);
  const sandbox = options.sandbox?.endpoints ? createProviderStack(options.sandbox.endpoints, resilience, attemptTimeoutMs) : undefined;
  const issuerOf = createIssuerLookup(options.sandbox?.credentials);

  function stackFor(credential: IssuedCredential, source: Source): ProviderStack {
    if (issuerOf(credential) === 'provider') return real;
    if (sandbox) return sandbox;
    throw new AppError(
      'upstream_credential_invalid',
      `The stored ${SOURCE_DISPLAY_NAMES[source]} credential was issued by the provider sandbox, which is not running (SITELINE_SANDBOX=off); connect a credential of the real provider.`,
      { provider: source },
    );
  }
  const asIssued = (credential: GoogleCredentialInput | string, source: Source): IssuedCredential =>
    source === 'engine2' ? { kind: 'api_key', apiKey: String(credential) } : parseGoogleCredential(credential, source);

  return {
    analytics(credential, propertyId) {
      const parsed = parseGoogleCredential(credential, 'analytics');
      return stackFor(parsed, 'analytics').analytics(parsed, propertyId);
    },
    engine1(credential, siteUrl) {
      if (siteUrl === '') throw invalidParameter('siteUrl', 'The engine1 site URL is empty.');
      const parsed = parseGoogleCredential(credential, 'engine1');
      return stackFor(parsed, 'engine1').engine1(parsed, siteUrl);
    },
    engine2(apiKey, siteUrl) {
      if (siteUrl === '') throw invalidParameter('siteUrl', 'The engine2 site URL is empty.');
      return stackFor({ kind: 'api_key', apiKey }, 'engine2').engine2(apiKey, siteUrl);
    },
    isSandboxCredential: (credential, source) => issuerOf(asIssued(credential, source)) === 'sandbox',
  };
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
