// The sandbox fetch handler: routes on the URL path only (the providers' paths never collide, and in-process
// clients still present the real hosts), counts the call, applies the fault switches, checks auth, answers.
import { ANALYTICS_SCOPES, WEBMASTERS_SCOPES, type TokenClaims } from './auth/access-tokens.ts';
import type { SandboxCredentials } from './auth/credentials.ts';
import { requireBearer } from './auth/require-bearer.ts';
import { handleTokenRequest } from './auth/token-endpoint.ts';
import { findByEngine1Site, findByEngine2Site, siteOrigin, type DemoSite } from './catalogue.ts';
import { spreadHosts } from './control/spread-hosts.ts';
import { handleControl } from './control/control-api.ts';
import type { Provider } from './control/fault-settings.ts';
import { hangUntilAborted, type FaultController } from './control/faults.ts';
import type { GaQuota } from './control/ga-quota.ts';
import type { StatsCounter } from './control/stats.ts';
import { withScenarios, type ScenarioStore } from './scenarios/scenario-store.ts';
import { handleAnalytics, matchAnalytics } from './analytics/handler.ts';
import { handleEngine1, matchEngine1 } from './engine1/handler.ts';
import { bingResponse, handleEngine2, matchEngine2 } from './engine2/handler.ts';
import { googleError, jsonResponse, ProviderError } from './http.ts';
import { malformed, serverError, throttled } from './provider-errors.ts';
import { namedFailure } from './control/named-failures.ts';
import { withTargetSettings } from './control/target-settings.ts';
import { createWebFlow, type WebFlow } from './web-flow-routes.ts';

export interface HandlerDeps {
  catalogue: readonly DemoSite[];
  credentials: SandboxCredentials;
  faults: FaultController;
  stats: StatsCounter;
  scenarios: ScenarioStore;
  quota: GaQuota;
  now: () => Date;
}

interface Route {
  provider: Provider;
  method: string;
  /** Scopes the Bearer token must carry (Google surfaces only). */
  scopes?: readonly string[];
  service?: string;
  legacy?: boolean;
  /** Holds a concurrency slot for the whole request, faults included (GA's 10 concurrent requests). */
  enter?: () => () => void;
  /** The GA property id or site URL the request is about, for per-target fault switches. */
  target?: string;
  run: (claims: TokenClaims | undefined, now: Date) => Promise<Response> | Response;
}

function resolve(request: Request, url: URL, deps: HandlerDeps, web: WebFlow): Route | undefined {
  const path = url.pathname;
  const webRoute = web.resolve(request, url);
  if (webRoute) return webRoute;
  const catalogue = withScenarios(withTargetSettings(deps.catalogue, deps.faults.settings().targets), deps.scenarios);
  const ga = matchAnalytics(request.method, path);
  if (ga) {
    const counted = /^\d+$/.test(ga.propertyId) && ga.propertyId !== '0';
    return {
      provider: 'analytics', method: ga.method, scopes: ANALYTICS_SCOPES, service: 'analyticsdata.googleapis.com', target: ga.propertyId,
      enter: counted ? () => deps.quota.enter(ga.propertyId) : undefined,
      run: (claims, now) => handleAnalytics(request, ga, { catalogue, quota: deps.quota, now, project: claims?.sub ?? 'anonymous' }),
    };
  }
  const gsc = matchEngine1(request.method, path);
  if (gsc) {
    return {
      provider: 'engine1', method: gsc.method, scopes: WEBMASTERS_SCOPES, service: 'searchconsole.googleapis.com', legacy: path.startsWith('/webmasters/'), target: gsc.siteUrl,
      run: (_claims, now) => handleEngine1(request, gsc, catalogue, now),
    };
  }
  const bing = matchEngine2(path);
  if (bing && request.method === 'GET') {
    return {
      provider: 'engine2', method: bing, target: url.searchParams.get('siteUrl') ?? undefined,
      run: (_claims, now) => handleEngine2(url, bing, catalogue, deps.credentials.bingApiKey, deps.faults.settings().revoked.bingKey, now),
    };
  }
  if (path === '/token') {
    return {
      provider: 'token', method: 'token',
      run: async (_claims, now) => (await web.token(request, now)) ?? handleTokenRequest(request, deps.credentials, deps.faults.settings().revoked, now, deps.faults.settings().oauthTestingApp),
    };
  }
  return undefined;
}


