// The overview against the API, in-process on the demo: for a period with a year-over-year comparison, a chart
// metric, and a country filter, every card shows exactly what the REST route answers for the same period,
// comparison and filter; "Refresh now" is a POST spending one forced refresh for the whole page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';
import { signInDemo } from '../relations/support/dashboard.ts';
import type { WebClient } from './web-client.ts';

const PROJECT = 'tiny-saas';
const unescape = (html: string) => html.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'");

/** A card's rows as [value, ...data-raw figures]. */
function cardRows(html: string, card: string): (string | number)[][] {
  const section = new RegExp(`data-card="${card}">([\\s\\S]*?)</section>`).exec(html)?.[1] ?? '';
  return [...section.matchAll(/<tr><td class="name"><a [^>]*data-filter="[^"]*">(?:<code[^>]*>)?([\s\S]*?)(?:<\/code>)?<\/a><\/td>((?:<td class="num"[^>]*>[^<]*<\/td>)+)<\/tr>/g)].map((m) => [
    unescape(m[1]!),
    ...[...m[2]!.matchAll(/data-raw="([^"]*)"/g)].map((r) => Number(r[1])),
  ]);
}

const headline = (html: string) => Object.fromEntries([...html.matchAll(/data-metric="([^"]+)" data-raw="([^"]+)"/g)].map((m) => [m[1]!, Number(m[2])]));

