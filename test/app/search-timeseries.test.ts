// GET /metrics/{projectKey}/search/timeseries: buckets per interval, byProvider with sp=all, hourly data from
// engine1 only, CSV, and parameter errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';
import { expectEvery } from '../helpers/expect-every.ts';

let rt: SandboxRuntime;
const URL = '/api/v1/metrics/acme-shop/search/timeseries';
type Point = { date?: string; time?: string; clicks: number; impressions: number; ctr: number; position: number | null; byProvider?: Record<string, { clicks: number }> };

beforeAll(async () => {
  rt = await createSandboxRuntime();
});
afterAll(() => rt.dispose());

const sum = (points: Point[], field: 'clicks' | 'impressions') => points.reduce((a, p) => a + p[field], 0);

describe('search timeseries', () => {
  it('7days by day: one point per date, each combined from both engines, totals adding up', async () => {
    const { status, body } = await rt.get(`${URL}?period=7days`);
    expect(status).toBe(200);
    expect(body.interval).toBe('day');
    const points = body.points as Point[];
    expect(points.map((p) => p.date)).toHaveLength(7);
    expect(points[0]!.date).toBe(body.period.start);
    expect(points.at(-1)!.date).toBe(body.period.end);
    for (const p of points) {
      expect(p.clicks).toBe(p.byProvider!.engine1!.clicks + p.byProvider!.engine2!.clicks);
      expect(p.ctr).toBeCloseTo(p.impressions ? p.clicks / p.impressions : 0, 12);
    }
    expect(body.totals.clicks).toBe(sum(points, 'clicks'));
    expect(body.byProvider.engine1.clicks + body.byProvider.engine2.clicks).toBe(body.totals.clicks);
  });

  it('interval=week rolls the same days up into ISO weeks', async () => {
    const days = await rt.get(`${URL}?period=28days&interval=day`);
    const weeks = await rt.get(`${URL}?period=28days&interval=week`);
    expect(weeks.body.interval).toBe('week');
    expect((weeks.body.points as Point[]).length).toBeGreaterThanOrEqual(4);
    expect((weeks.body.points as Point[]).length).toBeLessThanOrEqual(5);
    expect(sum(weeks.body.points, 'clicks')).toBe(sum(days.body.points, 'clicks'));
    expect(sum(weeks.body.points, 'impressions')).toBe(sum(days.body.points, 'impressions'));
  });

  it('a single engine has no byProvider', async () => {
    const { body } = await rt.get(`${URL}?period=7days&sp=engine1`);
    expect(body.sp).toBe('engine1');
    expect(body.byProvider).toBeUndefined();
    expectEvery((body.points as Point[]), (p) => p.byProvider === undefined);
    expect(body.meta.sources).toEqual(['engine1']);
  });

  it('interval=hour: engine1 hourly data keyed in the project zone; engine2 left out with a warning', async () => {
    const { status, body } = await rt.get(`${URL}?period=yesterday&interval=hour`);
    expect(status).toBe(200);
    const points = body.points as Point[];
    // 24 local hours (23 or 25 on a DST change day), keyed with the Berlin offset of that hour.
    expect(points.length).toBeGreaterThanOrEqual(23);
    expect(points.length).toBeLessThanOrEqual(25);
    expect(points[0]!.time).toMatch(new RegExp(`^${body.period.start}T00:00:00\\+0[12]:00$`));
    expect(points.some((p) => p.clicks > 0)).toBe(true);
    expect(body.meta.sources).toEqual(['engine1']);
    expect(body.meta.warnings).toContainEqual(expect.objectContaining({ code: 'source_left_out', message: expect.stringContaining('engine2') }));
  });

  it('interval=hour with sp=engine2 is a 400 naming engine2; over 10 days a 400 too', async () => {
    rt.sandbox.resetStats();
    const e2 = await rt.get(`${URL}?period=yesterday&interval=hour&sp=engine2`);
    expect(e2.body).toMatchObject({ status: 400, param: 'interval', provider: 'engine2' });
    const long = await rt.get(`${URL}?period=28days&interval=hour`);
    expect(long.body).toMatchObject({ status: 400, param: 'interval' });
    // A short period older than engine1's 10 days of hourly data would be silent zeros: refused instead.
    const old = await rt.get(`${URL}?period=custom_2026-01-01_2026-01-01&interval=hour&sp=engine1`);
    expect(old.body).toMatchObject({ status: 400, param: 'interval' });
    expect(old.body.detail).toMatch(/last 10 days/);
    expect((await rt.get(`${URL}?interval=fortnight`)).body).toMatchObject({ status: 400, param: 'interval' });
    expect(rt.sandbox.stats().total).toBe(0);
  });

  it('today or yesterday asked of engine2 alone, without an interval, is one day (hours are only the default where engine1 can give them)', async () => {
    for (const period of ['today', 'yesterday']) {
      const { status, body } = await rt.get(`${URL}?period=${period}&sp=engine2`);
      expect(status).toBe(200);
      expect(body.interval).toBe('day');
      expect(body.points.map((p: Point) => p.date)).toEqual([body.period.start]);
    }
    expect((await rt.get(`${URL}?period=yesterday`)).body.interval).toBe('hour');
  });

  it('compare is not a timeseries parameter', async () => {
    expect((await rt.get(`${URL}?compare=previous`)).body).toMatchObject({ status: 400, param: 'compare' });
  });

  it('format=csv: RFC 4180 with a header row and one column per engine figure', async () => {
    const res = await rt.request(`${URL}?period=7days&format=csv`, { key: rt.demo.apiKey });
    expect(res.headers.get('content-type')).toContain('text/csv');
    const lines = (await res.text()).trimEnd().split('\r\n');
    expect(lines).toHaveLength(8);
    expect(lines[0]).toBe('date,clicks,impressions,ctr,position,engine1.clicks,engine1.impressions,engine1.ctr,engine1.position,engine2.clicks,engine2.impressions,engine2.ctr,engine2.position');
    expect((await rt.get(`${URL}?format=xml`)).body).toMatchObject({ status: 400, param: 'format' });
  });
});
