// The project overview's markup: the view controls (period, comparison, chart metric and interval) and the active
// filters as removable chips; freshness, a compact data-source line and a refresh button; headline numbers (site and
// search) with their change; the main chart with the comparison line; breakdown, insight and realtime cards; funnels.
import { allows } from '../domain/access-policy.ts';
import { h, raw, type SafeHtml } from '../account/html.ts';
import { SOURCE_DISPLAY_NAMES, SOURCES } from '../domain/sources.ts';
import type { DataSourceRecord } from '../store/data-sources-repository.ts';
import type { ProjectRecord } from '../store/projects-repository.ts';
import { csrfField } from './layout.ts';
import { statusOf } from './project-pages.ts';
import type { Read } from './read-data.ts';
import { lineChart, type ChartPoint } from './svg-chart.ts';
import { breakdownCard, insightsCard, queriesCard, realtimeCard, SITE_CARDS, type CardContext, type RowsBody } from './overview-cards.ts';
import { CHART_METRICS, COMPARISONS, exportUrl, INTERVALS, overviewUrl, PERIODS, type OverviewState } from './overview-state.ts';

export interface Compared {
  value: number;
  previous?: number | null;
  deltaPct?: number | null;
}
export interface Meta {
  cache: string;
  fetchedAt: string;
  warnings?: { code: string; message: string }[];
}
export interface SummaryBody {
  period: { start: string; end: string; name: string; previous?: { start: string; end: string } };
  metrics: Record<string, number | Compared>;
  meta: Meta;
}
export interface TimeseriesBody {
  metric: string;
  period: { start: string; end: string; previous?: { start: string; end: string } };
  points: { date: string; value: number | Compared }[];
  meta: Meta;
}
export interface OverviewView {
  csrf: string;
  project: ProjectRecord;
  sources: DataSourceRecord[];
  googleConfigured: boolean;
  now: Date;
  state: OverviewState;
  summary: Read<SummaryBody>;
  search: Read<{ totals: Record<string, Compared | null>; meta: Meta }>;
  timeseries: Read<TimeseriesBody>;
  /** Breakdown, insight and realtime answers, by the overview operation's response key. */
  cards: Record<string, Read<unknown>>;
  funnels: { key: string; name: string; result: Read<{ completionRate: number; steps: { name: string; users: number }[] }> }[];
}

const HEADLINES: [string, string, Kind][] = [
  ['activeUsers', 'Users', 'count'],
  ['sessions', 'Sessions', 'count'],
  ['screenPageViews', 'Page views', 'count'],
  ['engagementRate', 'Engagement rate', 'fraction'],
  ['averageSessionDuration', 'Avg. session', 'seconds'],
  ['keyEvents', 'Key events', 'count'],
];

type Kind = 'count' | 'fraction' | 'seconds' | 'position';

export function formatValue(value: number, kind: Kind): string {
  if (kind === 'fraction') return `${(value * 100).toFixed(1)}%`;
  if (kind === 'position') return value.toFixed(1);
  if (kind === 'seconds') return `${Math.floor(value / 60)}m ${Math.round(value % 60)}s`;
  return Math.round(value).toLocaleString('en-US');
}

function ago(iso: string, now: Date): string {
  const minutes = Math.max(0, Math.round((now.getTime() - Date.parse(iso)) / 60_000));
  return minutes < 1 ? 'just now' : minutes < 120 ? `${minutes} min ago` : `${Math.round(minutes / 60)} h ago`;
}

const failure = (read: { ok: false; error: { message: string } }) => h`<p class="error">${read.error.message}</p>`;

