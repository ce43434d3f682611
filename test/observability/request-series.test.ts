// The bound per-request series render exactly what prom-client's own Counter and Histogram render for the same
// observations (bounds inclusive, +Inf, sums), so the /metrics contract does not depend on which one counts.
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createRequestSeries } from '../../src/observability/request-series.ts';

const BUCKETS = [0.005, 0.01, 0.1, 1];
const COUNTER = { name: 'x_requests_total', help: 'Requests.' };
const HISTOGRAM = { name: 'x_duration_seconds', help: 'Durations.' };

/** Sample lines with their labels sorted, as a set: label order within a line carries no meaning. */
function normalised(text: string): string[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const match = /^([a-z_]+)(?:\{(.*)\})? (.+)$/.exec(line);
      if (line.startsWith('#') || !match) return line;
      const labels = (match[2] ?? '').split(/,(?=[a-z_]+=")/).filter(Boolean).sort().join(',');
      return `${match[1]}{${labels}} ${match[3]}`;
    })
    .sort();
}

describe('bound request series', () => {
  const observations: [Record<string, string>, number][] = [
    [{ method: 'GET', route: '/a', status_class: '2xx' }, 0],
    [{ method: 'GET', route: '/a', status_class: '2xx' }, 0.005], // on a bound: counted in it
    [{ method: 'GET', route: '/a', status_class: '2xx' }, 0.0051],
    [{ method: 'GET', route: '/a', status_class: '2xx' }, 0.5],
    [{ method: 'GET', route: '/a', status_class: '4xx' }, 3], // above every bound: +Inf only
    [{ method: 'POST', route: '/b "quoted"', status_class: '5xx' }, 1],
  ];

  it("renders what prom-client's Counter and Histogram render for the same observations", async () => {
    const ours = new Registry();
    const series = createRequestSeries({ registry: ours, counter: COUNTER, histogram: { ...HISTOGRAM, buckets: BUCKETS } });
    const reference = new Registry();
    const labelNames = ['method', 'route', 'status_class'];
    const counter = new Counter({ ...COUNTER, labelNames, registers: [reference] });
    const histogram = new Histogram({ ...HISTOGRAM, labelNames, buckets: BUCKETS, registers: [reference] });
    for (const [labels, seconds] of observations) {
      series.series(labels).observe(seconds);
      counter.inc(labels);
      histogram.observe(labels, seconds);
    }
    const text = await ours.metrics();
    expect(normalised(text)).toEqual(normalised(await reference.metrics()));
    expect(text).toContain('x_duration_seconds_bucket{method="GET",route="/a",status_class="2xx",le="0.005"} 2');
    expect(text).toContain('x_duration_seconds_bucket{method="GET",route="/a",status_class="4xx",le="+Inf"} 1');
    expect(text).toContain('x_requests_total{method="GET",route="/a",status_class="2xx"} 4');
  });

  it('returns the same series for the same labels, zeroed by a registry reset and still counting', async () => {
    const registry = new Registry();
    const series = createRequestSeries({ registry, counter: COUNTER, histogram: { ...HISTOGRAM, buckets: BUCKETS } });
    const labels = { method: 'GET', route: '/a', status_class: '2xx' };
    const kept = series.series(labels);
    expect(series.series({ ...labels })).toBe(kept);
    kept.observe(0.2);
    kept.observe(0.3);
    expect(await registry.metrics()).toContain('x_requests_total{method="GET",route="/a",status_class="2xx"} 2');
    registry.resetMetrics();
    const zeroed = await registry.metrics();
    expect(zeroed).toContain('x_requests_total{method="GET",route="/a",status_class="2xx"} 0');
    expect(zeroed).toContain('x_duration_seconds_bucket{method="GET",route="/a",status_class="2xx",le="+Inf"} 0');
    expect(zeroed).toContain('x_duration_seconds_sum{method="GET",route="/a",status_class="2xx"} 0');
    kept.observe(0.2);
    expect(await registry.metrics()).toContain('x_duration_seconds_count{method="GET",route="/a",status_class="2xx"} 1');
  });
});
