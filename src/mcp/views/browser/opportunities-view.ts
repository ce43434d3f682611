// The search-opportunities view (find_search_opportunities): every opportunity with a bar of its clicks at stake,
// filterable by kind and sortable; a query or page opens what ranks with it (get_search_breakdown filtered to it).
// Runs in the browser (serialized into the view document): uses only its parameter and browser globals.
import type { View, ViewCall, ViewKit } from './boot.ts';
import type { Column } from './tables.ts';

type Opportunity = {
  kind: string;
  query?: string;
  page?: string;
  pages?: string[];
  impressions: number;
  clicks: number;
  ctr?: number;
  expectedCtr?: number;
  position: number | null;
  previousClicks?: number;
  previousPosition?: number | null;
  emerging?: boolean;
  clicksAtStake: number;
};

export function opportunitiesView(kit: ViewKit): View {
  const { dom, fmt, layout } = kit;
  const { h } = dom;
  const KINDS: Record<string, string> = { low_ctr: 'Low CTR', losing_clicks: 'Losing clicks', lost_query: 'Lost queries', cannibalisation: 'Cannibalisation' };
  let kind = 'all';

  function render(body: Record<string, unknown>, call: ViewCall): void {
    const all = (body.opportunities as Opportunity[]) ?? [];
    const period = (body.period as { name?: string } | undefined)?.name ?? '28days';
    const base = { project: body.project, period, sp: body.sp ?? 'all', brand: body.brand ?? call.args.brand ?? 'all' };
    const again = (changes: Record<string, unknown>) => void kit.load('find_search_opportunities', { ...base, ...changes });
    if (kind !== 'all' && !all.some((o) => o.kind === kind)) kind = 'all';
    const shown = kind === 'all' ? all : all.filter((o) => o.kind === kind);
    const detail = h('section', { attrs: { 'aria-live': 'polite' } });

    layout.title.textContent = 'Search opportunities';
    layout.subtitle.textContent = kit.describe(body);
    kit.setControls([
      kit.select('Queries', [{ value: 'all', label: 'All queries' }, { value: 'nonbrand', label: 'Non-brand' }, { value: 'brand', label: 'Brand' }], String(base.brand), (brand) => again({ brand })),
      kit.periodSelect(period, (p) => again({ period: p })),
      kit.select('Search engine', [{ value: 'all', label: 'Both engines' }, { value: 'engine1', label: 'engine1 (Google)' }, { value: 'engine2', label: 'engine2 (Bing)' }], String(base.sp), (sp) => again({ sp })),
    ]);

    const open = async (o: Opportunity) => {
      const by = o.query === undefined ? 'query' : 'page';
      const on = o.query === undefined ? `page==${escape(o.page ?? '')}` : `query==${escape(o.query)}`;
      const subject = o.query ?? o.page ?? '';
      detail.replaceChildren(h('p', { class: 'status', text: `Loading what ranks for “${subject}”…` }));
      const answer = await kit.fetch('get_search_breakdown', { project: base.project, period, sp: base.sp, dimension: by, filter: on, limit: 10 });
      if ('error' in answer) {
        detail.replaceChildren(h('p', { class: 'error', text: answer.error }));
        return;
      }
      const rows = (answer.body.rows as Record<string, unknown>[]) ?? [];
      const figures = ['clicks', 'impressions', 'ctr', 'position'].map((m) => ({ key: m, label: m, numeric: true, value: (r: Record<string, unknown>) => r[m] as number | null, text: (v: unknown) => fmt.metric(m, v as number) }));
      detail.replaceChildren(
        h('h2', { text: `${by === 'page' ? 'Pages' : 'Queries'} for “${subject}”` }),
        kit.tables.sortable({ caption: `${by === 'page' ? 'Pages ranking for' : 'Queries of'} ${subject}`, rows, columns: [{ key: by, label: by, value: (r: Record<string, unknown>) => String(r[by] ?? '') }, ...figures] }),
      );
    };

    const max = Math.max(1, ...shown.map((o) => o.clicksAtStake));
    const columns: Column<Opportunity>[] = [
      { key: 'subject', label: 'Query or page', value: (o) => o.query ?? o.page ?? '', cell: (o) => h('button', { class: 'link', text: o.query ?? path(o.page ?? ''), attrs: { type: 'button', title: o.query === undefined ? 'Show the queries of this page' : 'Show the pages ranking for this query' }, on: { click: () => void open(o) } }) },
      { key: 'kind', label: 'Kind', value: (o) => o.kind, text: (v, o) => `${KINDS[String(v)] ?? String(v)}${o.emerging ? ' (emerging)' : ''}` },
      { key: 'clicksAtStake', label: 'Clicks at stake', numeric: true, value: (o) => o.clicksAtStake, cell: (o) => [kit.tables.bar([{ fraction: o.clicksAtStake / max, className: 'stake' }]), h('span', { class: 'value', text: fmt.number(o.clicksAtStake) })] },
      { key: 'clicks', label: 'Clicks', numeric: true, value: (o) => o.clicks, text: (v, o) => `${fmt.number(v as number)}${o.previousClicks !== undefined ? ` (was ${fmt.number(o.previousClicks)})` : ''}` },
      { key: 'impressions', label: 'Impressions', numeric: true, value: (o) => o.impressions, text: (v) => fmt.number(v as number) },
      { key: 'ctr', label: 'CTR', numeric: true, value: (o) => o.ctr, text: (v, o) => `${fmt.metric('ctr', v as number | undefined)}${o.expectedCtr !== undefined ? ` (usual ${fmt.metric('ctr', o.expectedCtr)})` : ''}` },
      { key: 'position', label: 'Position', numeric: true, value: (o) => o.position, text: (v, o) => `${fmt.metric('position', v as number | null)}${o.previousPosition !== undefined && o.previousPosition !== null ? ` (was ${fmt.metric('position', o.previousPosition)})` : ''}` },
    ];
    const counts = Object.keys(KINDS).map((k) => [k, all.filter((o) => o.kind === k).length] as const).filter(([, n]) => n > 0);
    const chip = (value: string, label: string) => h('button', { class: 'chip', text: label, attrs: { type: 'button', 'aria-pressed': String(kind === value) }, on: { click: () => ((kind = value), render(body, call)) } });
    const stake = all.reduce((sum, o) => sum + o.clicksAtStake, 0);
    dom.replace(layout.content, 
      h('p', { class: 'headline', text: `${fmt.number(stake)} clicks at stake in ${all.length} opportunities` }),
      h('div', { class: 'chips', attrs: { role: 'group', 'aria-label': 'Kind' } }, chip('all', `All (${all.length})`), ...counts.map(([k, n]) => chip(k, `${KINDS[k]} (${n})`))),
      shown.length
        ? kit.tables.sortable({ caption: 'Opportunities, largest clicks at stake first; select a query or page to see what ranks with it', columns, rows: shown, sort: { key: 'clicksAtStake', descending: true }, limit: 15 })
        : h('p', { class: 'note', text: 'No opportunity found in this period.' }),
      detail,
      kit.warnings(body),
    );
  }

  const escape = (value: string) => value.replace(/[\\,;]/g, '\\$&');
  /** Pages are full URLs of the site; the path is what tells them apart. */
  const path = (url: string) => url.replace(/^https?:\/\/[^/]+/, '') || url;

  return { render };
}
