// The change-explanation view (explain_change): the metric's move from the comparison period to this one as a
// waterfall over one dimension's drivers (their contributions add up to the dimension's part of the change, the
// values not listed and anything not attributed close the gap), significant drivers marked; the same figures as
// a table. Runs in the browser (serialized into the view document): uses only its parameter and browser globals.
import type { View, ViewCall, ViewKit } from './boot.ts';

type Driver = { dimension: string; value: string; contribution: number; share?: number | null; current?: number | null; previous?: number | null; significant: boolean; reason?: string; echoOf?: { value: string } };
type Dimension = { dimension: string; delta: number; unlisted: number; segments: number };
type Step = { label: string; from: number; to: number; kind: 'total' | 'current' | 'up' | 'down'; driver?: Driver; value: number };

export function changeView(kit: ViewKit): View {
  const { dom, fmt, layout } = kit;
  const { h } = dom;
  const METRICS = ['sessions', 'activeUsers', 'keyEvents', 'screenPageViews', 'engagementRate', 'bounceRate', 'clicks', 'impressions', 'ctr', 'position'];
  let chosen: string | undefined;

  function render(body: Record<string, unknown>, call: ViewCall): void {
    const metric = String(body.metric);
    const change = body.change as { value: number; previous: number; delta: number; deltaPct?: number | null };
    const drivers = (body.drivers as Driver[]) ?? [];
    const dimensions = (body.dimensions as Dimension[] | undefined) ?? [...new Set(drivers.map((d) => d.dimension))].map((dimension) => ({ dimension, delta: change.delta, unlisted: 0, segments: 0 }));
    if (!chosen || !dimensions.some((d) => d.dimension === chosen)) chosen = (drivers.find((d) => d.significant) ?? drivers[0])?.dimension ?? dimensions[0]?.dimension;
    const period = (body.period as { name?: string } | undefined)?.name ?? '7days';
    const compare = String(call.args.compare ?? 'previous');
    const again = (changes: Record<string, unknown>) => void kit.load('explain_change', { project: body.project, metric, period, compare, sp: call.args.sp, ...changes });

    layout.title.textContent = `What changed: ${metric}`;
    layout.subtitle.textContent = kit.describe(body);
    kit.setControls([
      kit.select('Metric', METRICS.map((m) => ({ value: m, label: m })), metric, (m) => again({ metric: m })),
      kit.periodSelect(period, (p) => again({ period: p })),
      kit.select('Compare with', [{ value: 'previous', label: 'Previous period' }, { value: 'year', label: 'A year earlier' }], compare, (c) => again({ compare: c })),
    ]);

    const dimension = dimensions.find((d) => d.dimension === chosen);
    const steps = dimension ? waterfall(change, dimension, drivers.filter((d) => d.dimension === dimension.dimension)) : [];
    const chips = h(
      'div',
      { class: 'chips', attrs: { role: 'group', 'aria-label': 'Drivers by' } },
      ...dimensions.map((d) => h('button', { class: 'chip', text: d.dimension, attrs: { type: 'button', 'aria-pressed': String(d.dimension === chosen) }, on: { click: () => ((chosen = d.dimension), render(body, call)) } })),
    );
    dom.replace(layout.content, 
      h('p', { class: 'headline' }, `${fmt.metric(metric, change.previous)} → ${fmt.metric(metric, change.value)} `, h('span', { class: change.delta >= 0 ? 'delta up' : 'delta down', text: `${fmt.signed(change.delta, fmt.isRate(metric))} (${fmt.signed(change.deltaPct, true)})` })),
      chips,
      chart(steps, metric),
      h('details', { class: 'data' }, h('summary', { text: 'The figures as a table' }), table(steps, metric)),
      kit.warnings(body),
    );
  }

  function waterfall(change: { value: number; previous: number; delta: number }, dimension: Dimension, drivers: Driver[]): Step[] {
    const steps: Step[] = [{ label: 'Comparison period', from: 0, to: change.previous, kind: 'total', value: change.previous }];
    let running = change.previous;
    const add = (label: string, amount: number, driver?: Driver) => {
      steps.push({ label, from: running, to: running + amount, kind: amount >= 0 ? 'up' : 'down', driver, value: amount });
      running += amount;
    };
    for (const driver of drivers) add(driver.value, driver.contribution, driver);
    const more = dimension.segments - drivers.length;
    if (dimension.unlisted !== 0) add(`Other values${more > 0 ? ` (${more} more)` : ''}`, dimension.unlisted);
    const rest = change.delta - dimension.delta;
    if (Math.abs(rest) > Math.abs(change.delta) * 1e-6 && rest !== 0) add(`Not attributed to a ${dimension.dimension}`, rest);
    steps.push({ label: 'This period', from: 0, to: change.value, kind: 'current', value: change.value });
    return steps;
  }

  function chart(steps: Step[], metric: string): HTMLElement {
    // The axis starts near the smallest running total rather than at 0, or the changes would be invisible slivers.
    const ends = steps.flatMap((s) => (s.kind === 'total' || s.kind === 'current' ? [s.to] : [s.from, s.to]));
    const min = Math.min(...ends);
    const max = Math.max(...ends);
    const range = max - min || Math.abs(max) || 1;
    const step = 10 ** Math.floor(Math.log10(range / 2));
    const lo = Math.floor((min - range * 0.25) / step) * step;
    const x = (v: number) => ((v - lo) / (max - lo || 1)) * 100;
    const rows = steps.map((s) => {
      const from = s.kind === 'total' || s.kind === 'current' ? lo : Math.min(s.from, s.to);
      const to = s.kind === 'total' || s.kind === 'current' ? s.to : Math.max(s.from, s.to);
      const span = h('span', { class: `span ${s.kind}` });
      span.style.left = `${x(from)}%`;
      span.style.width = `${Math.max(0.5, x(to) - x(from))}%`;
      const badge = s.driver ? h('span', { class: 'badge', text: s.driver.significant ? 'significant' : (s.driver.reason ?? 'not significant').replace('_', ' ') }) : null;
      const figure = s.kind === 'total' || s.kind === 'current' ? fmt.metric(metric, s.value) : `${fmt.signed(s.value, fmt.isRate(metric))}${s.driver?.share !== undefined && s.driver?.share !== null ? ` · ${fmt.percent(s.driver.share)} of the change` : ''}`;
      return h('li', {}, h('span', { class: 'label' }, s.driver?.significant ? h('strong', { text: s.label }) : s.label, badge), h('div', { class: 'track' }, span), h('span', { class: 'figure', text: figure }));
    });
    return h('figure', { attrs: { 'aria-label': `Waterfall of the change in ${metric}` } }, h('ol', { class: 'rows' }, ...rows), h('figcaption', { class: 'note', text: `Bars start at ${fmt.metric(metric, lo)}, not 0.` }));
  }

  function table(steps: Step[], metric: string): HTMLElement {
    const rate = fmt.isRate(metric);
    return kit.tables.sortable({
      caption: `Contributions to the change in ${metric}`,
      rows: steps,
      columns: [
        { key: 'label', label: 'Segment', value: (s: Step) => s.label },
        { key: 'value', label: 'Value or contribution', numeric: true, value: (s: Step) => s.value, text: (v: unknown, s: Step) => (s.driver || (s.kind !== 'total' && s.kind !== 'current') ? fmt.signed(v as number, rate) : fmt.metric(metric, v as number)) },
        { key: 'share', label: 'Share of change', numeric: true, value: (s: Step) => s.driver?.share, text: (v: unknown) => fmt.percent(v as number | undefined) },
        { key: 'previous', label: 'Previous', numeric: true, value: (s: Step) => s.driver?.previous, text: (v: unknown) => fmt.metric(metric, v as number | undefined) },
        { key: 'current', label: 'Current', numeric: true, value: (s: Step) => s.driver?.current, text: (v: unknown) => fmt.metric(metric, v as number | undefined) },
        { key: 'significant', label: 'Significant', value: (s: Step) => (s.driver ? (s.driver.significant ? 'yes' : `no (${s.driver.reason ?? ''}${s.driver.echoOf ? ` of ${s.driver.echoOf.value}` : ''})`) : '') },
      ],
    });
  }

  return { render };
}
