// Timeseries, dimension breakdown, realtime and metadata through the whole app against the sandbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';
import { expectEvery } from '../helpers/expect-every.ts';

let rt: SandboxRuntime;
beforeAll(async () => {
  rt = await createSandboxRuntime();
});
afterAll(() => rt.dispose());

describe('GET /metrics/{projectKey}/timeseries', () => {
  it('defaults to screenPageViews per day with every day present and a total', async () => {
    const { status, body } = await rt.get('/api/v1/metrics/acme-shop/timeseries?period=28days');
    expect(status).toBe(200);
    expect(body).toMatchObject({ metric: 'screenPageViews', interval: 'day' });
    expect(body.points).toHaveLength(28);
    expect(body.points[0].date).toBe(body.period.start);
    expect(body.points.at(-1).date).toBe(body.period.end);
    const sum = body.points.reduce((s: number, p: { value: number }) => s + p.value, 0);
    expect(body.total).toBe(sum); // pageviews add up across days
  });

  it('uses hours for yesterday, with offsets in the project zone', async () => {
    const { body } = await rt.get('/api/v1/metrics/northwind-journal/timeseries?period=yesterday&metric=sessions');
    expect(body.interval).toBe('hour');
    expect(body.points.length).toBeGreaterThanOrEqual(23);
    expect(body.points[0].time).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00[-+]\d{2}:\d{2}$/);
  });

  it('uses weeks above 90 days and months on request', async () => {
    const weekly = await rt.get('/api/v1/metrics/tiny-saas/timeseries?period=180days');
    expect(weekly.body.interval).toBe('week');
    expect(weekly.body.points[0].date).toBe(weekly.body.period.start);
    expect(weekly.body.points.reduce((s: number, p: { value: number }) => s + p.value, 0)).toBe(weekly.body.total);
    const monthly = await rt.get('/api/v1/metrics/tiny-saas/timeseries?period=365days&interval=month&metric=sessions');
    expect(monthly.body.points.length).toBeGreaterThanOrEqual(12);
    expectEvery(monthly.body.points.slice(1), (p: { date: string }) => p.date.endsWith('-01'));
  });

  it('compares bucket by bucket', async () => {
    const { body } = await rt.get('/api/v1/metrics/acme-shop/timeseries?period=7days&compare=previous&metric=sessions');
    expect(body.points).toHaveLength(7);
    expect(body.points[0].value).toMatchObject({ value: expect.any(Number), previous: expect.any(Number) });
    expect(body.total.value).toBe(body.points.reduce((s: number, p: { value: { value: number } }) => s + p.value.value, 0));
  });

  it('returns CSV with a header row', async () => {
    const { status, body, headers } = await rt.get('/api/v1/metrics/acme-shop/timeseries?period=7days&format=csv');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = String(body).trim().split('\r\n');
    // Columns are named after the metric, as in the breakdown CSV (default metric: screenPageViews).
    expect(lines[0]).toBe('date,screenPageViews');
    expect(lines).toHaveLength(8);
  });

  it('names compared CSV columns after the metric: sessions.value, sessions.previous, …', async () => {
    const { body } = await rt.get('/api/v1/metrics/acme-shop/timeseries?metric=sessions&period=7days&compare=previous&format=csv');
    const lines = String(body).trim().split('\r\n');
    expect(lines[0]).toBe('date,sessions.value,sessions.previous,sessions.delta,sessions.deltaPct');
    const json = await rt.get('/api/v1/metrics/acme-shop/timeseries?metric=sessions&period=7days&compare=previous');
    expect(lines[1]!.split(',').slice(0, 3)).toEqual([json.body.points[0].date, String(json.body.points[0].value.value), String(json.body.points[0].value.previous)]);
  });

  it('rejects an unknown metric with close matches', async () => {
    const { status, body } = await rt.get('/api/v1/metrics/acme-shop/timeseries?metric=sesions');
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'invalid_parameter', param: 'metric' });
    expect(body.detail).toContain('sessions');
  });

  it('rejects hourly data for long periods', async () => {
    const { status, body } = await rt.get('/api/v1/metrics/acme-shop/timeseries?period=90days&interval=hour');
    expect(status).toBe(400);
    expect(body.param).toBe('interval');
  });
});

