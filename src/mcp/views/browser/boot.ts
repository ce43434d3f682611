// Starts a view: connects to the host, applies its theme, renders each tool result, and runs the tool calls the
// view's controls make (through the host, so the user's own credential and scopes apply). Runs in the browser:
// serialized into the view document with the kit's factories as arguments, so it uses nothing else of this module.
import type { Bridge, HostContext, ToolResult } from './bridge.ts';
import type { Charts } from './charts.ts';
import type { Dom, Format } from './dom.ts';
import type { Tables } from './tables.ts';

export interface ViewCall {
  /** The tool that answered (from the host's toolInfo or the view's own call); undefined if the host did not say. */
  name: string | undefined;
  args: Record<string, unknown>;
}

export interface Layout {
  title: HTMLElement;
  subtitle: HTMLElement;
  controls: HTMLElement;
  content: HTMLElement;
}

export interface ViewKit {
  dom: Dom;
  fmt: Format;
  tables: Tables;
  charts: Charts;
  layout: Layout;
  /** Calls a tool through the host and renders its answer; errors are shown, the last answer stays. */
  load(name: string, args: Record<string, unknown>): Promise<void>;
  /** A tool call whose answer the view uses itself (an overlay, a drill-down); the view words a failure itself. */
  fetch(name: string, args: Record<string, unknown>): Promise<{ body: Record<string, unknown> } | { error: string }>;
  select(label: string, options: { value: string; label: string }[], value: string, onChange: (value: string) => void): HTMLElement;
  /** The period control: the usual rolling periods, plus the one shown when it is another (a custom range). */
  periodSelect(value: string, onChange: (value: string) => void): HTMLElement;
  /** Replaces the controls; the one that had focus (by its label) keeps it, so keyboard users stay in place. */
  setControls(controls: HTMLElement[]): void;
  /** The answer's resolved period, project and comparison in one line. */
  describe(body: Record<string, unknown>): string;
  warnings(body: Record<string, unknown>): HTMLElement | null;
}

export interface View {
  render(body: Record<string, unknown>, call: ViewCall): void;
}

export interface KitParts {
  createBridge(win: Window, appInfo: { name: string; version: string }): Bridge;
  createDom(doc: Document): Dom;
  createFormat(locale: string | undefined): Format;
  createTables(dom: Dom): Tables;
  createCharts(dom: Dom, win: Window): Charts;
}

