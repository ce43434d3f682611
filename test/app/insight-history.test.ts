// Insights that look back — a change against its comparison range, search opportunities against the range before,
// anomalies against their weekday baseline — read the same coverage as the reports: a range a provider's history
// does not reach is never 0. It is left out like for like, or not compared at all, and a comparison_unavailable
// warning names the provider and its first day.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daysAgo, unavailable } from '../helpers/comparison-warnings.ts';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';

let rt: SandboxRuntime;
beforeAll(async () => {
  rt = await createSandboxRuntime();
});
afterAll(() => rt.dispose());

const SLOW = 300_000;

describe('explain_change on an analytics metric before the property has data', () => {
  it('answers the change with previous null, no drivers and the warning (the summary gives the same null), not a 400', async () => {
    const query = 'period=custom_2021-02-01_2021-02-28&compare=year';
    const [changes, summary] = await Promise.all([rt.get(`/api/v1/metrics/tiny-saas/insights/changes?${query}`), rt.get(`/api/v1/metrics/tiny-saas/summary?${query}`)]);
    expect(changes.status).toBe(200);
    expect(changes.body.change).toEqual(summary.body.metrics.sessions);
    expect(changes.body.change).toMatchObject({ previous: null, delta: null, deltaPct: null });
    expect(changes.body.drivers).toEqual([]);
    expect(unavailable(changes.body).map((w) => w.message)).toEqual(unavailable(summary.body).map((w) => w.message));
    expect(unavailable(changes.body)[0]!.message).toMatch(/^analytics has data from 2021-01-01 on/);
  }, SLOW);
});

describe('search opportunities against a range before engine2 history', () => {
  // 120 days ending 12 days ago: the range before starts ~250 days ago, before engine2's ~6 months.
  const period = `custom_${daysAgo(131)}_${daysAgo(12)}`;

  it('sp=all compares like for like: engine2 is left out and named, the answer is engine1 alone', async () => {
    const [all, engine1] = await Promise.all([
      rt.get(`/api/v1/metrics/northwind-journal/insights/search-opportunities?period=${period}&sp=all`),
      rt.get(`/api/v1/metrics/northwind-journal/insights/search-opportunities?period=${period}&sp=engine1`),
    ]);
    expect(all.status).toBe(200);
    expect(all.body.opportunities).toEqual(engine1.body.opportunities);
    expect(all.body.ctrCurve).toEqual(engine1.body.ctrCurve);
    const [warning, ...more] = unavailable(all.body);
    expect(more).toEqual([]);
    expect(warning!.message).toMatch(/^engine2 has data from \d{4}-\d{2}-\d{2} on, so the comparison range .* is not covered: it is left out/);
    expect(unavailable(engine1.body)).toEqual([]);
  }, SLOW);

  it('no engine covering the range before: nothing is called lost, losing or emerging against it', async () => {
    // 100 days ending 400 days ago: the range before starts ~600 days ago, before engine1's 16 months.
    const old = `custom_${daysAgo(499)}_${daysAgo(400)}`;
    const { status, body } = await rt.get(`/api/v1/metrics/northwind-journal/insights/search-opportunities?period=${old}&sp=engine1`);
    expect(status).toBe(200);
    const opportunities = body.opportunities as { kind: string; emerging?: boolean; previousClicks?: number }[];
    expect(opportunities.filter((o) => o.kind === 'losing_clicks' || o.kind === 'lost_query')).toEqual([]);
    expect(opportunities.filter((o) => o.emerging !== undefined || o.previousClicks !== undefined)).toEqual([]);
    expect(opportunities.some((o) => o.kind === 'low_ctr')).toBe(true);
    expect(unavailable(body).map((w) => w.message)).toEqual([expect.stringMatching(/^engine1 has data from \d{4}-\d{2}-\d{2} on/)]);
  }, SLOW);
});

describe('anomalies whose baseline reaches before the provider has data', () => {
  it('days before the first day are no baseline (never 0s), and the warning says so', async () => {
    // The property starts on 2021-01-01: its first day must not read as a jump from a baseline of zeros.
    const { status, body } = await rt.get('/api/v1/metrics/tiny-saas/insights/anomalies?period=custom_2020-12-15_2021-03-31');
    expect(status).toBe(200);
    const anomalies = body.anomalies as { date: string; expected: number }[];
    expect(anomalies.filter((a) => a.expected === 0 || a.date < '2021-01-01')).toEqual([]);
    expect(unavailable(body).map((w) => w.message)).toEqual([expect.stringMatching(/^analytics has data from 2021-01-01 on, so the comparison range 2020-11-17 – 2020-12-14 is not covered: days before 2021-01-01 are no baseline/)]);
  }, SLOW);

  it('a baseline inside the history gives no warning', async () => {
    const { body } = await rt.get('/api/v1/metrics/tiny-saas/insights/anomalies?period=custom_2022-01-01_2022-03-31');
    expect(unavailable(body)).toEqual([]);
  }, SLOW);
});
