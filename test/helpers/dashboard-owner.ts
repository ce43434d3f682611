// The dashboard's owner path over HTTP, in-process (no browser): sign in, create a project, Connect Google through
// the sandbox's consent page (the app in-process, the sandbox over its port, as a browser would go), pick the
// property and site, and connect Bing with a key. For tests that need a project connected the way an owner connects
// one, then read it through the API.
import { expect } from 'vitest';
import { webClient, type WebClient } from '../dashboard/web-client.ts';
import type { DemoServer } from './demo-server.ts';

/** A browser stand-in at one of the demo server's origins (`localhost` or `127.0.0.1`), signed in as `email`. */
export async function signedInClient(demo: DemoServer, origin: string, email: string, password: string): Promise<WebClient> {
  const client = webClient({ request: async (path, init) => demo.rt.app.request(`${origin}${path}`, init) }, origin);
  await client.get('/account/sign-in');
  const res = await client.post('/account/sign-in', { email, password, return_to: '/dashboard' });
  expect(res.location, 'sign-in').toBe('/dashboard');
  return client;
}

export async function createProjectThroughDashboard(client: WebClient, project: { key: string; name: string; domain: string; timezone: string; currency: string }): Promise<void> {
  await client.get('/dashboard/projects/new');
  const res = await client.post('/dashboard/projects', project);
  expect(res.location, 'project created').toBe(`/dashboard/p/${project.key}/sources?done=created`);
}

/** The form on the sandbox's consent page, submitted with Allow: where the sandbox sends the browser back. */
async function allowOnConsentPage(consentUrl: string): Promise<string> {
  const page = await fetch(consentUrl);
  expect(page.status, 'consent page').toBe(200);
  const html = await page.text();
  const unescape = (value: string) => value.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
  const form = new URLSearchParams([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, unescape(m[2]!)]));
  form.set('decision', 'allow');
  const answer = await fetch(new URL('/o/oauth2/v2/auth', consentUrl), { method: 'POST', body: form, redirect: 'manual' });
  expect(answer.status, 'consent answer').toBe(302);
  return answer.headers.get('location')!;
}

/** Connect Google → consent → picker → Connect; returns where the dashboard sent the browser at the end. */
export async function connectGoogleThroughDashboard(client: WebClient, projectKey: string, choice: { propertyId: string; siteUrl: string }): Promise<string> {
  await client.get(`/dashboard/p/${projectKey}/sources`);
  const started = await client.post(`/dashboard/p/${projectKey}/connect/google`, {});
  expect(started.status, 'Connect Google').toBe(303);
  const callback = new URL(await allowOnConsentPage(started.location!));
  const back = await client.get(`${callback.pathname}${callback.search}`);
  expect(back.location, 'callback').toMatch(/^\/dashboard\/connect\/google\/[^/]+$/);
  const picker = await client.get(back.location!);
  expect(picker.status, 'picker').toBe(200);
  const saved = await client.post(back.location!, { decision: 'save', property_id: choice.propertyId, site_url: choice.siteUrl });
  expect(saved.status, 'picker saved').toBe(303);
  return saved.location!;
}

/** Paste the key → pick the site; returns where the dashboard sent the browser (or the page it answered with). */
export async function connectBingThroughDashboard(client: WebClient, projectKey: string, apiKey: string, siteUrl: string): Promise<{ status: number; location: string | null; html: string }> {
  await client.get(`/dashboard/p/${projectKey}/sources`);
  const picker = await client.post(`/dashboard/p/${projectKey}/connect/engine2`, { api_key: apiKey });
  if (picker.status !== 200) return picker;
  return client.post(`/dashboard/p/${projectKey}/connect/engine2`, { api_key: apiKey, site_url: siteUrl });
}
