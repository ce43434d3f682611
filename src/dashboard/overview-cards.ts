// The overview's breakdown and insight cards: every row of a breakdown is a link that adds its value as a filter
// for the whole page; search queries show clicks, impressions, CTR and position with "more"; the insight cards
// say in one line what changed, what was unusual and where search clicks are waiting, each linking on.
import { h, type SafeHtml } from '../account/html.ts';
import type { Read } from './read-data.ts';
import { exportUrl, MAX_QUERIES, overviewUrl, QUERY_PAGE, rowFilter, type OverviewState } from './overview-state.ts';

type Row = Record<string, unknown>;
export interface RowsBody {
  rows: Row[];
  totalRows?: number;
}

export interface CardContext {
  projectKey: string;
  state: OverviewState;
}

const count = (value: unknown): string => (typeof value === 'number' ? Math.round(value).toLocaleString('en-US') : '—');
const percent = (value: unknown): string => (typeof value === 'number' ? `${(value * 100).toFixed(1)}%` : '—');
const decimal = (value: unknown): string => (typeof value === 'number' ? value.toFixed(1) : '—');

const failure = (read: { ok: false; error: { message: string } }) => h`<p class="error">${read.error.message}</p>`;

/** The link that adds `dimension==value` to the page's filters (a filter already there is not added twice). */
function filterLink(ctx: CardContext, dimension: string, value: string, text: SafeHtml | string): SafeHtml {
  const condition = rowFilter(dimension, value);
  const filters = ctx.state.filters.includes(condition) ? ctx.state.filters : [...ctx.state.filters, condition];
  return h`<a class="row-filter" href="${overviewUrl(ctx.projectKey, ctx.state, { filters })}" title="Filter the page by ${value}" data-filter="${condition}">${text}</a>`;
}

export interface BreakdownCard {
  key: string;
  title: string;
  /** The row's value key in the body, and the filter dimension it stands for. */
  column: string;
  dimension: string;
  heading: string;
  figures: [string, string, (v: unknown) => string][];
  /** Page paths render as code, truncated with the full value on hover and focus. */
  path?: boolean;
}

export function breakdownCard(ctx: CardContext, card: BreakdownCard, read: Read<RowsBody> | undefined): SafeHtml {
  const body = read === undefined ? h`<p class="muted">Not read.</p>` : !read.ok ? failure(read) : read.body.rows.length === 0 ? h`<p class="muted">No rows for this period and filter.</p>` : breakdownTable(ctx, card, read.body.rows);
  const csv = read?.ok ? h` <a class="csv" href="${exportUrl(ctx.projectKey, ctx.state, card.key)}" aria-label="${card.title} as CSV">CSV</a>` : '';
  return h`<section class="panel" aria-labelledby="${card.key}-title" data-card="${card.key}"><h2 id="${card.key}-title">${card.title}${csv}</h2>${body}</section>`;
}

function breakdownTable(ctx: CardContext, card: BreakdownCard, rows: Row[]): SafeHtml {
  return h`<div class="table-wrap"><table><thead><tr><th scope="col">${card.heading}</th>${card.figures.map(([, label]) => h`<th scope="col" class="num">${label}</th>`)}</tr></thead><tbody>${rows.map((row) => {
    const value = String(row[card.column] ?? '');
    const shown = card.path ? h`<code class="path" title="${value}">${value}</code>` : value === '' ? '(not set)' : value;
    return h`<tr><td class="name">${filterLink(ctx, card.dimension, value, shown)}</td>${card.figures.map(([name, , format]) => h`<td class="num" data-raw="${String(row[name] ?? '')}">${format(row[name])}</td>`)}</tr>`;
  })}</tbody></table></div>`;
}

export const SITE_CARDS: BreakdownCard[] = [
  { key: 'channels', title: 'Channels', column: 'sessionDefaultChannelGroup', dimension: 'sessionDefaultChannelGroup', heading: 'Channel', figures: [['sessions', 'Sessions', count], ['activeUsers', 'Users', count]] },
  { key: 'sources', title: 'Sources', column: 'sessionSource', dimension: 'sessionSource', heading: 'Source', figures: [['sessions', 'Sessions', count], ['activeUsers', 'Users', count]] },
  { key: 'campaigns', title: 'Campaigns', column: 'sessionCampaignName', dimension: 'sessionCampaignName', heading: 'Campaign', figures: [['sessions', 'Sessions', count], ['activeUsers', 'Users', count]] },
  { key: 'pages', title: 'Top pages', column: 'pagePath', dimension: 'pagePath', heading: 'Page', figures: [['activeUsers', 'Users', count], ['sessions', 'Sessions', count]], path: true },
  { key: 'landingPages', title: 'Landing pages', column: 'page', dimension: 'landingPage', heading: 'Landing page', figures: [['sessions', 'Sessions', count], ['engagementRate', 'Engaged', percent], ['clicks', 'Search clicks', count]], path: true },
  { key: 'countries', title: 'Countries', column: 'country', dimension: 'country', heading: 'Country', figures: [['sessions', 'Sessions', count], ['activeUsers', 'Users', count]] },
  { key: 'devices', title: 'Devices', column: 'deviceCategory', dimension: 'deviceCategory', heading: 'Device', figures: [['sessions', 'Sessions', count], ['activeUsers', 'Users', count]] },
];

