// Turns check results into the evaluation table (one row per insight kind, with its target and whether it is
// met) and renders it as Markdown: the table, then every miss with what the answer said instead.
import type { EvalCase } from './cases.ts';
import type { CheckResult } from './score.ts';

export interface FalseAlarms {
  /** Unplanted 90-day windows asked. */
  windows: number;
  anomalies: number;
  /** Anomalies per 90 days. */
  per90Days: number;
}

export interface TableRow {
  kind: string;
  cases: number;
  /** Changes: planted cause in the top 3. Anomalies: planted day reported. Search: among the first 3 of its kind. */
  recallAt3: number | null;
  /** Search: reported at all (the target). */
  found: number | null;
  precisionAt3: number | null;
  meanRank: number | null;
  falseAlarmsPer90Days: number | null;
  errors: number;
  target: string;
  met: boolean;
}

export interface EvalReport {
  startedAt: string;
  seed: number;
  anchor: string;
  events: number;
  durationSeconds: number;
  rows: TableRow[];
  falseAlarms: FalseAlarms;
  results: CheckResult[];
  /** Every planted event with its checks, so a run can be reproduced and read. */
  cases: EvalCase[];
}

const share = (part: number, whole: number): number | null => (whole === 0 ? null : Math.round((part / whole) * 1000) / 1000);

function meanRank(results: readonly CheckResult[]): number | null {
  const ranks = results.map((r) => r.rank).filter((r): r is number => r !== null);
  return ranks.length === 0 ? null : Math.round((ranks.reduce((a, b) => a + b, 0) / ranks.length) * 100) / 100;
}

export function buildRows(results: readonly CheckResult[], falseAlarms: FalseAlarms): TableRow[] {
  const changes = results.filter((r) => r.insight === 'changes');
  const anomalies = results.filter((r) => r.insight === 'anomalies');
  const searchOf = (kind: string) => results.filter((r) => r.insight === 'search' && r.planted.startsWith(kind));
  const errors = (rs: readonly CheckResult[]) => rs.filter((r) => r.error !== undefined).length;

  const significant = changes.reduce((sum, r) => sum + (r.significantTop3 ?? 0), 0);
  const matching = changes.reduce((sum, r) => sum + (r.matchingTop3 ?? 0), 0);
  const changeRecall = share(changes.filter((r) => r.hit).length, changes.length);
  const changePrecision = share(matching, significant);
  const anomalyRecall = share(anomalies.filter((r) => r.hit).length, anomalies.length);
  const rows: TableRow[] = [
    {
      kind: 'change explanation',
      cases: changes.length,
      recallAt3: changeRecall,
      found: null,
      precisionAt3: changePrecision,
      meanRank: meanRank(changes),
      falseAlarmsPer90Days: null,
      errors: errors(changes),
      target: 'recall@3 ≥ 0.9, precision@3 ≥ 0.8',
      met: changes.length > 0 && (changeRecall ?? 0) >= 0.9 && (changePrecision ?? 0) >= 0.8,
    },
    {
      kind: 'anomalies',
      cases: anomalies.length,
      recallAt3: anomalyRecall,
      found: null,
      precisionAt3: null,
      meanRank: meanRank(anomalies),
      falseAlarmsPer90Days: falseAlarms.windows === 0 ? null : falseAlarms.per90Days,
      errors: errors(anomalies),
      target: 'recall ≥ 0.9, ≤ 1 false alarm / 90 days',
      met: anomalies.length > 0 && (anomalyRecall ?? 0) >= 0.9 && falseAlarms.windows > 0 && falseAlarms.per90Days <= 1,
    },
  ];
  for (const [kind, label] of [['ranking_loss', 'search: ranking loss'], ['cannibalisation', 'search: cannibalisation']] as const) {
    const rs = searchOf(kind);
    const found = share(rs.filter((r) => r.hit).length, rs.length);
    rows.push({
      kind: label,
      cases: rs.length,
      recallAt3: share(rs.filter((r) => r.hitAt3).length, rs.length),
      found,
      precisionAt3: null,
      meanRank: meanRank(rs),
      falseAlarmsPer90Days: null,
      errors: errors(rs),
      target: 'every planted one found',
      met: rs.length > 0 && found === 1,
    });
  }
  return rows;
}

const cell = (value: number | null): string => (value === null ? '–' : String(value));

export function renderMarkdown(report: EvalReport): string {
  const lines = [
    `Seed ${report.seed}, anchor ${report.anchor}, ${report.events} planted events, ${report.durationSeconds} s.`,
    '',
    '| insight | cases | recall@3 | found | precision@3 | mean rank | false alarms / 90 days | target | met? |',
    '|---|---|---|---|---|---|---|---|---|',
    ...report.rows.map(
      (r) =>
        `| ${r.kind} | ${r.cases}${r.errors ? ` (${r.errors} failed)` : ''} | ${cell(r.recallAt3)} | ${cell(r.found)} | ${cell(r.precisionAt3)} | ${cell(r.meanRank)} | ${cell(r.falseAlarmsPer90Days)} | ${r.target} | ${r.met ? 'yes' : 'no'} |`,
    ),
    '',
    `False alarms: ${report.falseAlarms.anomalies} anomalies in ${report.falseAlarms.windows} unplanted 90-day windows.`,
  ];
  const misses = report.results.filter((r) => !r.hit || (r.significantTop3 ?? 0) > (r.matchingTop3 ?? 0));
  if (misses.length > 0) {
    lines.push('', '| case | insight | planted | rank | answered first |', '|---|---|---|---|---|');
    for (const r of misses) {
      lines.push(`| ${r.caseId} | ${r.insight} | ${r.planted} | ${r.rank ?? (r.error ? `error: ${r.error}` : 'not found')} | ${r.top3.join('; ').replace(/\|/g, '\\|') || '–'} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}
