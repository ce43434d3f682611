// Sortable data tables and proportional bars for the views: every chart has a table with the same figures, and
// tables with bars are the chart. Runs in the browser (serialized into the view document): uses only its
// parameters and browser globals.
import type { Child, Dom } from './dom.ts';

export interface Column<Row> {
  key: string;
  label: string;
  numeric?: boolean;
  /** The raw value: what sorting uses and what the cell's data-value carries. */
  value(row: Row): number | string | null | undefined;
  /** The cell's content; defaults to `text(value)`. */
  cell?(row: Row): Child | Child[];
  text?(value: number | string | null | undefined, row: Row): string;
  /** Not sortable (a column of actions). */
  fixed?: boolean;
}

export interface TableOptions<Row> {
  caption: string;
  columns: Column<Row>[];
  rows: Row[];
  sort?: { key: string; descending: boolean };
  /** Shown under the table (how many rows of how many, units). */
  note?: string;
  /** Rows shown before a "Show all" button (sorting always covers every row). */
  limit?: number;
}

export interface Tables {
  /** A table in a keyboard-scrollable region; column headers sort the rows (aria-sort tells which). */
  sortable<Row>(options: TableOptions<Row>): HTMLElement;
  /** A bar as long as `fraction` (0–1) of its track, optionally split into parts (engines). */
  bar(parts: { fraction: number; className: string }[], label?: string): HTMLElement;
}

export function createTables(dom: Dom): Tables {
  const { h } = dom;
  const compare = (a: unknown, b: unknown) => {
    if (a === b) return 0;
    if (a === null || a === undefined) return 1;
    if (b === null || b === undefined) return -1;
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    return String(a).localeCompare(String(b));
  };

  function sortable<Row>(options: TableOptions<Row>): HTMLElement {
    let sort = options.sort;
    let limit = options.limit ?? Infinity;
    const body = h('tbody');
    const more = h('button', {
      class: 'chip',
      text: `Show all ${options.rows.length} rows`,
      attrs: { type: 'button' },
      on: {
        click: () => {
          limit = Infinity;
          fill();
        },
      },
    });
    const headers = new Map<string, HTMLElement>();

    const fill = () => {
      const rows = [...options.rows];
      const column = sort && options.columns.find((c) => c.key === sort!.key);
      if (column && sort) {
        const sign = sort.descending ? -1 : 1;
        rows.sort((a, b) => {
          const va = column.value(a);
          const vb = column.value(b);
          // Missing values stay last whichever way the column is sorted.
          if (va === null || va === undefined || vb === null || vb === undefined) return compare(va, vb);
          return sign * compare(va, vb);
        });
      }
      more.hidden = rows.length <= limit;
      body.replaceChildren(
        ...rows.slice(0, limit).map((row) =>
          h(
            'tr',
            {},
            ...options.columns.map((c, i) => {
              const value = c.value(row);
              const content = c.cell ? c.cell(row) : (c.text ? c.text(value, row) : String(value ?? '–'));
              const attrs = { 'data-key': c.key, 'data-value': value === null || value === undefined ? undefined : String(value), scope: i === 0 ? 'row' : undefined };
              return h(i === 0 ? 'th' : 'td', { class: c.numeric ? 'num' : undefined, attrs }, ...(Array.isArray(content) ? content : [content]));
            }),
          ),
        ),
      );
      for (const [key, th] of headers) th.setAttribute('aria-sort', sort?.key === key ? (sort.descending ? 'descending' : 'ascending') : 'none');
    };

    const head = h(
      'tr',
      {},
      ...options.columns.map((c) => {
        const th = h('th', { class: c.numeric ? 'num' : undefined, attrs: { scope: 'col' } });
        if (c.fixed) th.textContent = c.label;
        else {
          headers.set(c.key, th);
          th.appendChild(
            h('button', {
              class: 'sort',
              text: c.label,
              attrs: { type: 'button' },
              on: {
                click: () => {
                  sort = { key: c.key, descending: sort?.key === c.key ? !sort.descending : c.numeric === true };
                  fill();
                },
              },
            }),
          );
        }
        return th;
      }),
    );
    fill();
    const captionId = dom.id('caption');
    const table = h('table', {}, h('caption', { text: options.caption, attrs: { id: captionId } }), h('thead', {}, head), body);
    return h(
      'div',
      { class: 'table-block' },
      h('div', { class: 'table-scroll', attrs: { role: 'region', tabindex: 0, 'aria-labelledby': captionId } }, table),
      more,
      options.note ? h('p', { class: 'note', text: options.note }) : null,
    );
  }

  function bar(parts: { fraction: number; className: string }[], label?: string): HTMLElement {
    const track = h('span', { class: 'bar', attrs: { 'aria-hidden': 'true', title: label } });
    for (const part of parts) {
      const fill = h('span', { class: `bar-fill ${part.className}` });
      fill.style.width = `${Math.max(0, Math.min(1, part.fraction)) * 100}%`;
      track.appendChild(fill);
    }
    return track;
  }

  return { sortable, bar };
}
