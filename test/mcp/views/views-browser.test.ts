// The MCP Apps views in Chromium, hosted as an MCP host does (view-host.ts): each gets a real tool result from
// the demo through a real MCP client; the figures it shows must equal the result's structuredContent, its
// controls must send the right tools/call through the host, the page must make no request and break no CSP
// rule, and axe must find nothing in light and dark. Screenshots (light/dark × wide/narrow) go to test-results/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchBrowser, type Browser } from '../../helpers/browser.ts';
import { createSandboxRuntime, type SandboxRuntime } from '../../helpers/sandbox-runtime.ts';
import { connect, RELAXED_LIMITS, type TestClient } from '../mcp-clients.ts';
import { checkView, cells, type ViewCheck } from './view-checks.ts';
import { openView, type HostedView, type Tool } from './view-host.ts';

/** Tool calls go through the app and the sandbox: on a busy machine an answer can take a while. */
const WAIT = { timeout: 60_000 };
const en = (value: number, digits = 2) => new Intl.NumberFormat('en-US', { maximumFractionDigits: digits }).format(value);
const pct = (fraction: number, digits = 1) => new Intl.NumberFormat('en-US', { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(fraction);

describe.skipIf(!hasChromium)('MCP Apps views in Chromium', () => {
  let rt: SandboxRuntime;
  let browser: Browser;
  let client: TestClient;
  let tools: Map<string, Tool>;

  beforeAll(async () => {
    rt = await createSandboxRuntime({ shared: RELAXED_LIMITS });
    // A read-only key, as a user would connect a host with.
    const { key } = await rt.apiKeys.create(rt.demo.accountId, { scopes: ['read'] });
    client = await connect(rt, 'v1', key);
    tools = new Map(((await client.listTools()).tools as unknown as Tool[]).map((t) => [t.name, t]));
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await rt?.dispose();
  });

  const allCalls: string[] = [];
  async function host(name: string, args: Record<string, unknown>, check: ViewCheck): Promise<HostedView> {
    const view = await openView(browser, client, tools.get(name)!, args, { width: 1000, theme: 'light' });
    await checkView(view, check);
    return view;
  }
  /** After the interactions too: nothing was requested and nothing broke. */
  async function done(view: HostedView): Promise<void> {
    allCalls.push(...view.calls.map((c) => c.name));
    expect(view.requests).toEqual([]);
    expect(view.problems).toEqual([]);
    await view.close();
  }

  it('links each view from its tools and declares no outside domain', () => {
    const linked = Object.fromEntries([...tools.values()].filter((t) => t._meta?.ui?.resourceUri).map((t) => [t.name, t._meta!.ui!.resourceUri]));
    expect(linked).toEqual({
      get_site_timeseries: 'ui://siteline/timeseries',
      get_search_timeseries: 'ui://siteline/timeseries',
      find_anomalies: 'ui://siteline/timeseries',
      get_site_breakdown: 'ui://siteline/breakdown',
      get_search_breakdown: 'ui://siteline/breakdown',
      get_funnel_results: 'ui://siteline/funnel',
      explain_change: 'ui://siteline/change',
      find_search_opportunities: 'ui://siteline/search-opportunities',
    });
  });

  it('funnel: the steps and drop-off of get_funnel_results; the period control calls it again', async () => {
    const view = await host('get_funnel_results', { funnel: 'acme-shop-checkout' }, { name: 'funnel' });
    const body = view.result.structuredContent as FunnelBody;
    expect(await cells(view.frame, 'users')).toEqual(body.steps.map((s) => String(s.users)));
    expect(await cells(view.frame, 'dropOff')).toEqual(body.steps.map((s) => String(s.dropOff)));
    expect(await cells(view.frame, 'dropOffRate')).toEqual(body.steps.map((s) => String(s.dropOffRate)));
    expect(await cells(view.frame, 'users', 'text')).toEqual(body.steps.map((s) => en(s.users)));
    expect(await view.frame.locator('.headline').textContent()).toBe(`${pct(body.completionRate)} of users reached the last step`);

    await view.frame.getByLabel('Period').selectOption('90days');
    const args = { funnel: 'acme-shop-checkout', period: '90days' };
    await expect.poll(() => view.calls, WAIT).toEqual([{ name: 'get_funnel_results', arguments: args }]);
    const again = (await client.callTool({ name: 'get_funnel_results', arguments: args })).structuredContent as FunnelBody;
    await expect.poll(() => cells(view.frame, 'users'), WAIT).toEqual(again.steps.map((s) => String(s.users)));
    await done(view);
  }, 180_000);

  it('timeseries: the series with its comparison line, and the anomalies find_anomalies reports marked', async () => {
    const args = { project: 'northwind-journal', metric: 'sessions', period: 'custom_2026-05-01_2026-07-29', compare: 'previous' };
    const view = await host('get_site_timeseries', args, { name: 'timeseries' });
    const body = view.result.structuredContent as { points: { date: string; value: { value: number; previous: number } }[]; total: { value: number } };
    const anomalies = (await client.callTool({ name: 'find_anomalies', arguments: { project: 'northwind-journal', metric: 'sessions', period: args.period } })).structuredContent as { anomalies: { date: string }[] };
    expect(view.calls[0]).toEqual({ name: 'find_anomalies', arguments: { project: 'northwind-journal', metric: 'sessions', period: args.period } });
    expect(anomalies.anomalies.length).toBeGreaterThan(0);
    expect(await cells(view.frame, 'date')).toEqual(body.points.map((p) => p.date));
    expect(await cells(view.frame, 'value')).toEqual(body.points.map((p) => String(p.value.value)));
    expect(await cells(view.frame, 'previous')).toEqual(body.points.map((p) => String(p.value.previous)));
    expect(await cells(view.frame, 'value', 'text')).toEqual(body.points.map((p) => en(p.value.value)));
    expect(await view.frame.locator('.headline').textContent()).toContain(en(body.total.value));
    const listed = async () => (await view.frame.getByRole('list', { name: 'Anomalies' }).getByRole('listitem').allTextContents()).map((text) => text.slice(0, 10));
    await expect.poll(listed, WAIT).toEqual(anomalies.anomalies.map((a) => a.date));
    expect(await view.frame.locator('svg circle.marker').count()).toBe(anomalies.anomalies.length);

    await view.frame.getByLabel('Metric').selectOption('activeUsers');
    await expect.poll(() => view.calls.slice(1, 3), WAIT).toEqual([
      { name: 'get_site_timeseries', arguments: { ...args, metric: 'activeUsers' } },
      { name: 'find_anomalies', arguments: { project: 'northwind-journal', metric: 'activeUsers', period: args.period } },
    ]);
    await done(view);
  }, 180_000);

  it('timeseries: a find_anomalies answer fetches its series; a search series draws the metric chosen', async () => {
    const anomalies = await openView(browser, client, tools.get('find_anomalies')!, { project: 'northwind-journal', period: 'custom_2026-05-01_2026-07-29' }, { width: 1000, theme: 'light' });
    await expect.poll(() => anomalies.calls, WAIT).toEqual([{ name: 'get_site_timeseries', arguments: { project: 'northwind-journal', period: 'custom_2026-05-01_2026-07-29', metric: 'sessions', interval: 'day' } }]);
    await expect.poll(() => anomalies.frame.locator('svg circle.marker').count(), WAIT).toBe((anomalies.result.structuredContent as { anomalies: unknown[] }).anomalies.length);
    await done(anomalies);

    const search = await openView(browser, client, tools.get('get_search_timeseries')!, { project: 'acme-shop' }, { width: 1000, theme: 'light' });
    const points = (search.result.structuredContent as { points: Record<string, number>[] }).points;
    expect(await cells(search.frame, 'value')).toEqual(points.map((p) => String(p.clicks)));
    await search.frame.getByLabel('Metric').selectOption('impressions');
    await expect.poll(() => cells(search.frame, 'value'), WAIT).toEqual(points.map((p) => String(p.impressions)));
    await expect.poll(() => search.calls.map((c) => `${c.name} ${String(c.arguments.metric)}`), WAIT).toEqual(['find_anomalies clicks', 'find_anomalies impressions']);
    await done(search);
  }, 180_000);

  it('breakdown: search rows with both engines; sorting; a row drills into the same tool, filtered', async () => {
    const view = await host('get_search_breakdown', { project: 'acme-shop', dimension: 'query', limit: 10 }, { name: 'breakdown-search' });
    const rows = (view.result.structuredContent as { rows: SearchRow[] }).rows;
    expect(await cells(view.frame, 'query')).toEqual(rows.map((r) => r.query));
    for (const figure of ['clicks', 'impressions', 'ctr', 'position'] as const) expect(await cells(view.frame, figure)).toEqual(rows.map((r) => String(r[figure])));
    const engines = await view.frame.locator('table [data-key="clicks"] .delta').allTextContents();
    const perEngine = (r: SearchRow) => (['engine1', 'engine2'] as const).filter((e) => r.byProvider[e]).map((e) => `${e} ${en(r.byProvider[e]!.clicks)}`).join(' · ');
    expect(engines).toEqual(rows.map(perEngine));
    expect(rows.some((r) => r.byProvider.engine1 && r.byProvider.engine2)).toBe(true);

    await view.frame.getByRole('button', { name: 'impressions', exact: true }).click();
    const byImpressions = [...rows].sort((a, b) => b.impressions - a.impressions).map((r) => String(r.impressions));
    expect(await cells(view.frame, 'impressions')).toEqual(byImpressions);
    expect(await view.frame.locator('th[aria-sort="descending"]').textContent()).toContain('impressions');

    await view.frame.getByRole('button', { name: rows[0]!.query, exact: true }).click();
    const drilled = { project: 'acme-shop', dimension: 'page', period: '28days', limit: 10, filter: `query==${rows[0]!.query}` };
    await expect.poll(() => view.calls, WAIT).toEqual([{ name: 'get_search_breakdown', arguments: drilled }]);
    const pages = (await client.callTool({ name: 'get_search_breakdown', arguments: drilled })).structuredContent as { rows: { page: string }[] };
    await expect.poll(() => cells(view.frame, 'page'), WAIT).toEqual(pages.rows.map((r) => r.page));
    await done(view);
  }, 180_000);

  it('breakdown: analytics metrics with their comparison; the period control calls the tool again', async () => {
    const args = { project: 'acme-shop', dimension: 'country', compare: 'previous', limit: 10 };
    const view = await host('get_site_breakdown', args, { name: 'breakdown-site' });
    const body = view.result.structuredContent as { metrics: string[]; rows: Record<string, { value: number; deltaPct: number }>[] };
    for (const metric of body.metrics) expect(await cells(view.frame, metric)).toEqual(body.rows.map((r) => String(r[metric]!.value)));
    expect(await view.frame.locator('table [data-key="sessions"] .delta').first().textContent()).toContain(pct(Math.abs(body.rows[0]!.sessions!.deltaPct)));
    // Calendar periods too: the previous calendar month is one choice, not client-side date math.
    await view.frame.getByLabel('Period').selectOption('last_month');
    await expect.poll(() => view.calls, WAIT).toEqual([{ name: 'get_site_breakdown', arguments: { ...args, period: 'last_month' } }]);
    await done(view);
  }, 180_000);

  it('change: the change as a waterfall of one dimension at a time; the metric control calls explain_change', async () => {
    const args = { project: 'acme-shop', metric: 'sessions', period: '7days' };
    const view = await host('explain_change', args, { name: 'change' });
    const body = view.result.structuredContent as ChangeBody;
    for (const dimension of body.dimensions) {
      await view.frame.getByRole('button', { name: dimension.dimension, exact: true }).click();
      const drivers = body.drivers.filter((d) => d.dimension === dimension.dimension);
      const values = (await cells(view.frame, 'value')).map(Number);
      expect(values[0]).toBe(body.change.previous);
      expect(values.at(-1)).toBe(body.change.value);
      expect(values.slice(1, 1 + drivers.length)).toEqual(drivers.map((d) => d.contribution));
      // What the rows add up to is the change itself: drivers, the values not listed and anything not attributed.
      expect(values.slice(0, -1).reduce((a, b) => a + b, 0)).toBeCloseTo(body.change.value, 6);
      expect((await cells(view.frame, 'label')).slice(1, 1 + drivers.length)).toEqual(drivers.map((d) => d.value));
    }
    await view.frame.getByLabel('Metric').selectOption('engagementRate');
    await expect.poll(() => view.calls, WAIT).toEqual([{ name: 'explain_change', arguments: { ...args, metric: 'engagementRate', compare: 'previous' } }]);
    await done(view);
  }, 180_000);

  it('search opportunities: by clicks at stake; a query opens the pages ranking for it; brand calls the tool again', async () => {
    const args = { project: 'acme-shop', brand: 'nonbrand' };
    const view = await host('find_search_opportunities', args, { name: 'search-opportunities' });
    const list = (view.result.structuredContent as { opportunities: { query?: string; page?: string; clicksAtStake: number; impressions: number }[] }).opportunities;
    const stakes = list.map((o) => o.clicksAtStake).sort((a, b) => b - a);
    expect((await cells(view.frame, 'clicksAtStake')).map(Number)).toEqual(stakes.slice(0, 15));
    await view.frame.getByRole('button', { name: `Show all ${list.length} rows` }).click();
    expect((await cells(view.frame, 'clicksAtStake')).map(Number)).toEqual(stakes);
    expect((await cells(view.frame, 'subject')).sort()).toEqual(list.map((o) => o.query ?? o.page).sort());
    expect(await view.frame.locator('.headline').textContent()).toBe(`${en(stakes.reduce((a, b) => a + b, 0))} clicks at stake in ${list.length} opportunities`);

    const first = list.find((o) => o.query !== undefined)!;
    await view.frame.getByRole('button', { name: first.query, exact: true }).first().click();
    const detail = { project: 'acme-shop', period: '28days', sp: 'all', dimension: 'page', filter: `query==${first.query}`, limit: 10 };
    await expect.poll(() => view.calls, WAIT).toEqual([{ name: 'get_search_breakdown', arguments: detail }]);
    await expect.poll(() => view.frame.getByRole('heading', { name: `Pages for “${first.query}”` }).count(), WAIT).toBe(1);
    await view.frame.getByLabel('Queries').selectOption('all');
    await expect.poll(() => view.calls.at(-1), WAIT).toEqual({ name: 'find_search_opportunities', arguments: { project: 'acme-shop', period: '28days', sp: 'all', brand: 'all' } });
    await done(view);
  }, 180_000);

  it('calls go through the host with the user’s credential: a revoked key’s refusal is shown, the figures stay', async () => {
    const { key, record } = await rt.apiKeys.create(rt.demo.accountId, { scopes: ['read'] });
    const own = await connect(rt, 'v1', key);
    const view = await openView(browser, own, tools.get('get_funnel_results')!, { funnel: 'acme-shop-checkout' }, { width: 1000, theme: 'light' });
    const before = await cells(view.frame, 'users');
    await rt.apiKeys.revoke(rt.demo.accountId, record.id);
    await view.frame.getByLabel('Period').selectOption('7days');
    await expect.poll(() => view.frame.getByRole('alert').textContent(), WAIT).toContain('The host did not run get_funnel_results');
    expect(await cells(view.frame, 'users')).toEqual(before);
    await done(view);
    await own.close();
  }, 180_000);

  it('views only ever call read-only tools', () => {
    expect(allCalls.length).toBeGreaterThan(10);
    for (const name of new Set(allCalls)) expect(tools.get(name)?.annotations?.readOnlyHint, name).toBe(true);
  });
});

type FunnelBody = { steps: { name: string; users: number; conversionRate: number; dropOff: number; dropOffRate: number }[]; completionRate: number };
type SearchRow = { query: string; clicks: number; impressions: number; ctr: number; position: number; byProvider: Partial<Record<'engine1' | 'engine2', { clicks: number }>> };
type ChangeBody = {
  change: { value: number; previous: number; delta: number };
  drivers: { dimension: string; value: string; contribution: number }[];
  dimensions: { dimension: string; delta: number; unlisted: number }[];
};
