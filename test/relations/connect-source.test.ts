// Connecting a source through the dashboard gives the seeded project's numbers: in the demo's own shape (the
// sandbox listening on a port beside the app, the real providers offline), a new project on acme-shop's domain and
// time zone is connected with the dashboard's forms over HTTP in-process — Connect Google through the sandbox's
// consent page, the GA4 property and Search Console site picked, a Bing key pasted — and then, for random
// requests, the API answers the new project exactly as it answers the seeded acme-shop on the same property.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessEndpoints } from '../../src/providers/endpoints.ts';
import { webClient } from '../dashboard/web-client.ts';
import { createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';
import { breakdownRequest, searchSummaryRequest, searchTimeseriesRequest, summaryRequest, timeseriesRequest } from './support/arbitraries.ts';
import { firstDifference, withoutVolatile } from './support/bodies.ts';
import { check, holds, RELATION_TIMEOUT, seedLine } from './support/property.ts';
import { ApiRequest, labelled } from './support/request.ts';
import { RELATION_LIMITS, type World } from './support/world.ts';

const SEEDED = 'acme-shop';
const CONNECTED = 'connected-shop';
const RELATION = 'a source connected through the dashboard reads the same numbers as the seeded project on the same property';

/** The real Google and Bing, offline: they know none of the sandbox's credentials. Every call is counted. */
function realProvidersOffline() {
  const calls: string[] = [];
  const refuse = (body: unknown, status = 401) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const handler = async (request: Request) => {
    const url = new URL(request.url);
    calls.push(`${request.method} ${url.pathname}`);
    if (url.pathname.endsWith('/token')) return refuse({ error: 'invalid_client', error_description: 'The OAuth client was not found.' });
    if (url.pathname.includes('/webmaster/')) return refuse({ ErrorCode: 3, Message: 'ERROR!!! InvalidApiKey' }, 400);
    return refuse({ error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } });
  };
  return { calls, handler };
}

let rt: TestRuntime;
let real: ReturnType<typeof realProvidersOffline>;
let key: string;
let connectError: Error | undefined;

beforeAll(async () => {
  console.info(seedLine());
  real = realProvidersOffline();
  // Relation limits: two requests per case, as fast as they come; the 60-per-second burst is not what this checks.
  rt = await createTestRuntime({ env: { SITELINE_SANDBOX: 'auto', SANDBOX_PORT: '0' }, skipDemo: false, endpoints: inProcessEndpoints(real.handler), shared: RELATION_LIMITS });
  key = rt.demo!.seeded.apiKey;
  // A failed connection is this file's finding, reported by the relation below with the step that failed.
  connectError = await connectThroughDashboard(rt).then(
    () => undefined,
    (error: unknown) => error as Error,
  );
}, 120_000);
afterAll(() => rt?.dispose());

/** The dashboard's forms, in order, as a browser would send them. */
async function connectThroughDashboard(runtime: TestRuntime): Promise<void> {
  const password = runtime.demo!.seeded.password;
  if (!password.known) throw new Error('the runtime seeded the demo itself, so its password is known');
  const web = webClient(runtime);
  const step = async (what: string, sent: Promise<{ status: number; location: string | null; html: string }>, expected: RegExp) => {
    const res = await sent;
    if (!expected.test(res.location ?? '')) throw new Error(`dashboard step "${what}" answered ${res.status} → ${res.location}: ${res.html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').slice(0, 300)}`);
    return res.location!;
  };
  await web.get('/account/sign-in');
  await step('sign in', web.post('/account/sign-in', { email: 'demo@siteline.example', password: password.password, return_to: '/dashboard' }), /^\/dashboard$/);
  await web.get('/dashboard/projects/new');
  await step('create project', web.post('/dashboard/projects', { name: 'Connected Shop', key: CONNECTED, domain: 'www.acme-shop.example', timezone: 'Europe/Berlin', currency: 'EUR' }), /\/sources\?done=created$/);
  await web.get(`/dashboard/p/${CONNECTED}/sources`);
  const consentUrl = await step('Connect Google', web.post(`/dashboard/p/${CONNECTED}/connect/google`, {}), /\/o\/oauth2\/v2\/auth\?/);
  const callback = await consent(consentUrl);
  const picker = await step('Google callback', web.get(callback), /^\/dashboard\/connect\/google\//);
  const page = await web.get(picker);
  const checked = (name: string) => new RegExp(`name="${name}" value="([^"]+)"[^>]*checked`).exec(page.html)?.[1];
  expect({ property: checked('property_id'), site: checked('site_url') }, 'the picker preselects acme-shop').toEqual({ property: '314159265', site: 'https://www.acme-shop.example/' });
  await step('pick property and site', web.post(picker, { decision: 'save', property_id: '314159265', site_url: 'https://www.acme-shop.example/' }), /\/sources\?done=google$/);
  await web.get(`/dashboard/p/${CONNECTED}/sources`);
  const bingKey = runtime.demo!.credentials.bingApiKey;
  await step('Connect Bing', web.post(`/dashboard/p/${CONNECTED}/connect/engine2`, { api_key: bingKey, site_url: 'https://www.acme-shop.example/' }), /\/sources\?done=engine2$/);
}

/** Plays the browser on the sandbox's consent page: Allow, and follow it back to Siteline's callback path. */
async function consent(url: string): Promise<string> {
  const page = await (await fetch(url)).text();
  const form = new URLSearchParams([...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))]));
  form.set('decision', 'allow');
  const answer = await fetch(new URL('/o/oauth2/v2/auth', url), { method: 'POST', body: form, redirect: 'manual' });
  const back = new URL(answer.headers.get('location') ?? 'about:blank');
  if (answer.status !== 302 || !back.pathname.endsWith('/dashboard/connect/google/callback')) throw new Error(`the consent page answered ${answer.status} → ${back}`);
  return `${back.pathname}${back.search}`;
}

