// Calendar periods through the endpoints: the days each covers in the project's zone, the previous calendar unit
// (or the same dates a year earlier) as the comparison, the same numbers as the equivalent custom ranges, and a
// compared timeseries whose points' previous still add up to total.previous when the two units differ in length.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALENDAR_PERIODS, CALENDAR_SPANS, calendarComparison, calendarRange } from '../../src/domain/calendar-periods.ts';
import { todayInZone } from '../../src/domain/time-zone.ts';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';

let rt: SandboxRuntime;
beforeAll(async () => {
  rt = await createSandboxRuntime();
});
afterAll(() => rt.dispose());

const PROJECT = 'tiny-saas';
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

async function zoneOf(project: string): Promise<string> {
  return (await rt.get(`/api/v1/projects/${project}`)).body.project.timezone;
}

describe('calendar periods', () => {
  it.each(CALENDAR_PERIODS)('%s: its days and the previous calendar unit, echoed with the name given', async (name) => {
    const zone = await zoneOf(PROJECT);
    const { status, body } = await rt.get(`/api/v1/metrics/${PROJECT}/summary?period=${name}&compare=previous`);
    expect(status, JSON.stringify(body)).toBe(200);
    // The clock may pass midnight between the two reads only in theory; the day is read after the answer.
    const days = calendarRange(CALENDAR_SPANS[name], todayInZone(zone, new Date()));
    const previous = calendarComparison(days, CALENDAR_SPANS[name], 'previous');
    expect(body.period).toEqual({ name, ...days, timezone: zone, previous: { start: previous.start, end: previous.end } });
  });

  it('last_month compared with the month before gives the numbers of the two months as custom ranges', async () => {
    const { body } = await rt.get(`/api/v1/metrics/${PROJECT}/summary?period=last_month&compare=previous`);
    const { period } = body as { period: { start: string; end: string; previous: { start: string; end: string } } };
    const current = await rt.get(`/api/v1/metrics/${PROJECT}/summary?period=custom_${period.start}_${period.end}&compare=none`);
    const before = await rt.get(`/api/v1/metrics/${PROJECT}/summary?period=custom_${period.previous.start}_${period.previous.end}&compare=none`);
    expect(body.metrics.sessions.value).toBe(current.body.metrics.sessions);
    expect(body.metrics.sessions.previous).toBe(before.body.metrics.sessions);
  });

  it('compare=year on month_to_date: the same calendar dates a year earlier, not weekday-aligned', async () => {
    const { body } = await rt.get(`/api/v1/metrics/${PROJECT}/summary?period=month_to_date&compare=year`);
    const { start, end, previous } = body.period as { start: string; end: string; previous: { start: string; end: string } };
    expect(previous.start).toBe(`${Number(start.slice(0, 4)) - 1}${start.slice(4)}`);
    expect(previous.end.slice(0, 7)).toBe(`${Number(end.slice(0, 4)) - 1}${end.slice(4, 7)}`);
  });

  it.each(['day', 'week', 'month'])('a compared timeseries of last_quarter by %s: the points’ previous add up to total.previous', async (interval) => {
    // Quarters differ in length (90 to 92 days): the comparison's extra days count in the last bucket.
    const { status, body } = await rt.get(`/api/v1/metrics/${PROJECT}/timeseries?metric=sessions&period=last_quarter&interval=${interval}&compare=previous`);
    expect(status, JSON.stringify(body)).toBe(200);
    const points = body.points as { value: { value: number; previous: number } }[];
    expect(sum(points.map((p) => p.value.previous))).toBe(body.total.previous);
    expect(sum(points.map((p) => p.value.value))).toBe(body.total.value);
  });

  it('search and insights take them too', async () => {
    const search = await rt.get(`/api/v1/metrics/${PROJECT}/search/summary?period=last_month&compare=previous&sp=engine1`);
    expect(search.status, JSON.stringify(search.body)).toBe(200);
    expect(search.body.period.name).toBe('last_month');
    const changes = await rt.get(`/api/v1/metrics/${PROJECT}/insights/changes?period=last_month&metric=sessions`);
    expect(changes.status, JSON.stringify(changes.body)).toBe(200);
    expect(changes.body.period.previous).toEqual(search.body.period.previous);
    // Anomalies judge the period's days against the weeks before it, whatever period names them.
    const anomalies = await rt.get(`/api/v1/metrics/${PROJECT}/insights/anomalies?period=last_quarter&metric=sessions`);
    expect(anomalies.status, JSON.stringify(anomalies.body)).toBe(200);
    expect(anomalies.body.period).toMatchObject({ name: 'last_quarter' });
    for (const a of anomalies.body.anomalies as { date: string }[]) expect(a.date >= anomalies.body.period.start && a.date <= anomalies.body.period.end).toBe(true);
  });

  it('refuses a near miss with the grammar in the message', async () => {
    const { status, body } = await rt.get(`/api/v1/metrics/${PROJECT}/summary?period=this_month`);
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'invalid_period', param: 'period' });
    expect(body.detail).toContain('month_to_date');
  });
});