function statusSection(view: OverviewView): SafeHtml {
  const sourcesUrl = `/dashboard/p/${encodeURIComponent(view.project.key)}/sources`;
  // Analytics and Search Console share one Google connection: one reconnect button for both.
  const firstGoogleError = SOURCES.find((s) => s !== 'engine2' && statusOf(view.sources, view.project.id, s).status === 'error');
  const items = SOURCES.map((source) => {
    const st = statusOf(view.sources, view.project.id, source);
    const action =
      source === firstGoogleError && view.googleConfigured
        ? h` <form class="inline" method="post" action="/dashboard/p/${encodeURIComponent(view.project.key)}/connect/google">${csrfField(view.csrf)}<button type="submit">Reconnect Google</button></form>`
        : st.status === 'not_connected' || (st.status === 'error' && (source === 'engine2' || !view.googleConfigured))
          ? h` <a href="${sourcesUrl}">${st.status === 'error' ? 'Fix' : 'Connect'} ${SOURCE_DISPLAY_NAMES[source]}</a>`
          : '';
    return h`<li>${SOURCE_DISPLAY_NAMES[source]}: <span class="status-${st.status}">${st.word}</span>${st.status === 'error' && st.record?.statusMessage ? h` — ${st.record.statusMessage}` : ''}${action}</li>`;
  });
  // One compact line under the controls: the space above the fold belongs to the numbers and the chart.
  return h`<section class="status-line" aria-labelledby="status-title"><h2 id="status-title" class="inline-title">Data sources</h2><ul class="inline-list">${items}</ul></section>`;
}

const SEARCH_HEADLINES: [string, string, 'count' | 'fraction' | 'position'][] = [
  ['clicks', 'Search clicks', 'count'],
  ['impressions', 'Impressions', 'count'],
  ['ctr', 'Click-through rate', 'fraction'],
  ['position', 'Avg. position', 'position'],
];

/** Cards for a summary's numbers; `attribute` names the figure for tests and scripts (`data-metric`, `data-search-metric`). */
function cards(
  metrics: Record<string, number | Compared | null>,
  headlines: [string, string, Kind][],
  attribute: string,
  uncovered: readonly { message: string }[],
): SafeHtml {
  return h`<div class="cards">${headlines.map(([name, label, kind]) => {
    const figure = metrics[name];
    if (figure === undefined) return '';
    // A figure without data (no search source answered, no impressions for a position) is shown as such.
    if (figure === null || (typeof figure !== 'number' && typeof figure.value !== 'number')) return h`<div class="card"><div class="label">${label}</div><div class="value">—</div><div class="muted">no data</div></div>`;
    const m: Compared = typeof figure === 'number' ? { value: figure } : figure;
    const pct = m.deltaPct;
    const change =
      pct === undefined || pct === null
        ? h`<span class="muted">${m.previous === null && uncovered.length > 0 ? 'no earlier data' : 'no comparison'}</span>`
        : h`<span class="${pct >= 0 ? 'up' : 'down'}">${pct >= 0 ? '▲' : '▼'} ${Math.abs(pct * 100).toFixed(1)}%</span> <span class="visually-hidden">${pct >= 0 ? 'up' : 'down'} versus the previous period</span>`;
    return h`<div class="card"><div class="label">${label}</div><div class="value" ${raw(`data-${attribute}`)}="${name}" data-raw="${String(m.value)}">${formatValue(m.value, kind)}</div><div>${change}</div></div>`;
  })}</div>`;
}

/** The API's own coverage decision: a range a provider's history does not reach is shown as such, never as 0. */
function uncoveredWarnings(meta: { warnings?: readonly { code: string; message: string }[] }): { message: string }[] {
  return (meta.warnings ?? []).filter((w) => w.code === 'comparison_unavailable');
}

function withCoverage(figures: SafeHtml, uncovered: readonly { message: string }[]): SafeHtml {
  return h`${figures}${uncovered.map((w) => h`<p class="hint" data-warning="comparison_unavailable">${w.message}</p>`)}`;
}

function headline(view: OverviewView): SafeHtml {
  if (!view.summary.ok) return failure(view.summary);
  const uncovered = uncoveredWarnings(view.summary.body.meta);
  return withCoverage(cards(view.summary.body.metrics, HEADLINES, 'metric', uncovered), uncovered);
}