export function bootView(parts: KitParts, makeView: (kit: ViewKit) => View, appName: string): void {
  const doc = document;
  const bridge = parts.createBridge(window, { name: appName, version: '1' });
  const dom = parts.createDom(doc);
  const { h } = dom;
  const layout: Layout = { title: h('h1', { text: 'Siteline' }), subtitle: h('p', { class: 'sub' }), controls: h('div', { class: 'controls' }), content: h('div', { class: 'content' }) };
  const status = h('p', { class: 'status', attrs: { role: 'status' } });
  const alert = h('p', { class: 'error', attrs: { role: 'alert' } });
  const main = h('main', { attrs: { 'aria-busy': 'false' } }, h('header', {}, layout.title, layout.subtitle), layout.controls, status, alert, layout.content);
  doc.body.replaceChildren(main);

  let context: HostContext = {};
  let args: Record<string, unknown> = {};
  let view: View | undefined;
  let kit: ViewKit | undefined;
  let waiting: ToolResult | undefined;

  function applyContext(next: HostContext): void {
    context = { ...context, ...next };
    const root = doc.documentElement;
    if (next.theme) {
      root.dataset.theme = next.theme;
      root.style.colorScheme = next.theme;
    }
    for (const [name, value] of Object.entries(next.styles?.variables ?? {})) if (value !== undefined && name.startsWith('--')) root.style.setProperty(name, value);
  }

  const errorText = (result: ToolResult) => (result.content ?? []).map((c) => c.text ?? '').join(' ').trim() || 'The tool call failed.';
  let inflight = 0;
  const busy = (on: boolean, text = '') => {
    inflight = Math.max(0, inflight + (on ? 1 : -1));
    main.setAttribute('aria-busy', String(inflight > 0));
    status.textContent = inflight > 0 ? 'Loading…' : text;
  };

  async function call(name: string, callArgs: Record<string, unknown>): Promise<{ body: Record<string, unknown> } | { error: string }> {
    busy(true, 'Loading…');
    try {
      // Unset arguments are left out rather than sent empty (the tools' schemas are strict).
      const given = Object.fromEntries(Object.entries(callArgs).filter(([, v]) => v !== undefined && v !== null && v !== ''));
      const result = await bridge.callTool(name, given);
      return result.isError || !result.structuredContent ? { error: errorText(result) } : { body: result.structuredContent };
    } catch (error) {
      return { error: `The host did not run ${name}: ${error instanceof Error ? error.message : String(error)}` };
    } finally {
      busy(false);
    }
  }

  function show(result: ToolResult, name: string | undefined): void {
    if (!view) {
      waiting = result;
      return;
    }
    if (result.isError || !result.structuredContent) {
      alert.textContent = errorText(result);
      return;
    }
    alert.textContent = '';
    view.render(result.structuredContent, { name, args });
  }

  bridge
    .connect({
      toolInput: (given) => {
        args = given;
      },
      toolResult: (result) => show(result, context.toolInfo?.tool?.name),
      toolCancelled: (reason) => {
        status.textContent = `The tool call was cancelled: ${reason}`;
      },
      contextChanged: applyContext,
    })
    .then((given) => {
      applyContext(given);
      const fmt = parts.createFormat(context.locale);
      const period = (body: Record<string, unknown>) => body.period as { start?: string; end?: string; previous?: { start: string; end: string } } | undefined;
      kit = {
        dom,
        fmt,
        tables: parts.createTables(dom),
        charts: parts.createCharts(dom, window),
        layout,
        async load(name, callArgs) {
          alert.textContent = '';
          const answer = await call(name, callArgs);
          if ('error' in answer) alert.textContent = answer.error;
          else if (view) {
            args = callArgs;
            view.render(answer.body, { name, args });
          }
        },
        fetch: call,
        select(label, options, value, onChange) {
          const id = dom.id('control');
          const known = options.some((o) => o.value === value);
          const select = h('select', { attrs: { id, 'data-label': label }, on: { change: (event) => onChange((event.target as HTMLSelectElement).value) } }, ...(known ? [] : [h('option', { text: value, attrs: { value } })]), ...options.map((o) => h('option', { text: o.label, attrs: { value: o.value } })));
          (select as HTMLSelectElement).value = value;
          return h('div', { class: 'control' }, h('label', { text: label, attrs: { for: id } }), select);
        },
        periodSelect(value, onChange) {
          const names: [string, string][] = [
            ['7days', 'Last 7 days'], ['28days', 'Last 28 days'], ['90days', 'Last 90 days'], ['180days', 'Last 180 days'], ['365days', 'Last 365 days'],
            ['month_to_date', 'Month to date'], ['last_month', 'Last month'], ['quarter_to_date', 'Quarter to date'], ['last_quarter', 'Last quarter'], ['year_to_date', 'Year to date'], ['last_year', 'Last year'],
          ];
          const custom = /^custom_(\d{4}-\d{2}-\d{2})_(\d{4}-\d{2}-\d{2})$/.exec(value);
          if (custom) names.push([value, `${custom[1]} – ${custom[2]}`]);
          return kit!.select('Period', names.map(([v, label]) => ({ value: v, label })), value, onChange);
        },
        setControls(controls) {
          const focused = doc.activeElement;
          const label = focused && layout.controls.contains(focused) ? (focused.getAttribute('data-label') ?? focused.textContent) : null;
          layout.controls.replaceChildren(...controls);
          if (label === null) return;
          const again = [...layout.controls.querySelectorAll<HTMLElement>('select, button')].find((el) => (el.getAttribute('data-label') ?? el.textContent) === label);
          again?.focus();
        },
        describe(body) {
          const p = period(body);
          const bits = [typeof body.project === 'string' ? body.project : '', p?.start ? `${p.start} – ${p.end}` : ''];
          if (p?.previous) bits.push(`compared with ${p.previous.start} – ${p.previous.end}`);
          return bits.filter(Boolean).join(' · ');
        },
        warnings(body) {
          const list = ((body.meta as { warnings?: { message: string }[] } | undefined)?.warnings ?? []).map((w) => h('li', { text: w.message }));
          return list.length ? h('details', { class: 'warnings' }, h('summary', { text: `${list.length} note${list.length > 1 ? 's' : ''} on the data` }), h('ul', {}, ...list)) : null;
        },
      };
      view = makeView(kit);
      if (waiting) show(waiting, context.toolInfo?.tool?.name);
    })
    .catch((error: unknown) => {
      alert.textContent = `This view could not connect to its host: ${error instanceof Error ? error.message : String(error)}`;
    });
}