/** Search pages of a target with the `hosts` switch are spread over those hosts (www/apex, another Bing host). */
function spreadTargetHosts(route: Route, catalogue: readonly DemoSite[], response: Response, deps: HandlerDeps): Promise<Response> | Response {
  const hosts = route.target === undefined ? undefined : deps.faults.settings().targets[route.target]?.hosts;
  if (!hosts || route.target === undefined || (route.provider !== 'engine1' && route.provider !== 'engine2')) return response;
  const site = route.provider === 'engine1' ? findByEngine1Site(catalogue, route.target) : findByEngine2Site(catalogue, route.target);
  return site ? spreadHosts(response, siteOrigin(site), hosts, route.provider === 'engine2') : response;
}

function render(provider: Provider, error: ProviderError): Response {
  if (provider === 'engine2') return bingResponse(error.body, error.status);
  return jsonResponse(error.body, error.status, error.headers);
}

export function createRequestHandler(deps: HandlerDeps): (request: Request) => Promise<Response> {
  const web = createWebFlow({ catalogue: deps.catalogue, credentials: deps.credentials, revoked: () => deps.faults.settings().revoked });
  return async (request) => {
    const url = new URL(request.url);
    if (url.pathname.startsWith('/__sandbox/')) return handleControl(request, url.pathname, deps);
    if (url.pathname === '/' && request.method === 'GET') return jsonResponse(index());
    // An unknown or malformed provider path is answered like the provider's 404, not as a sandbox bug.
    let route: Route | undefined;
    try {
      route = resolve(request, url, deps, web);
    } catch (error) {
      if (error instanceof ProviderError) return jsonResponse(error.body, error.status, error.headers);
      throw error;
    }
    if (!route) return jsonResponse(googleError(404, `The requested URL ${url.pathname} was not found on this server.`).body, 404);
    deps.stats.count(route.provider, route.method);
    let release: (() => void) | undefined;
    try {
      release = route.enter?.();
      const gaProperty = route.provider === 'analytics' && route.enter ? route.target : undefined;
      if (gaProperty) deps.quota.assertServerErrorsAvailable(gaProperty, deps.now());
      const decision = await deps.faults.decide(route.provider, request.signal, route.target);
      if (decision.kind === 'hang') await hangUntilAborted(request.signal);
      if (decision.kind === 'throttle') throw throttled(route.provider);
      if (decision.kind === 'error') {
        if (gaProperty) deps.quota.recordServerError(gaProperty, deps.now());
        throw serverError(route.provider);
      }
      const now = deps.now();
      if (route.scopes) web.assertNotRevoked(request, now);
      const claims = route.scopes
        ? requireBearer(request, url, { creds: deps.credentials, revoked: deps.faults.settings().revoked, now, scopes: route.scopes, service: route.service!, legacy: route.legacy === true })
        : undefined;
      const named = route.target === undefined ? undefined : deps.faults.settings().targets[route.target]?.failure;
      const refused = named ? namedFailure(route.provider, named, route.target!, request.headers.get('x-goog-user-project')) : undefined;
      if (refused) throw refused;
      const response = await spreadTargetHosts(route, deps.catalogue, await route.run(claims, now), deps);
      return decision.kind === 'none' && decision.malformed ? await malformed(response) : response;
    } catch (error) {
      if (error instanceof ProviderError) return render(route.provider, error);
      if (request.signal.aborted) throw error;
      // An unexpected bug: answer like the provider's internal error so clients exercise their 5xx path.
      console.error('sandbox: unexpected error', error);
      return render(route.provider, serverError(route.provider));
    } finally {
      release?.();
    }
  };
}

function index(): unknown {
  return {
    name: 'Siteline sandbox',
    endpoints: {
      analytics: ['POST /v1beta/properties/{id}:runReport|batchRunReports|runPivotReport|batchRunPivotReports|runRealtimeReport|checkCompatibility', 'GET /v1beta/properties/{id}/metadata', 'POST /v1alpha/properties/{id}:runFunnelReport'],
      engine1: ['POST /webmasters/v3/sites/{siteUrl}/searchAnalytics/query', 'GET /webmasters/v3/sites', 'GET /webmasters/v3/sites/{siteUrl}/sitemaps', 'POST /v1/urlInspection/index:inspect'],
      engine2: ['GET /webmaster/api.svc/json/{Method}?apikey=&siteUrl='],
      token: ['POST /token', 'GET|POST /o/oauth2/v2/auth', 'POST /revoke'],
      analyticsAdmin: ['GET /v1beta/accountSummaries'],
      control: ['GET|POST|DELETE /__sandbox/faults', 'GET|POST|DELETE /__sandbox/scenarios', 'GET /__sandbox/stats', 'POST /__sandbox/stats/reset', 'GET /__sandbox/catalogue'],
    },
  };
}