function searchHeadline(view: OverviewView): SafeHtml {
  if (!view.search.ok) return failure(view.search);
  const uncovered = uncoveredWarnings(view.search.body.meta);
  return withCoverage(cards(view.search.body.totals, SEARCH_HEADLINES, 'search-metric', uncovered), uncovered);
}

const valueOf = (v: number | Compared): number => (typeof v === 'number' ? v : v.value);
const previousOf = (v: number | Compared): number | null | undefined => (typeof v === 'number' ? undefined : v.previous);

function mainChart(view: OverviewView): SafeHtml {
  const label = CHART_METRICS.find(([m]) => m === view.state.metric)?.[1] ?? view.state.metric;
  const kind: Kind = view.state.metric === 'engagementRate' ? 'fraction' : 'count';
  const comparing = COMPARISONS.find(([c]) => c === view.state.compare)?.[1] ?? '';
  const chart = view.timeseries.ok
    ? lineChart({
        id: 'chart-main',
        title: `${label} per ${view.state.interval}`,
        points: view.timeseries.body.points.map((p): ChartPoint => ({ label: p.date, value: valueOf(p.value), previous: previousOf(p.value) })),
        format: (v) => formatValue(v, kind),
        previousLabel: comparing.toLowerCase(),
      })
    : failure(view.timeseries);
  const switches = (list: readonly [string, string][], key: 'metric' | 'interval', name: string) =>
    h`<ul class="switch" aria-label="${name}">${list.map(([value, text]) => h`<li><a href="${overviewUrl(view.project.key, view.state, { [key]: value })}" ${view.state[key] === value ? raw('aria-current="true"') : ''}>${text}</a></li>`)}</ul>`;
  return h`<section aria-labelledby="chart-title" class="main-chart"><h2 id="chart-title">${label}${view.timeseries.ok ? h` <a class="csv" href="${exportUrl(view.project.key, view.state, 'chart')}" aria-label="${label} per ${view.state.interval} as CSV">CSV</a>` : ''}</h2>${switches(CHART_METRICS, 'metric', 'Chart metric')}${switches(INTERVALS, 'interval', 'Chart interval')}${chart}</section>`;
}

function breakdowns(view: OverviewView): SafeHtml {
  const ctx: CardContext = { projectKey: view.project.key, state: view.state };
  const card = (key: string) => view.cards[key] as Read<RowsBody> | undefined;
  return h`<div class="panels">${insightsCard(ctx, view.cards as never)}${realtimeCard(view.cards.realtime as never)}${SITE_CARDS.map((c) => breakdownCard(ctx, c, card(c.key)))}</div><div class="panels wide">${queriesCard(ctx, card('queries'))}</div>`;
}

function funnels(view: OverviewView): SafeHtml {
  const base = `/dashboard/p/${encodeURIComponent(view.project.key)}/funnels`;
  const rows = view.funnels.map((f) => {
    if (!f.result.ok) return h`<tr><td><a href="${base}/${encodeURIComponent(f.key)}">${f.name}</a></td><td colspan="2">${f.result.error.message}</td></tr>`;
    const { completionRate, steps } = f.result.body;
    return h`<tr><td><a href="${base}/${encodeURIComponent(f.key)}">${f.name}</a></td><td>${formatValue(steps[0]?.users ?? 0, 'count')} → ${formatValue(steps.at(-1)?.users ?? 0, 'count')}</td><td data-completion>${formatValue(completionRate, 'fraction')}</td></tr>`;
  });
  return h`<section aria-labelledby="funnels-title"><h2 id="funnels-title">Funnels</h2>${
    view.funnels.length === 0
      ? h`<p class="muted">No funnels yet.${view.project.role && allows('funnel.create', view.project.role) ? h` <a href="${base}/new">Create one</a>.` : ''}</p>`
      : h`<div class="table-wrap"><table><thead><tr><th scope="col">Funnel</th><th scope="col">Entered → completed</th><th scope="col">Completion</th></tr></thead><tbody>${rows}</tbody></table></div>`
  }</section>`;
}