describe('the overview shows the API’s numbers for its period, comparison and filter', () => {
  let rt: SandboxRuntime;
  let client: WebClient;

  beforeAll(async () => {
    rt = await createSandboxRuntime();
    client = await signInDemo(rt);
  }, 120_000);
  afterAll(() => rt?.dispose());

  it('a period with a year comparison, another chart metric, and a country filter', async () => {
    const unfiltered = await client.get(`/dashboard/p/${PROJECT}?period=7days&compare=year&metric=activeUsers`);
    expect(unfiltered.status).toBe(200);
    const country = cardRows(unfiltered.html, 'countries')[0]![0] as string;
    const filter = `country==${country}`;
    const page = await client.get(`/dashboard/p/${PROJECT}?period=7days&compare=year&metric=activeUsers&filter=${encodeURIComponent(filter)}`);
    expect(page.status).toBe(200);
    const html = page.html;
    expect(html).toContain(`data-chip="${filter}"`);

    const summary = (await rt.get(`/api/v1/metrics/${PROJECT}/summary?period=7days&compare=year`)).body;
    const shown = headline(html);
    expect(Object.keys(shown).length).toBeGreaterThanOrEqual(5);
    for (const [metric, value] of Object.entries(shown)) expect(value, metric).toBe(summary.metrics[metric].value);
    expect(html).toContain(`compared with ${summary.period.previous.start} to ${summary.period.previous.end}`);

    const series = (await rt.get(`/api/v1/metrics/${PROJECT}/timeseries?metric=activeUsers&period=7days&compare=year`)).body;
    const values: number[] = series.points.map((p: { value: { value: number } }) => p.value.value);
    expect(Number(/id="chart-main"[^>]*data-points="(\d+)"/.exec(html)?.[1])).toBe(values.length);
    expect(html).toContain(`total ${values.reduce((a, b) => a + b, 0).toLocaleString('en-US')}, highest`);
    expect(html).toContain('class="line previous"');

    let compared = 0;
    for (const [card, dimension] of [['countries', 'country'], ['devices', 'deviceCategory'], ['channels', 'sessionDefaultChannelGroup'], ['sources', 'sessionSource'], ['pages', 'pagePath']] as const) {
      const metrics = card === 'pages' ? 'activeUsers,sessions' : 'sessions,activeUsers';
      const api = await rt.get(`/api/v1/metrics/${PROJECT}/dimension?dimension=${dimension}&metrics=${metrics}&period=7days&limit=10&filter=${encodeURIComponent(filter)}`);
      expect(api.status, card).toBe(200);
      const [first, second] = metrics.split(',') as [string, string];
      const expected = api.body.rows.map((r: Record<string, unknown>) => [String(r[dimension]), r[first], r[second]]);
      expect(cardRows(html, card), card).toEqual(expected);
      compared += expected.length;
    }
    expect(compared).toBeGreaterThan(5);
    // The filter holds on every breakdown: the countries card shows only that country.
    expect(cardRows(html, 'countries').map((r) => r[0])).toEqual([country]);

    // Landing pages join search figures: a filter search cannot express is refused there as in the API, in its words.
    const landing = await rt.get(`/api/v1/metrics/${PROJECT}/landing-pages?period=7days&limit=10&filter=${encodeURIComponent(filter)}`);
    if (landing.status === 200) expect(cardRows(html, 'landingPages').map((r) => [r[0], r[1]])).toEqual(landing.body.rows.map((r: { page: string; sessions: number }) => [r.page, r.sessions]));
    else expect(unescape(/data-card="landingPages">[\s\S]*?<p class="error">([^<]*)</.exec(html)?.[1] ?? '')).toBe(landing.body.detail);
  }, 120_000);

  it('search queries with clicks, impressions, CTR and position beyond the top 10, and realtime visitors', async () => {
    const page = await client.get(`/dashboard/p/${PROJECT}?period=28days`);
    const api = (await rt.get(`/api/v1/metrics/${PROJECT}/search/dimension?dimension=query&period=28days&limit=25`)).body;
    const rows = cardRows(page.html, 'queries');
    expect(rows.length).toBeGreaterThan(10);
    expect(rows).toEqual(api.rows.map((r: Record<string, number | string>) => [r.query, r.clicks, r.impressions, r.ctr, r.position]));
    const realtime = (await rt.get(`/api/v1/metrics/${PROJECT}/realtime`)).body;
    expect(Number(/data-realtime="(\d+)"/.exec(page.html)?.[1])).toBe(realtime.activeUsers);
  }, 120_000);

  it('exports exactly a card as the API’s CSV, and streams the frame with a progress note before the cards', async () => {
    const filter = encodeURIComponent('deviceCategory==desktop');
    const csv = await client.get(`/dashboard/p/${PROJECT}/export.csv?card=countries&period=7days&filter=${filter}`);
    expect(csv.status).toBe(200);
    const api = await rt.get(`/api/v1/metrics/${PROJECT}/dimension?dimension=country&metrics=sessions,activeUsers&period=7days&limit=10&filter=${filter}&format=csv`);
    expect(csv.html).toBe(api.body);
    expect(csv.html.split('\r\n')[0]).toBe('country,sessions,activeUsers');
    expect((await client.get(`/dashboard/p/${PROJECT}/export.csv?card=secrets`)).status).toBe(400);
    const page = await client.get(`/dashboard/p/${PROJECT}`);
    expect(page.html.indexOf('class="progress"')).toBeLessThan(page.html.indexOf('class="streamed"'));
    expect(page.html).toContain(`href="/dashboard/p/${PROJECT}/export.csv?card=queries"`);
  }, 120_000);

  it('"Refresh now" is a POST with CSRF that spends one forced refresh for the whole page', async () => {
    const view = `/dashboard/p/${PROJECT}?period=7days`;
    await client.get(view);
    const before = await rt.shared.limits.consumeForce(PROJECT);
    const res = await client.post(view, { refresh: '1' });
    expect(res.status).toBe(303);
    expect(res.location).toBe(view);
    const after = await rt.shared.limits.consumeForce(PROJECT);
    // Two probes of our own plus the page's refresh: exactly one spent by the page.
    expect(before.remaining - after.remaining).toBe(2);
    const forged = await client.post(view, { refresh: '1', csrf: 'not-the-token' });
    expect(forged.status).toBe(403);
  }, 120_000);
});
