// Scores one insight answer against the event planted for it. Pure, so the definitions are pinned by tests:
// - changes: hit when the planted (dimension, value) is among the top-3 drivers; precision counts the top-3
//   drivers the answer calls `significant` (absent counts as significant) and how many of them are the planted cause;
// - anomalies: hit when an anomaly falls on the planted day (a spike's day, a shift's first day);
// - search: hit when a `losing_clicks`/`lost_query` opportunity names the planted query (ranking loss), or a
//   `cannibalisation` one names the query and both planted pages.
import type { Check, EvalCase, PlantedEvent } from './cases.ts';

export interface CheckResult {
  caseId: string;
  project: string;
  insight: Check['insight'];
  /** The planted event in one line, e.g. `segment_shift country=Germany ×0.6 from 2026-10-01`. */
  planted: string;
  /** Set when the request failed: the check is a miss. */
  error?: string;
  /** Changes: among the top 3. Anomalies and search: reported at all. */
  hit: boolean;
  /** Search: among the first 3 opportunities of the kinds that can report it. */
  hitAt3?: boolean;
  /** 1-based position of the planted cause in the answer's list (drivers, anomalies, opportunities of its kinds). */
  rank: number | null;
  /** Changes: top-3 drivers the answer stands behind, and how many of those are the planted cause. */
  significantTop3?: number;
  matchingTop3?: number;
  /** What the answer put first (for reading misses). */
  top3: string[];
}

interface Driver {
  dimension?: unknown;
  value?: unknown;
  contribution?: unknown;
  significant?: unknown;
}

/** Lower-case and trimmed; URLs and paths compared by path without a trailing slash. */
export function normaliseValue(value: unknown): string {
  let text = String(value ?? '').trim().toLowerCase();
  text = text.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]+/, '');
  if (text.length > 1) text = text.replace(/\/+$/, '');
  return text;
}

export function describeEvent(event: PlantedEvent): string {
  switch (event.kind) {
    case 'segment_shift':
      return `segment_shift ${event.dimension}=${event.value} ×${event.factor} from ${event.from}`;
    case 'spike':
      return `spike ${event.dimension}=${event.value} ×${event.factor} on ${event.date}`;
    case 'ranking_loss':
      return `ranking_loss '${event.query}' → position ${event.position} from ${event.from}`;
    case 'cannibalisation':
      return `cannibalisation '${event.query}' ${event.pages.join(' vs ')} from ${event.from}`;
  }
}

function listOf(body: unknown, key: string): Record<string, unknown>[] {
  const list = (body as Record<string, unknown> | null)?.[key];
  return Array.isArray(list) ? (list as Record<string, unknown>[]) : [];
}

function base(c: EvalCase, check: Check) {
  return { caseId: c.id, project: c.project, insight: check.insight, planted: describeEvent(c.event) };
}

export function scoreChanges(c: EvalCase, check: Check, body: unknown): CheckResult {
  const event = c.event;
  if (event.kind !== 'segment_shift' && event.kind !== 'spike') throw new Error(`a change case plants a segment, not ${event.kind}`);
  const drivers = listOf(body, 'drivers') as Driver[];
  const isPlanted = (d: Driver) => d.dimension === event.dimension && normaliseValue(d.value) === normaliseValue(event.value);
  const index = drivers.findIndex(isPlanted);
  const top = drivers.slice(0, 3);
  const significant = top.filter((d) => d.significant !== false);
  return {
    ...base(c, check),
    hit: index >= 0 && index < 3,
    rank: index >= 0 ? index + 1 : null,
    significantTop3: significant.length,
    matchingTop3: significant.filter(isPlanted).length,
    top3: top.map((d) => `${String(d.dimension)}=${String(d.value)} (${formatNumber(d.contribution)}${d.significant === false ? ', not significant' : ''})`),
  };
}

export function scoreAnomalies(c: EvalCase, check: Check & { insight: 'anomalies' }, body: unknown): CheckResult {
  const anomalies = listOf(body, 'anomalies');
  const index = anomalies.findIndex((a) => a.date === check.date);
  return {
    ...base(c, check),
    hit: index >= 0,
    rank: index >= 0 ? index + 1 : null,
    top3: anomalies.slice(0, 3).map((a) => `${String(a.date)}${a.hour === undefined || a.hour === null ? '' : ` ${String(a.hour)}h`} (score ${formatNumber(a.score)})`),
  };
}

/** Anomalies reported on unplanted data: every one is a false alarm. */
export function countAnomalies(body: unknown): number {
  return listOf(body, 'anomalies').length;
}

const RANKING_LOSS_KINDS = ['losing_clicks', 'lost_query'];

export function scoreSearch(c: EvalCase, check: Check, body: unknown): CheckResult {
  const event = c.event;
  if (event.kind !== 'ranking_loss' && event.kind !== 'cannibalisation') throw new Error(`a search case plants a ranking loss or cannibalisation, not ${event.kind}`);
  const query = normaliseValue(event.query);
  const kinds = event.kind === 'ranking_loss' ? RANKING_LOSS_KINDS : ['cannibalisation'];
  const ofKinds = listOf(body, 'opportunities').filter((o) => kinds.includes(String(o.kind)));
  const isPlanted = (o: Record<string, unknown>) => {
    if (normaliseValue(o.query) !== query) return false;
    if (event.kind === 'ranking_loss') return true;
    const pages = (Array.isArray(o.pages) ? o.pages : []).map(normaliseValue);
    return event.pages.every((p) => pages.includes(normaliseValue(p)));
  };
  const index = ofKinds.findIndex(isPlanted);
  return {
    ...base(c, check),
    hit: index >= 0,
    hitAt3: index >= 0 && index < 3,
    rank: index >= 0 ? index + 1 : null,
    top3: ofKinds.slice(0, 3).map((o) => `${String(o.kind)} '${String(o.query ?? o.page ?? '')}'${Array.isArray(o.pages) ? ` ${o.pages.join(' vs ')}` : ''}`),
  };
}

export function failedCheck(c: EvalCase, check: Check, error: string): CheckResult {
  return { ...base(c, check), error, hit: false, rank: null, top3: [] };
}

function formatNumber(value: unknown): string {
  return typeof value === 'number' ? String(Math.round(value * 100) / 100) : String(value);
}