describe('GET /metrics/{projectKey}/dimension', () => {
  it('breaks down by country, ordered by the first metric, with totalRows', async () => {
    const { status, body } = await rt.get('/api/v1/metrics/acme-shop/dimension?dimension=country&period=28days&limit=5');
    expect(status).toBe(200);
    expect(body).toMatchObject({ dimension: 'country', metrics: ['activeUsers', 'sessions', 'screenPageViews'], limit: 5, offset: 0 });
    expect(body.rows).toHaveLength(5);
    expect(body.totalRows).toBeGreaterThan(5);
    const users = body.rows.map((r: { activeUsers: number }) => r.activeUsers);
    expect(users).toEqual([...users].sort((a, b) => b - a));
    expect(typeof body.rows[0].country).toBe('string');
  });

  it('pages: offset continues where limit stopped', async () => {
    const all = await rt.get('/api/v1/metrics/acme-shop/dimension?dimension=country&period=28days&limit=10&metrics=sessions');
    const second = await rt.get('/api/v1/metrics/acme-shop/dimension?dimension=country&period=28days&limit=5&offset=5&metrics=sessions');
    expect(second.body.rows).toEqual(all.body.rows.slice(5, 10));
  });

  it('filters with the contract syntax', async () => {
    const { body } = await rt.get(`/api/v1/metrics/acme-shop/dimension?dimension=deviceCategory&period=28days&filter=${encodeURIComponent('deviceCategory==mobile,deviceCategory==tablet')}`);
    expect(body.rows.map((r: { deviceCategory: string }) => r.deviceCategory).sort()).toEqual(['mobile', 'tablet']);
  });

  it('compares the rows of the page with the previous period', async () => {
    const { body } = await rt.get('/api/v1/metrics/acme-shop/dimension?dimension=deviceCategory&period=28days&compare=previous&metrics=sessions');
    expect(body.rows[0].sessions).toMatchObject({ value: expect.any(Number), previous: expect.any(Number), delta: expect.any(Number) });
  });

  it('requires a dimension and validates metrics, order and filter', async () => {
    for (const [query, param] of [
      ['', 'dimension'],
      ['dimension=countyr', 'dimension'],
      ['dimension=country&metrics=sessions,sessions', 'metrics'],
      ['dimension=country&order=-bounceRate', 'order'],
      ['dimension=country&filter=country=Germany', 'filter'],
      ['dimension=country&limit=5000', 'limit'],
    ]) {
      const { status, body } = await rt.get(`/api/v1/metrics/acme-shop/dimension?${query}`);
      expect(status, query).toBe(400);
      expect(body.param, query).toBe(param);
    }
  });
});

describe('GET /metrics/{projectKey}/realtime', () => {
  it('answers active users per minute and the top lists', async () => {
    const { status, body } = await rt.get('/api/v1/metrics/acme-shop/realtime');
    expect(status).toBe(200);
    expect(body.perMinute).toHaveLength(30);
    expect(body.perMinute.map((m: { minutesAgo: number }) => m.minutesAgo)).toEqual([...Array(30).keys()]);
    expect(body.activeUsers).toBeGreaterThan(0);
    expect(body.topPages.length).toBeGreaterThan(0);
    expect(body.countries[0]).toMatchObject({ country: expect.any(String), activeUsers: expect.any(Number) });
    expect(body.devices.length).toBeGreaterThan(0);
    expect(body.topEvents[0]).toMatchObject({ eventName: expect.any(String), eventCount: expect.any(Number) });
  });
});

describe('GET /metrics/{projectKey}/metadata', () => {
  it('lists standard and custom fields and the search dimensions per engine', async () => {
    const { status, body } = await rt.get('/api/v1/metrics/acme-shop/metadata');
    expect(status).toBe(200);
    const metric = body.analytics.metrics.find((m: { name: string }) => m.name === 'sessions');
    expect(metric).toMatchObject({ type: 'TYPE_INTEGER', custom: false });
    expect(body.analytics.dimensions.some((d: { name: string; custom: boolean }) => d.name.startsWith('customEvent:') && d.custom)).toBe(true);
    expect(body.search.engine2.dimensions).toEqual(['query', 'page']);
    expect(body.search.engine1.dimensions).toEqual(['query', 'page', 'country', 'device', 'date']);
  });

  it('shows an unconnected engine', async () => {
    const { body } = await rt.get('/api/v1/metrics/tiny-saas/metadata');
    expect(body.search.engine2.connected).toBe(false);
  });
});
