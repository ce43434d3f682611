// The breakdown view (get_site_breakdown, get_search_breakdown): a sortable table with a bar per figure; search
// bars split engine1 and engine2 with each engine's figure beside it. A row's name drills into it (the same tool,
// filtered to that row, by another dimension). Runs in the browser (serialized into the view document): uses only
// its parameter and browser globals.
import type { View, ViewCall, ViewKit } from './boot.ts';
import type { Column } from './tables.ts';

type Compared = { value: number | null; previous?: number | null; deltaPct?: number | null };
type Row = Record<string, unknown>;

export function breakdownView(kit: ViewKit): View {
  const { dom, fmt, layout } = kit;
  const { h } = dom;
  const SITE_DIMENSIONS = ['sessionDefaultChannelGroup', 'country', 'deviceCategory', 'landingPage', 'pagePath', 'sessionSource'];
  const SEARCH_DIMENSIONS = ['query', 'page', 'country', 'device'];
  const SEARCH_METRICS = ['clicks', 'impressions', 'ctr', 'position'];
  const ENGINES = ['engine1', 'engine2'];
  let drillBy: string | undefined;

  function render(body: Record<string, unknown>, call: ViewCall): void {
    const search = call.name === 'get_search_breakdown' || typeof body.sp === 'string';
    const tool = search ? 'get_search_breakdown' : 'get_site_breakdown';
    const dimension = String(body.dimension);
    const metrics = search ? SEARCH_METRICS : ((body.metrics as string[]) ?? []);
    const rows = (body.rows as Row[]) ?? [];
    const period = (body.period as { name?: string } | undefined)?.name ?? '28days';
    const args: Record<string, unknown> = { ...call.args, project: body.project, dimension, period };
    const dimensions = (search ? SEARCH_DIMENSIONS : SITE_DIMENSIONS).filter((d) => d !== dimension);
    if (!drillBy || drillBy === dimension) drillBy = dimensions[0];
    const again = (changes: Record<string, unknown>) => void kit.load(tool, { ...args, ...changes });

    layout.title.textContent = `${search ? 'Search' : 'Traffic'} by ${dimension}`;
    layout.subtitle.textContent = kit.describe(body);
    kit.setControls([
      kit.periodSelect(period, (p) => again({ period: p })),
      search
        ? kit.select('Search engine', [{ value: 'all', label: 'Both engines' }, { value: 'engine1', label: 'engine1 (Google)' }, { value: 'engine2', label: 'engine2 (Bing)' }], String(body.sp ?? 'all'), (sp) => again({ sp }))
        : kit.select('Compare with', [{ value: 'none', label: 'No comparison' }, { value: 'previous', label: 'Previous period' }, { value: 'year', label: 'A year earlier' }], (body.period as { previous?: unknown }).previous ? String(args.compare ?? 'previous') : 'none', (compare) => again({ compare })),
      kit.select('Drill into a row by', dimensions.map((d) => ({ value: d, label: d })), drillBy ?? '', (d) => {
        drillBy = d;
      }),
    ]);

    const drill = (value: string) => {
      const clause = `${dimension}==${value.replace(/[\\,;]/g, '\\$&')}`;
      const filter = typeof args.filter === 'string' && args.filter ? `${args.filter};${clause}` : clause;
      again({ dimension: drillBy, filter, offset: undefined, order: undefined });
    };
    const columns: Column<Row>[] = [
      {
        key: dimension,
        label: dimension,
        value: (row) => String(row[dimension] ?? ''),
        cell: (row) => (dimension === 'date' ? String(row[dimension]) : h('button', { class: 'link', text: String(row[dimension] ?? '(not set)'), attrs: { type: 'button', title: `Break ${String(row[dimension])} down by ${drillBy}` }, on: { click: () => drill(String(row[dimension])) } })),
      },
      ...metrics.map((metric) => metricColumn(metric, rows, search)),
    ];
    const shown = `${fmt.number(rows.length)} of ${fmt.number(typeof body.totalRows === 'number' ? body.totalRows : rows.length)} ${dimension} values`;
    dom.replace(layout.content, 
      typeof args.filter === 'string' && args.filter
        ? h('p', { class: 'note' }, `Filtered to ${args.filter}. `, h('button', { class: 'link', text: 'Remove the filter', attrs: { type: 'button' }, on: { click: () => again({ filter: undefined }) } }))
        : null,
      search && String(body.sp ?? 'all') === 'all'
        ? h('ul', { class: 'legend', attrs: { 'aria-hidden': 'true' } }, ...ENGINES.map((e) => h('li', {}, h('span', { class: `swatch ${e}` }), e === 'engine1' ? 'engine1 (Google)' : 'engine2 (Bing)')))
        : null,
      kit.tables.sortable({ caption: `${search ? 'Search figures' : 'Metrics'} by ${dimension}; select a name to drill into it`, columns, rows, note: `Showing ${shown}. Select a column heading to sort.` }),
      kit.warnings(body),
    );
  }

  function metricColumn(metric: string, rows: Row[], search: boolean): Column<Row> {
    const raw = (row: Row) => row[metric] as number | Compared | undefined;
    const value = (row: Row) => {
      const v = raw(row);
      return typeof v === 'object' && v !== null ? v.value : (v ?? null);
    };
    const max = Math.max(0, ...rows.map((r) => value(r) ?? 0));
    const barred = !fmt.isRate(metric) && metric !== 'position' && max > 0;
    return {
      key: metric,
      label: metric,
      numeric: true,
      value,
      cell: (row) => {
        const v = value(row);
        const compared = raw(row);
        const byEngine = search ? (row.byProvider as Record<string, Record<string, number | null>> | undefined) : undefined;
        const parts = byEngine && barred ? ENGINES.filter((e) => byEngine[e]).map((e) => ({ fraction: (byEngine[e]![metric] ?? 0) / max, className: e })) : [{ fraction: (v ?? 0) / max, className: 'current' }];
        return [
          barred ? kit.tables.bar(parts) : null,
          h('span', { class: barred ? 'value' : undefined, text: fmt.metric(metric, v) }),
          typeof compared === 'object' && compared !== null && compared.deltaPct !== undefined && compared.deltaPct !== null
            ? h('span', { class: `delta ${compared.deltaPct >= 0 ? 'up' : 'down'}`, text: `${fmt.signed(compared.deltaPct, true)} vs ${fmt.metric(metric, compared.previous)}` })
            : null,
          byEngine ? h('span', { class: 'delta', text: ENGINES.filter((e) => byEngine[e]).map((e) => `${e} ${fmt.metric(metric, byEngine[e]![metric])}`).join(' · ') }) : null,
        ];
      },
    };
  }

  return { render };
}
