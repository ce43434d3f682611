// A compared site timeseries pairs the comparison range with the period by offset: day k of the comparison range
// belongs to the bucket of day k of the period (hours by wall clock). So both sides have the period's buckets,
// each point's previous is the provider's number for exactly its paired days, and counts add up to total.previous.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';

let rt: SandboxRuntime;
beforeAll(async () => {
  rt = await createSandboxRuntime();
});
afterAll(() => rt.dispose());

interface Compared {
  value: number;
  previous: number | null;
}
interface Point {
  date?: string;
  time?: string;
  value: Compared;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const previousOf = (points: Point[]) => points.map((p) => p.value.previous!);

async function timeseries(project: string, query: string): Promise<{ points: Point[]; total: Compared }> {
  const { status, body } = await rt.get(`/api/v1/metrics/${project}/timeseries?${query}`);
  expect(status, JSON.stringify(body)).toBe(200);
  return body;
}

/** The provider's number for a range, uncompared (a timeseries' total: any metric, users and rates too). */
async function over(project: string, metric: string, start: string, end: string): Promise<number> {
  const { body } = await rt.get(`/api/v1/metrics/${project}/timeseries?metric=${metric}&period=custom_${start}_${end}&interval=month`);
  return body.total;
}

/** Each point's previous is the provider's number over its paired days (`[start, end]` per point, in order). */
async function expectPairedWith(points: Point[], project: string, metric: string, paired: readonly (readonly [string, string])[]): Promise<void> {
  expect(previousOf(points)).toEqual(await Promise.all(paired.map(([start, end]) => over(project, metric, start, end))));
}

/** The four weeks of 2025-07-08…30 and the days of 2025-06-15…07-07 each pairs with. */
const JULY_WEEKS_PAIRED = [
  ['2025-06-15', '2025-06-20'],
  ['2025-06-21', '2025-06-27'],
  ['2025-06-28', '2025-07-04'],
  ['2025-07-05', '2025-07-07'],
] as const;

describe('site timeseries compared bucket by bucket', () => {
  it('weeks: the previous range is cut where the period is, so the points’ previous add up to total.previous', async () => {
    // 23 days from a Tuesday: weeks from 07-08 (6 days), 07-14, 07-21 and 07-28 (3 days); the previous range,
    // 2025-06-15…07-07, starts on a Sunday, so its own ISO weeks are five and cut elsewhere.
    const body = await timeseries('tiny-saas', 'metric=sessions&period=custom_2025-07-08_2025-07-30&interval=week&compare=previous');
    expect(body.points.map((p) => p.date)).toEqual(['2025-07-08', '2025-07-14', '2025-07-21', '2025-07-28']);
    expect(sum(previousOf(body.points))).toBe(body.total.previous);
    await expectPairedWith(body.points, 'tiny-saas', 'sessions', JULY_WEEKS_PAIRED);
  });

  it('users and rates: each point’s previous is the provider’s number over its paired days', async () => {
    const body = await timeseries('tiny-saas', 'metric=activeUsers&period=custom_2025-07-08_2025-07-30&interval=week&compare=previous');
    await expectPairedWith(body.points, 'tiny-saas', 'activeUsers', JULY_WEEKS_PAIRED);
    // One month in the period; the previous range spans June and July, yet it is one bucket: the whole range.
    const rate = await timeseries('tiny-saas', 'metric=engagementRate&period=custom_2025-07-08_2025-07-30&interval=month&compare=previous');
    await expectPairedWith(rate.points, 'tiny-saas', 'engagementRate', [['2025-06-15', '2025-07-07']]);
    expect(rate.points[0]!.value.previous).toBe(rate.total.previous);
  });

  it('months with compare=year: the months of the period, each against the same days 52 weeks before', async () => {
    // 364 days back, across 29 February 2024: 2025-01-15…04-10 against 2024-01-17…04-11.
    const body = await timeseries('tiny-saas', 'metric=sessions&period=custom_2025-01-15_2025-04-10&interval=month&compare=year');
    expect(body.points.map((p) => p.date)).toEqual(['2025-01-15', '2025-02-01', '2025-03-01', '2025-04-01']);
    expect(sum(previousOf(body.points))).toBe(body.total.previous);
    await expectPairedWith(body.points, 'tiny-saas', 'sessions', [
      ['2024-01-17', '2024-02-02'],
      ['2024-02-03', '2024-03-01'],
      ['2024-03-02', '2024-04-01'],
      ['2024-04-02', '2024-04-11'],
    ]);
  });

  it('hours across a clock change: the same wall-clock hour the day before, every hour counted once', async () => {
    // Europe/Berlin: 2025-10-26 has 25 hours (02:00 twice), 2025-10-27 has 24.
    const after = await timeseries('acme-shop', 'metric=sessions&period=custom_2025-10-27_2025-10-27&interval=hour&compare=previous');
    const before = await timeseries('acme-shop', 'metric=sessions&period=custom_2025-10-26_2025-10-26&interval=hour');
    expect(after.points).toHaveLength(24);
    expect(sum(previousOf(after.points))).toBe(after.total.previous);
    const valueAt = (points: Point[], time: string) => (points.find((p) => p.time === time)?.value as unknown as number | undefined);
    expect(after.points.find((p) => p.time === '2025-10-27T03:00:00+01:00')?.value.previous).toBe(valueAt(before.points, '2025-10-26T03:00:00+01:00'));
    expect(after.points.find((p) => p.time === '2025-10-27T23:00:00+01:00')?.value.previous).toBe(valueAt(before.points, '2025-10-26T23:00:00+01:00'));

    // 2025-03-30 has 23 hours (no 02:00): the day before's 02:00 counts with 03:00, the hour the clocks jumped to.
    const spring = await timeseries('acme-shop', 'metric=sessions&period=custom_2025-03-30_2025-03-30&interval=hour&compare=previous');
    const eve = await timeseries('acme-shop', 'metric=sessions&period=custom_2025-03-29_2025-03-29&interval=hour');
    expect(spring.points).toHaveLength(23);
    expect(sum(previousOf(spring.points))).toBe(spring.total.previous);
    expect(spring.points.find((p) => p.time === '2025-03-30T03:00:00+02:00')?.value.previous).toBe(
      valueAt(eve.points, '2025-03-29T02:00:00+01:00')! + valueAt(eve.points, '2025-03-29T03:00:00+01:00')!,
    );
  });
});