export const QUERIES_CARD: BreakdownCard = {
  key: 'queries',
  title: 'Search queries',
  column: 'query',
  dimension: 'query',
  heading: 'Query',
  figures: [['clicks', 'Clicks', count], ['impressions', 'Impressions', count], ['ctr', 'CTR', percent], ['position', 'Position', decimal]],
};

/** The queries card, with "more" while the API has rows the card does not show yet. */
export function queriesCard(ctx: CardContext, read: Read<RowsBody> | undefined): SafeHtml {
  const card = breakdownCard(ctx, QUERIES_CARD, read);
  if (!read?.ok) return card;
  const total = read.body.totalRows ?? read.body.rows.length;
  const more = total > read.body.rows.length && ctx.state.queryLimit < MAX_QUERIES;
  return h`${card}<p class="hint more">${read.body.rows.length} of ${total.toLocaleString('en-US')} queries.${more ? h` <a href="${overviewUrl(ctx.projectKey, ctx.state, { queryLimit: Math.min(MAX_QUERIES, ctx.state.queryLimit + QUERY_PAGE * 2) })}#queries-title">Show more</a>` : ''}</p>`;
}

interface ChangesBody {
  metric: string;
  change?: { value: number; previous?: number; deltaPct?: number };
  drivers: { dimension: string; value: string; contribution: number; current?: number; previous?: number; reason?: string }[];
}
interface AnomaliesBody {
  anomalies: { date: string; observed: number; expected: number; direction: string }[];
}
interface OpportunitiesBody {
  opportunities: { kind: string; query?: string; page?: string; clicksAtStake?: number; position?: number }[];
}

const signed = (n: number) => `${n >= 0 ? '+' : '−'}${Math.abs(Math.round(n)).toLocaleString('en-US')}`;

/** "What changed": the top drivers of the chart metric's change, today's anomalies and the top search opportunities. */
export function insightsCard(ctx: CardContext, reads: { changes?: Read<ChangesBody>; anomalies?: Read<AnomaliesBody>; searchOpportunities?: Read<OpportunitiesBody> }): SafeHtml {
  const { changes, anomalies, searchOpportunities } = reads;
  const drivers = !changes
    ? ''
    : !changes.ok
      ? h`<p class="hint">${changes.error.message}</p>`
      : h`<p>${changes.body.metric}: ${changes.body.change?.deltaPct === undefined || changes.body.change.deltaPct === null ? 'no comparison' : `${changes.body.change.deltaPct >= 0 ? 'up' : 'down'} ${Math.abs(changes.body.change.deltaPct * 100).toFixed(1)}%`}${changes.body.drivers.length > 0 ? ', mostly from:' : '.'}</p><ul class="drivers">${changes.body.drivers.slice(0, 5).map((d) => h`<li data-driver="${d.dimension}">${filterLink(ctx, d.dimension, d.value, `${d.value}`)} <span class="muted">(${d.dimension})</span> <span class="num">${signed(d.contribution)}</span>${d.reason ? h` — ${d.reason}` : ''}</li>`)}</ul>`;
  const unusual = !anomalies
    ? ''
    : !anomalies.ok
      ? h`<p class="hint">${anomalies.error.message}</p>`
      : anomalies.body.anomalies.length === 0
        ? h`<p class="hint">Nothing unusual in this period.</p>`
        : h`<h3>Unusual days</h3><ul>${anomalies.body.anomalies.slice(-3).map((a) => h`<li data-anomaly="${a.date}">${a.date}: ${count(a.observed)} where about ${count(a.expected)} was expected (${a.direction === 'up' ? 'higher' : 'lower'})</li>`)}</ul>`;
  const opportunities = !searchOpportunities
    ? ''
    : !searchOpportunities.ok
      ? h`<p class="hint">${searchOpportunities.error.message}</p>`
      : searchOpportunities.body.opportunities.length === 0
        ? ''
        : h`<h3>Search opportunities</h3><ul>${searchOpportunities.body.opportunities.slice(0, 3).map((o) => h`<li data-opportunity="${o.kind}">${o.query ? h`“${o.query}”` : (o.page ?? '')}: about ${count(o.clicksAtStake)} more clicks a period at stake (${o.kind.replace(/_/g, ' ')}${typeof o.position === 'number' ? `, position ${o.position.toFixed(1)}` : ''})</li>`)}</ul>`;
  return h`<section class="panel" aria-labelledby="insights-title" data-card="insights"><h2 id="insights-title">What changed</h2>${drivers}${unusual}${opportunities}<p class="hint">How these are found: <a href="/api/v1/docs">the insights in the API reference</a>.</p></section>`;
}

interface RealtimeBody {
  activeUsers: number;
  topPages: { page: string; activeUsers: number }[];
}

export function realtimeCard(read: Read<RealtimeBody> | undefined): SafeHtml {
  const body = !read
    ? ''
    : !read.ok
      ? h`<p class="hint">${read.error.message}</p>`
      : h`<p><span class="big num" data-realtime="${String(read.body.activeUsers)}">${count(read.body.activeUsers)}</span> visitors in the last 30 minutes</p><ul>${read.body.topPages.slice(0, 5).map((p) => h`<li class="realtime-page"><span class="truncate" title="${p.page}">${p.page}</span> <span class="num">${count(p.activeUsers)}</span></li>`)}</ul>`;
  return h`<section class="panel" aria-labelledby="realtime-title" data-card="realtime"><h2 id="realtime-title">Right now</h2>${body}</section>`;
}