async function read(path: string): Promise<{ status: number; body: any }> {
  const res = await rt.request(path, { key });
  return { status: res.status, body: await res.json() };
}

/** What the arbitraries need of a world: the seeded project's today, engines and some filter values. */
async function drawingWorld(): Promise<World> {
  const { today } = (await read(`/api/v1/projects/${SEEDED}`)).body.project as { today: string };
  const values = async (dimension: string) => ((await read(`/api/v1/metrics/${SEEDED}/dimension?dimension=${dimension}&metrics=sessions&period=90days&limit=6`)).body.rows as Record<string, string>[]).map((r) => r[dimension]!);
  const vocabulary = { deviceCategory: await values('deviceCategory'), country: await values('country'), sessionDefaultChannelGroup: await values('sessionDefaultChannelGroup') };
  return { today: { [SEEDED]: today }, engines: { [SEEDED]: ['engine1', 'engine2'] }, calendarPeriods: false, vocabulary: { [SEEDED]: vocabulary } } as Partial<World> as World;
}

describe(RELATION, { timeout: RELATION_TIMEOUT }, () => {
  it('summary, timeseries, breakdown, search summary and search timeseries of the connected project equal acme-shop’s', async () => {
    if (connectError) throw new Error(`${RELATION}: connecting through the dashboard failed: ${connectError.message}`);
    const w = await drawingWorld();
    // This sandbox runs on the real clock: a period touching today would grow by the minute between the two reads.
    const settled = (request: ApiRequest) => request.params.period !== 'today' && !(request.params.period ?? '').endsWith(`_${w.today[SEEDED]}`);
    const cases = fc
      .oneof(summaryRequest(w), timeseriesRequest(w), breakdownRequest(w), searchSummaryRequest(w), searchTimeseriesRequest(w))
      .filter(settled)
      .map((request) => {
        const connected = new ApiRequest(request.route, CONNECTED, request.params);
        return labelled({ request, connected }, `${connected} vs project ${SEEDED}`);
      });
    await holds(cases, async ({ request, connected }) => {
      const c = check(RELATION, connected, 'REST');
      const [mine, theirs] = [await read(connected.path), await read(request.path)];
      c.that(
        `status ${mine.status}, as ${request} answers ${theirs.status}`,
        mine.status === 200 && theirs.status === 200,
        `${JSON.stringify(mine.body).slice(0, 400)}; calls that went to the real providers (offline here): ${JSON.stringify([...new Set(real.calls)])}`,
      );
      const found = firstDifference({ ...withoutVolatile(mine.body), project: SEEDED }, withoutVolatile(theirs.body));
      c.that(`the same answer as ${request}`, found === undefined, found);
    }, 30);
    const sources = (await read(`/api/v1/projects/${CONNECTED}`)).body.project.dataSources as Record<string, { status: string }>;
    expect(Object.fromEntries(Object.entries(sources).map(([k, v]) => [k, v.status])), 'the connected sources after reading them').toEqual({ analytics: 'ok', engine1: 'ok', engine2: 'ok' });
    expect([...new Set(real.calls)], 'calls made to the real providers with credentials the sandbox issued').toEqual([]);
  });
});
