// Scores one insight answer against the events planted for it. Pure, so the definitions are pinned by tests:
// - changes: hit@1 when the first driver is a planted cause, hit@3 when every planted cause is among the first 3;
//   precision counts every driver the answer calls `significant` (absent counts as significant) and how many of
//   them are planted causes — in a quiet window none is;
// - anomalies: hit when an anomaly falls on the planted day (a spike's day, a shift's first day);
// - search: found when an opportunity of the right kind names the planted query/page (a cannibalisation: the query
//   and both pages); its rank among those kinds and among all opportunities (the largest planted loss should be 1).
import type { Check, EvalCase, PlantedEvent, SearchTarget, Truth } from './cases.ts';

export interface CheckResult {
  caseId: string;
  project: string;
  family: EvalCase['family'];
  insight: Check['insight'];
  /** Changes and quiet windows: the metric asked about. */
  metric?: string;
  /** The planted events in one line, e.g. `segment_shift country=Germany ×0.6 from 2026-10-01`. */
  planted: string;
  /** Set when the request failed: the check is a miss. */
  error?: string;
  /** Changes: every planted cause among the top 3. Anomalies: the day reported. Search: reported at all. */
  hit: boolean;
  /** Changes: the first driver is a planted cause. Search: the first opportunity of all is the planted loss. */
  hitAt1?: boolean;
  /** Search: among the first 3 opportunities of the kinds that can report it. */
  hitAt3?: boolean;
  /** 1-based position of the (last) planted cause in the answer's list (drivers, anomalies, opportunities of its kinds). */
  rank: number | null;
  /** Search: position among all opportunities, whatever their kind. */
  overallRank?: number | null;
  /** Changes and quiet windows: drivers the answer stands behind, and how many of those are planted causes. */
  significant?: number;
  matching?: number;
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
    case 'trend':
      return `trend ${event.dimension}=${event.value} to ×${event.factor} from ${event.from} to ${event.to}`;
    case 'rate_shift':
      return `rate_shift ${event.metric} ${event.dimension}=${event.value} ×${event.factor} from ${event.from}`;
    case 'ranking_loss':
      return `ranking_loss '${event.query}' → position ${event.position}${event.engine && event.engine !== 'all' ? ` on ${event.engine}` : ''} from ${event.from}`;
    case 'cannibalisation':
      return `cannibalisation '${event.query}' ${event.pages.join(' vs ')} from ${event.from}`;
    case 'page_drop':
      return `page_drop ${event.page} ×${event.factor} from ${event.from}`;
  }
}

function listOf(body: unknown, key: string): Record<string, unknown>[] {
  const list = (body as Record<string, unknown> | null)?.[key];
  return Array.isArray(list) ? (list as Record<string, unknown>[]) : [];
}

function base(c: EvalCase, check: Check) {
  return {
    caseId: c.id, project: c.project, family: c.family, insight: check.insight,
    ...('metric' in check ? { metric: check.metric } : {}),
    planted: c.events.map(describeEvent).join(' + ') || 'nothing',
  };
}

const isTruth = (truths: readonly Truth[]) => (d: Driver) => truths.some((t) => d.dimension === t.dimension && normaliseValue(d.value) === normaliseValue(t.value));

const driverLine = (d: Driver) => `${String(d.dimension)}=${String(d.value)} (${formatNumber(d.contribution)}${d.significant === false ? ', not significant' : ''})`;

export function scoreChanges(c: EvalCase, check: Check & { insight: 'changes' | 'quiet' }, body: unknown): CheckResult {
  const truths = check.insight === 'changes' ? check.truths : [];
  const drivers = listOf(body, 'drivers') as Driver[];
  const planted = isTruth(truths);
  const ranks = truths.map((t) => drivers.findIndex(isTruth([t])) + 1);
  const found = ranks.length > 0 && ranks.every((r) => r > 0);
  const significant = drivers.filter((d) => d.significant !== false);
  return {
    ...base(c, check),
    hit: found && ranks.every((r) => r <= 3),
    hitAt1: drivers.length > 0 && planted(drivers[0]!),
    rank: found ? Math.max(...ranks) : null,
    significant: significant.length,
    matching: significant.filter(planted).length,
    top3: drivers.slice(0, 3).map(driverLine),
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

function namesTarget(target: SearchTarget, o: Record<string, unknown>): boolean {
  if (target.query !== undefined && normaliseValue(o.query) !== normaliseValue(target.query)) return false;
  if (target.page !== undefined && normaliseValue(o.page) !== normaliseValue(target.page)) return false;
  if (target.pages) {
    const pages = (Array.isArray(o.pages) ? o.pages : []).map(normaliseValue);
    return target.pages.every((p) => pages.includes(normaliseValue(p)));
  }
  return true;
}

export function scoreSearch(c: EvalCase, check: Check & { insight: 'search' }, body: unknown): CheckResult {
  const all = listOf(body, 'opportunities');
  const isPlanted = (o: Record<string, unknown>) => check.target.kinds.includes(String(o.kind)) && namesTarget(check.target, o);
  const ofKinds = all.filter((o) => check.target.kinds.includes(String(o.kind)));
  const index = ofKinds.findIndex(isPlanted);
  const overall = all.findIndex(isPlanted);
  return {
    ...base(c, check),
    hit: index >= 0,
    hitAt1: overall === 0,
    hitAt3: index >= 0 && index < 3,
    rank: index >= 0 ? index + 1 : null,
    overallRank: overall >= 0 ? overall + 1 : null,
    top3: all.slice(0, 3).map((o) => `${String(o.kind)} '${String(o.query ?? o.page ?? '')}'${Array.isArray(o.pages) ? ` ${o.pages.join(' vs ')}` : ''} (${formatNumber(o.clicksAtStake)} at stake)`),
  };
}

export function failedCheck(c: EvalCase, check: Check, error: string): CheckResult {
  return { ...base(c, check), error, hit: false, rank: null, top3: [] };
}

function formatNumber(value: unknown): string {
  return typeof value === 'number' ? String(Math.round(value * 100) / 100) : String(value);
}
