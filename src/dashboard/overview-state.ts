// The overview's state lives in its URL (`?period=…&compare=…&metric=…&interval=…&filter=…`) so a view can be
// bookmarked and shared. Choices with a fixed list are kept to it (anything else falls back to the default);
// the period and the filter are passed to the API as given, so a bad one is refused with the API's own message.

export const PERIODS: readonly [string, string][] = [
  ['today', 'Today'],
  ['yesterday', 'Yesterday'],
  ['7days', 'Last 7 days'],
  ['28days', 'Last 28 days'],
  ['90days', 'Last 90 days'],
  ['month_to_date', 'Month to date'],
  ['last_month', 'Last month'],
  ['quarter_to_date', 'Quarter to date'],
  ['last_quarter', 'Last quarter'],
  ['year_to_date', 'Year to date'],
  ['365days', 'Last 365 days'],
];

export const COMPARISONS: readonly [string, string][] = [
  ['previous', 'Previous period'],
  ['year', 'Same period last year'],
  ['none', 'No comparison'],
];

export const CHART_METRICS: readonly [string, string][] = [
  ['sessions', 'Sessions'],
  ['activeUsers', 'Users'],
  ['screenPageViews', 'Page views'],
  ['engagementRate', 'Engagement rate'],
  ['keyEvents', 'Key events'],
];

export const INTERVALS: readonly [string, string][] = [
  ['day', 'Day'],
  ['week', 'Week'],
  ['month', 'Month'],
];

/** How many search queries the card shows, and how many "more" adds. */
export const QUERY_PAGE = 25;
export const MAX_QUERIES = 500;

export interface OverviewState {
  period: string;
  compare: string;
  metric: string;
  interval: string;
  /** Filters in the REST syntax, one condition each; the page ANDs them (`;`). */
  filters: string[];
  queryLimit: number;
  /** A custom range's days when the period is custom (for the date inputs). */
  custom?: { start: string; end: string };
}

const CUSTOM = /^custom_(\d{4}-\d{2}-\d{2})_(\d{4}-\d{2}-\d{2})$/;
const oneOf = (list: readonly [string, string][], value: string | null, fallback: string) => (value !== null && list.some(([v]) => v === value) ? value : fallback);

export function readOverviewState(params: URLSearchParams): OverviewState {
  // The date inputs of the no-JS form send `start` and `end`; they make a custom period.
  const start = params.get('start');
  const end = params.get('end');
  const period = params.get('period') === 'custom' && start && end ? `custom_${start}_${end}` : (params.get('period') ?? '28days');
  const match = CUSTOM.exec(period);
  const limit = Number(params.get('queries'));
  return {
    period,
    compare: oneOf(COMPARISONS, params.get('compare'), 'previous'),
    metric: oneOf(CHART_METRICS, params.get('metric'), 'sessions'),
    interval: oneOf(INTERVALS, params.get('interval'), 'day'),
    filters: params.getAll('filter').filter((f) => f.trim() !== '').slice(0, 5),
    queryLimit: Number.isInteger(limit) && limit >= QUERY_PAGE ? Math.min(limit, MAX_QUERIES) : QUERY_PAGE,
    custom: match ? { start: match[1]!, end: match[2]! } : undefined,
  };
}

/** The API `filter` for the page's filters: every condition must hold. */
export function filterParam(state: OverviewState): string | undefined {
  return state.filters.length === 0 ? undefined : state.filters.join(';');
}

/** A filter condition for one breakdown row, with the syntax's special characters escaped. */
export function rowFilter(dimension: string, value: string): string {
  return `${dimension}==${value.replace(/[\\,;]/g, (c) => `\\${c}`)}`;
}

/** The overview URL for `state` with `change` applied: every link on the page keeps the rest of the view. */
export function overviewUrl(projectKey: string, state: OverviewState, change: Partial<OverviewState> = {}): string {
  const query = stateParams({ ...state, ...change }).toString();
  return `/dashboard/p/${encodeURIComponent(projectKey)}${query ? `?${query}` : ''}`;
}

/** The CSV of one card as the view shows it. */
export function exportUrl(projectKey: string, state: OverviewState, card: string): string {
  const params = stateParams(state);
  params.set('card', card);
  return `/dashboard/p/${encodeURIComponent(projectKey)}/export.csv?${params.toString()}`;
}

function stateParams(next: OverviewState): URLSearchParams {
  const params = new URLSearchParams();
  if (next.period !== '28days') params.set('period', next.period);
  if (next.compare !== 'previous') params.set('compare', next.compare);
  if (next.metric !== 'sessions') params.set('metric', next.metric);
  if (next.interval !== 'day') params.set('interval', next.interval);
  if (next.queryLimit !== QUERY_PAGE) params.set('queries', String(next.queryLimit));
  for (const f of next.filters) params.append('filter', f);
  return params;
}
