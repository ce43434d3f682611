// The timeseries view (get_site_timeseries, get_search_timeseries, find_anomalies): the metric over time, the
// comparison period as a dashed line, and the days find_anomalies flags marked on the line and listed. A series
// asks find_anomalies for its markers; an anomalies answer asks for its series. Runs in the browser (serialized
// into the view document): uses only its parameter and browser globals.
import type { View, ViewCall, ViewKit } from './boot.ts';

type Point = { date?: string; time?: string; value?: number | { value: number | null; previous?: number | null }; [metric: string]: unknown };
type Anomaly = { date: string; hour?: string; observed: number; expected: number; direction: 'up' | 'down'; kind?: string; segment?: { dimension: string; value: string } };

export function timeseriesView(kit: ViewKit): View {
  const { dom, fmt, layout } = kit;
  const { h } = dom;
  const SITE_METRICS = ['sessions', 'activeUsers', 'newUsers', 'screenPageViews', 'engagementRate', 'bounceRate', 'keyEvents', 'eventCount'];
  const SEARCH_METRICS = ['clicks', 'impressions', 'ctr', 'position'];
  const COMPARES = [['none', 'No comparison'], ['previous', 'Previous period'], ['year', 'A year earlier']];
  const options = (pairs: string[][]) => pairs.map(([value, label]) => ({ value: value!, label: label! }));
  const metricOptions = (names: string[]) => names.map((m) => ({ value: m, label: m }));
  let shown = 0;
  // get_search_timeseries answers all four search metrics at once: which one is drawn is the view's choice.
  let searchMetric = 'clicks';

  const periodName = (body: Record<string, unknown>) => (body.period as { name?: string } | undefined)?.name ?? '28days';
  const isSearchMetric = (metric: string) => SEARCH_METRICS.includes(metric);

  function render(body: Record<string, unknown>, call: ViewCall): void {
    const draw = ++shown;
    if (call.name === 'find_anomalies' || Array.isArray(body.anomalies)) {
      void fromAnomalies(body, draw);
      return;
    }
    const search = call.name === 'get_search_timeseries' || typeof body.sp === 'string';
    const metric = search ? searchMetric : String(body.metric);
    // A comparison a year back also has a previous range: the arguments tell which one it was.
    const compare = typeof call.args.compare === 'string' ? call.args.compare : (body.period as { previous?: unknown } | undefined)?.previous ? 'previous' : 'none';
    const mode = { search, metric, compare };
    if (body.interval !== 'day') {
      show(body, mode, `find_anomalies judges days, and this series is per ${String(body.interval)}.`);
      return;
    }
    show(body, mode, undefined);
    void addAnomalies(body, mode, draw);
  }

  /** An anomalies answer: draw its metric's daily series, marked. */
  async function fromAnomalies(answer: Record<string, unknown>, draw: number): Promise<void> {
    const metric = String(answer.metric);
    const search = isSearchMetric(metric);
    const args = { project: answer.project, period: periodName(answer), ...(search ? { sp: 'engine1' } : { metric, interval: 'day' }) };
    const series = await kit.fetch(search ? 'get_search_timeseries' : 'get_site_timeseries', args);
    if (draw !== shown) return;
    if ('error' in series) {
      dom.replace(layout.content, h('p', { class: 'error', text: `The series could not be loaded: ${series.error}` }), anomalyList(answer.anomalies as Anomaly[], metric));
      return;
    }
    if (search) searchMetric = metric;
    show(series.body, { search, metric, compare: 'none', anomalies: true }, answer.anomalies as Anomaly[]);
  }

  async function addAnomalies(body: Record<string, unknown>, mode: Mode, draw: number): Promise<void> {
    const answer = await kit.fetch('find_anomalies', { project: body.project, metric: mode.metric, period: periodName(body) });
    if (draw !== shown) return;
    show(body, mode, 'error' in answer ? answer.error : (answer.body.anomalies as Anomaly[]));
  }

  interface Mode {
    search: boolean;
    metric: string;
    /** The site series' comparison: none, previous or year. */
    compare: string;
    /** The answer shown is find_anomalies': its controls call it again. */
    anomalies?: boolean;
  }

  /** Draws the series; `anomalies` is a list, a reason it is missing, or undefined while it loads. */
  function show(body: Record<string, unknown>, mode: Mode, anomalies: Anomaly[] | string | undefined): void {
    const points = (body.points as Point[]) ?? [];
    const { metric } = mode;
    const current = points.map((p) => valueOf(p, metric, mode.search));
    const previous = points.map((p) => (typeof p.value === 'object' && p.value !== null ? (p.value.previous ?? null) : null));
    const hasPrevious = previous.some((v) => v !== null);
    const labels = points.map((p) => p.date ?? p.time ?? '');
    const marks = Array.isArray(anomalies) ? anomalies : [];
    const markers = marks.flatMap((a) => {
      const index = labels.indexOf(a.date);
      const value = current[index];
      return index < 0 || value === null || value === undefined ? [] : [{ index, value, label: anomalyText(a, metric), className: a.direction }];
    });
    const total = mode.search ? (body.totals as Record<string, number> | undefined)?.[metric] : body.total;
    const totalValue = typeof total === 'object' && total !== null ? (total as { value: number }).value : (total as number | undefined);
    const delta = typeof total === 'object' && total !== null ? (total as { deltaPct?: number | null }).deltaPct : undefined;

    layout.title.textContent = `${metric}${mode.search ? ` (search, ${String(body.sp ?? 'all')})` : ''} over time`;
    layout.subtitle.textContent = kit.describe(body);
    kit.setControls(controls(body, mode));
    const label = `${metric} per ${String(body.interval ?? 'day')} from ${labels[0] ?? ''} to ${labels.at(-1) ?? ''}${hasPrevious ? ', with the comparison period dashed' : ''}; ${markers.length} anomal${markers.length === 1 ? 'y' : 'ies'} marked.`;
    const columns = [
      { key: 'date', label: 'Date', value: (i: number) => labels[i] },
      { key: 'value', label: metric, numeric: true, value: (i: number) => current[i], text: (v: unknown) => fmt.metric(metric, v as number) },
      ...(hasPrevious
        ? [
            { key: 'previous', label: 'Previous', numeric: true, value: (i: number) => previous[i], text: (v: unknown) => fmt.metric(metric, v as number) },
            { key: 'change', label: 'Change', numeric: true, value: (i: number) => change(current[i], previous[i]), text: (v: unknown) => fmt.signed(v as number, true) },
          ]
        : []),
      { key: 'anomaly', label: 'Anomaly', value: (i: number) => marks.filter((a) => a.date === labels[i]).map((a) => anomalyText(a, metric)).join('; ') },
    ];
    dom.replace(layout.content, 
      h('p', { class: 'headline' }, totalValue === undefined ? '' : fmt.metric(metric, totalValue), delta === undefined || delta === null ? '' : h('span', { class: delta >= 0 ? 'delta up' : 'delta down', text: `${fmt.signed(delta, true)} against the comparison period` })),
      h('ul', { class: 'legend', attrs: { 'aria-hidden': 'true' } }, h('li', {}, h('span', { class: 'swatch' }), 'This period'), hasPrevious ? h('li', {}, h('span', { class: 'swatch previous' }), 'Comparison period') : null, h('li', {}, h('span', { class: 'swatch up' }), h('span', { class: 'swatch down' }), 'Anomaly')),
      kit.charts.line({ label, labels, format: (v) => (fmt.isRate(metric) ? fmt.percent(v, 0) : fmt.compact(v)), markers, series: [...(hasPrevious ? [{ name: 'previous', className: 'previous', values: previous }] : []), { name: 'current', className: 'current', values: current }] }),
      typeof anomalies === 'string' ? h('p', { class: 'note', text: `Anomalies are not marked: ${anomalies}` }) : anomalies === undefined ? h('p', { class: 'note', text: 'Looking for anomalies…' }) : anomalyList(marks, metric),
      h('details', { class: 'data' }, h('summary', { text: 'The figures as a table' }), kit.tables.sortable({ caption: `${metric} by ${String(body.interval ?? 'day')}`, columns, rows: labels.map((_, i) => i) })),
      kit.warnings(body),
    );
  }

  function controls(body: Record<string, unknown>, mode: Mode): HTMLElement[] {
    const base = { project: body.project };
    const period = periodName(body);
    if (mode.anomalies) {
      const again = (changes: Record<string, unknown>) => void kit.load('find_anomalies', { ...base, metric: mode.metric, period, ...changes });
      return [kit.select('Metric', metricOptions([...SITE_METRICS, ...SEARCH_METRICS]), mode.metric, (metric) => again({ metric })), kit.periodSelect(period, (p) => again({ period: p }))];
    }
    if (mode.search) {
      const again = (changes: Record<string, unknown>) => void kit.load('get_search_timeseries', { ...base, period, sp: body.sp ?? 'all', ...changes });
      const redraw = (metric: string) => {
        searchMetric = metric;
        render(body, { name: 'get_search_timeseries', args: {} });
      };
      return [
        kit.select('Metric', metricOptions(SEARCH_METRICS), mode.metric, redraw),
        kit.periodSelect(period, (p) => again({ period: p })),
        kit.select('Search engine', [{ value: 'all', label: 'Both engines' }, { value: 'engine1', label: 'engine1 (Google)' }, { value: 'engine2', label: 'engine2 (Bing)' }], String(body.sp ?? 'all'), (sp) => again({ sp })),
      ];
    }
    const again = (changes: Record<string, unknown>) => void kit.load('get_site_timeseries', { ...base, metric: mode.metric, period, compare: mode.compare, ...changes });
    return [
      kit.select('Metric', metricOptions(SITE_METRICS), mode.metric, (metric) => again({ metric })),
      kit.periodSelect(period, (p) => again({ period: p })),
      kit.select('Compare with', options(COMPARES), mode.compare, (compare) => again({ compare })),
    ];
  }

  function anomalyList(anomalies: Anomaly[], metric: string): HTMLElement {
    if (!anomalies.length) return h('p', { class: 'note', text: 'No day in this period broke the metric’s weekday pattern.' });
    return h('ul', { class: 'anomalies', attrs: { 'aria-label': 'Anomalies' } }, ...anomalies.map((a) => h('li', { text: anomalyText(a, metric) })));
  }

  function anomalyText(a: Anomaly, metric: string): string {
    const where = a.segment ? ` in ${a.segment.value} (${a.segment.dimension})` : '';
    return `${a.hour ?? a.date}: ${a.kind ?? 'anomaly'} ${a.direction}${where}, ${fmt.metric(metric, a.observed)} against ${fmt.metric(metric, a.expected)} expected`;
  }

  function valueOf(point: Point, metric: string, search: boolean): number | null {
    if (search) return typeof point[metric] === 'number' ? (point[metric] as number) : null;
    const v = point.value;
    return typeof v === 'number' ? v : (v?.value ?? null);
  }

  const change = (now: number | null | undefined, before: number | null | undefined) => (now === null || now === undefined || !before ? null : (now - before) / before);

  return { render };
}
