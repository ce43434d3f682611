// The project overview's markup: data-source status with reconnect actions, freshness with a refresh link,
// headline numbers (site and search) with their change, the two charts, top pages and queries, and funnel completion.
import { allows } from '../domain/access-policy.ts';
import { h, raw, type SafeHtml } from '../account/html.ts';
import { SOURCE_DISPLAY_NAMES, SOURCES } from '../domain/sources.ts';
import type { DataSourceRecord } from '../store/data-sources-repository.ts';
import type { ProjectRecord } from '../store/projects-repository.ts';
import { csrfField } from './layout.ts';
import { statusOf } from './project-pages.ts';
import type { Read } from './read-data.ts';
import { lineChart, type ChartPoint } from './svg-chart.ts';

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
  period: { start: string; end: string; name: string };
  metrics: Record<string, number | Compared>;
  meta: Meta;
}
export interface OverviewView {
  csrf: string;
  project: ProjectRecord;
  sources: DataSourceRecord[];
  googleConfigured: boolean;
  now: Date;
  summary: Read<SummaryBody>;
  search: Read<{ totals: Record<string, Compared | null>; meta: Meta }>;
  sessions: Read<{ points: { date: string; value: number }[]; meta: Meta }>;
  clicks: Read<{ points: { date: string; clicks: number }[]; meta: Meta }>;
  pages: Read<{ rows: { pagePath: string; activeUsers: number; sessions: number }[]; meta: Meta }>;
  queries: Read<{ rows: { query: string; clicks: number; impressions: number }[]; meta: Meta }>;
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
    return h`<li><strong>${SOURCE_DISPLAY_NAMES[source]}</strong>: <span class="status-${st.status}">${st.word}</span>${st.status === 'error' && st.record?.statusMessage ? h` — ${st.record.statusMessage}` : ''}${action}</li>`;
  });
  return h`<section aria-labelledby="status-title"><h2 id="status-title">Data sources</h2><ul>${items}</ul></section>`;
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

function charts(view: OverviewView): SafeHtml {
  const sessions = view.sessions.ok ? lineChart({ id: 'chart-sessions', title: 'Sessions per day', points: view.sessions.body.points.map((p): ChartPoint => ({ label: p.date, value: p.value })) }) : failure(view.sessions);
  const clicks = view.clicks.ok ? lineChart({ id: 'chart-clicks', title: 'Search clicks per day', points: view.clicks.body.points.map((p): ChartPoint => ({ label: p.date, value: p.clicks })) }) : failure(view.clicks);
  return h`<div class="grid2"><section aria-labelledby="sessions-title"><h2 id="sessions-title">Sessions</h2>${sessions}</section><section aria-labelledby="clicks-title"><h2 id="clicks-title">Search clicks</h2>${clicks}</section></div>`;
}

function tops(view: OverviewView): SafeHtml {
  const pages = view.pages.ok
    ? h`<div class="table-wrap"><table><thead><tr><th scope="col">Page</th><th scope="col">Users</th><th scope="col">Sessions</th></tr></thead><tbody>${view.pages.body.rows.map((r) => h`<tr><td><code>${r.pagePath}</code></td><td>${formatValue(r.activeUsers, 'count')}</td><td>${formatValue(r.sessions, 'count')}</td></tr>`)}</tbody></table></div>`
    : failure(view.pages);
  const queries = view.queries.ok
    ? h`<div class="table-wrap"><table><thead><tr><th scope="col">Query</th><th scope="col">Clicks</th><th scope="col">Impressions</th></tr></thead><tbody>${view.queries.body.rows.map((r) => h`<tr><td>${r.query}</td><td>${formatValue(r.clicks, 'count')}</td><td>${formatValue(r.impressions, 'count')}</td></tr>`)}</tbody></table></div>`
    : failure(view.queries);
  return h`<div class="grid2"><section aria-labelledby="pages-title"><h2 id="pages-title">Top pages</h2>${pages}</section><section aria-labelledby="queries-title"><h2 id="queries-title">Top search queries</h2>${queries}</section></div>`;
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
  const metas = [view.summary, view.sessions, view.clicks, view.pages, view.queries].flatMap((r) => (r.ok ? [r.body.meta] : []));
  const oldest = metas.reduce<Meta | undefined>((a, m) => (a === undefined || m.fetchedAt < a.fetchedAt ? m : a), undefined);
  const period = view.summary.ok ? h`Last 28 days: ${view.summary.body.period.start} to ${view.summary.body.period.end}, compared with the 28 days before. ` : '';
  const age = oldest ? h`Data fetched ${ago(oldest.fetchedAt, view.now)}${oldest.cache === 'hit' ? ' (from cache)' : ''}. ` : '';
  return h`<p class="hint" id="freshness">${period}${age}${view.project.role && allows('report.refresh', view.project.role) ? h`<a href="/dashboard/p/${encodeURIComponent(view.project.key)}?force=1">Refresh now</a>` : ''}</p>`;
}

export function overviewBody(view: OverviewView): SafeHtml {
  return h`${freshness(view)}${statusSection(view)}<section aria-labelledby="headline-title"><h2 id="headline-title">Headline numbers</h2>${headline(view)}</section><section aria-labelledby="search-title"><h2 id="search-title">Search</h2>${searchHeadline(view)}</section>${charts(view)}${tops(view)}${funnels(view)}`;
}