function freshness(view: OverviewView): SafeHtml {
  const metas = [view.summary, view.search, view.timeseries].flatMap((r) => (r.ok ? [r.body.meta] : []));
  const oldest = metas.reduce<Meta | undefined>((a, m) => (a === undefined || m.fetchedAt < a.fetchedAt ? m : a), undefined);
  const name = PERIODS.find(([p]) => p === view.state.period)?.[1] ?? (view.state.custom ? 'Custom range' : view.state.period);
  const comparison = view.state.compare === 'none' ? '' : view.summary.ok && view.summary.body.period.previous ? `, compared with ${view.summary.body.period.previous.start} to ${view.summary.body.period.previous.end}` : '';
  const period = view.summary.ok ? h`${name}: ${view.summary.body.period.start} to ${view.summary.body.period.end}${comparison}. ` : '';
  const age = oldest ? h`Data fetched ${ago(oldest.fetchedAt, view.now)}${oldest.cache === 'hit' ? ' (from cache)' : ''}. ` : '';
  // Refreshing spends provider quota for everyone on the project: a POST with the session's CSRF token, never a link.
  const refresh =
    view.project.role && allows('report.refresh', view.project.role)
      ? h`<form class="inline" method="post" action="${overviewUrl(view.project.key, view.state)}">${csrfField(view.csrf)}<button type="submit" name="refresh" value="1">Refresh now</button></form>`
      : '';
  return h`<p class="hint" id="freshness">${period}${age}${refresh}</p>`;
}

function select(id: string, label: string, name: string, list: readonly [string, string][], current: string): SafeHtml {
  return h`<label for="${id}">${label}</label><select id="${id}" name="${name}">${list.map(([value, text]) => h`<option value="${value}" ${value === current ? raw('selected') : ''}>${text}</option>`)}</select>`;
}

/** The view form: a plain GET, so it works without JavaScript; the filters ride along as hidden fields. */
function controls(view: OverviewView): SafeHtml {
  const { state } = view;
  const periods: [string, string][] = [...PERIODS, ['custom', 'Custom range']];
  return h`<form class="controls" method="get" action="/dashboard/p/${encodeURIComponent(view.project.key)}">
${select('period', 'Period', 'period', periods, state.custom ? 'custom' : state.period)}
<label for="start">From</label><input type="date" id="start" name="start" value="${state.custom?.start ?? ''}">
<label for="end">To</label><input type="date" id="end" name="end" value="${state.custom?.end ?? ''}">
${select('compare', 'Compare with', 'compare', COMPARISONS, state.compare)}
<input type="hidden" name="metric" value="${state.metric}"><input type="hidden" name="interval" value="${state.interval}">${state.filters.map((f) => h`<input type="hidden" name="filter" value="${f}">`)}
<button type="submit">Show</button></form>${chips(view)}`;
}

function chips(view: OverviewView): SafeHtml | string {
  if (view.state.filters.length === 0) return '';
  const remove = (f: string) => overviewUrl(view.project.key, view.state, { filters: view.state.filters.filter((x) => x !== f) });
  return h`<div class="chips" aria-label="Active filters" role="group">Filtered by ${view.state.filters.map((f) => h`<span class="chip" data-chip="${f}"><code>${f}</code> <a href="${remove(f)}" aria-label="Remove filter ${f}">×</a></span>`)} <a href="${overviewUrl(view.project.key, view.state, { filters: [] })}">Clear all</a><span class="hint"> The filter applies to every breakdown card; the headline numbers, the chart and What changed are for the whole site (those API reads take no filter).</span></div>`;
}

export function overviewBody(view: OverviewView): SafeHtml {
  return h`${controls(view)}${freshness(view)}${statusSection(view)}<section aria-labelledby="headline-title"><h2 id="headline-title">Headline numbers</h2>${headline(view)}</section>${mainChart(view)}<section aria-labelledby="search-title"><h2 id="search-title">Search</h2>${searchHeadline(view)}</section>${breakdowns(view)}${funnels(view)}`;
}
