// Turns check results into the evaluation's tables — the headline measures against the targets, one row per
// family of cases, false alarms per metric, answer sizes per tool — and renders them as Markdown, followed by
// every miss with what the answer said instead.
import type { EvalCase } from './cases.ts';
import type { CheckResult } from './score.ts';

export interface FalseAlarmRow {
  metric: string;
  /** Unplanted 90-day windows asked (over all projects). */
  windows: number;
  anomalies: number;
  per90Days: number | null;
}

export interface TokenRow {
  tool: string;
  /** Tokens of the answer at defaults (only `project` given), per project. */
  byProject: Record<string, number>;
  max: number;
}

export interface FamilyRow {
  family: string;
  cases: number;
  checks: number;
  recallAt1: number | null;
  recallAt3: number | null;
  meanRank: number | null;
  /** Drivers called significant, and how many of them were planted causes. */
  significant: number;
  matching: number;
  precision: number | null;
  /** Search: planted loss reported at all, and first of every opportunity. */
  found: number | null;
  firstOverall: number | null;
  errors: number;
}

export interface Headline {
  measure: string;
  value: number | null;
  target: string;
  met: boolean | null;
}

export interface EvalReport {
  startedAt: string;
  split: string;
  seeds: number[];
  anchor: string;
  events: number;
  durationSeconds: number;
  tokenizer: string;
  headline: Headline[];
  families: FamilyRow[];
  falseAlarms: FalseAlarmRow[];
  tokens: TokenRow[];
  results: CheckResult[];
  /** Every planted event with its checks, so a run can be reproduced and read. */
  cases: EvalCase[];
}

export const share = (part: number, whole: number): number | null => (whole === 0 ? null : Math.round((part / whole) * 1000) / 1000);

function meanOf(values: readonly (number | null | undefined)[]): number | null {
  const xs = values.filter((r): r is number => typeof r === 'number');
  return xs.length === 0 ? null : Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 100) / 100;
}

const RATE_METRICS = new Set(['sessionKeyEventRate', 'engagementRate']);
const isChange = (r: CheckResult) => r.insight === 'changes';
const judgesSignificance = (r: CheckResult) => r.insight === 'changes' || r.insight === 'quiet';
const sum = (rs: readonly CheckResult[], key: 'significant' | 'matching') => rs.reduce((a, r) => a + (r[key] ?? 0), 0);

export function familyRows(results: readonly CheckResult[]): FamilyRow[] {
  const families = [...new Set(results.map((r) => r.family))];
  return families.map((family) => {
    const rs = results.filter((r) => r.family === family);
    const changes = rs.filter(isChange);
    const judged = rs.filter(judgesSignificance);
    const anomalies = rs.filter((r) => r.insight === 'anomalies');
    const search = rs.filter((r) => r.insight === 'search');
    const ranked = changes.length ? changes : anomalies.length ? anomalies : search;
    return {
      family,
      cases: new Set(rs.map((r) => r.caseId)).size,
      checks: rs.length,
      recallAt1: changes.length ? share(changes.filter((r) => r.hitAt1).length, changes.length) : null,
      recallAt3: changes.length ? share(changes.filter((r) => r.hit).length, changes.length) : anomalies.length ? share(anomalies.filter((r) => r.hit).length, anomalies.length) : null,
      meanRank: meanOf(ranked.map((r) => r.rank)),
      significant: sum(judged, 'significant'),
      matching: sum(judged, 'matching'),
      precision: share(sum(judged, 'matching'), sum(judged, 'significant')),
      found: search.length ? share(search.filter((r) => r.hit).length, search.length) : null,
      firstOverall: search.length ? share(search.filter((r) => r.hitAt1).length, search.length) : null,
      errors: rs.filter((r) => r.error !== undefined).length,
    };
  });
}

/** The issue's targets, measured: what part B of the insights work is judged by. */
export function headline(results: readonly CheckResult[], falseAlarms: readonly FalseAlarmRow[], tokens: readonly TokenRow[]): Headline[] {
  const changes = results.filter(isChange);
  const judged = results.filter(judgesSignificance);
  const rates = judged.filter((r) => RATE_METRICS.has(r.metric ?? ''));
  const losses = results.filter((r) => r.insight === 'search' && r.family !== 'cannibalisation');
  const worstAlarms = falseAlarms.reduce<number | null>((m, f) => (f.per90Days === null ? m : Math.max(m ?? 0, f.per90Days)), null);
  const recall1 = share(changes.filter((r) => r.hitAt1).length, changes.length);
  const precision = share(sum(judged, 'matching'), sum(judged, 'significant'));
  const ratePrecision = share(sum(rates, 'matching'), sum(rates, 'significant'));
  const first = share(losses.filter((r) => r.hitAt1).length, losses.length);
  const rows: Headline[] = [
    { measure: 'change explanation: recall@1 (the first driver is a planted cause)', value: recall1, target: '≥ 0.95', met: recall1 === null ? null : recall1 >= 0.95 },
    { measure: 'change explanation: recall@3 (every planted cause in the top 3)', value: share(changes.filter((r) => r.hit).length, changes.length), target: '–', met: null },
    { measure: 'precision of `significant` (planted cases and quiet windows)', value: precision, target: '≥ 0.9', met: precision === null ? null : precision >= 0.9 },
    { measure: 'precision of `significant`, rate metrics only', value: ratePrecision, target: '≥ 0.9', met: ratePrecision === null ? null : ratePrecision >= 0.9 },
    { measure: 'anomalies: false alarms per 90 days, worst metric', value: worstAlarms, target: '≤ 0.2', met: worstAlarms === null ? null : worstAlarms <= 0.2 },
    { measure: 'search opportunities: the planted loss is the first opportunity', value: first, target: '1', met: first === null ? null : first === 1 },
  ];
  for (const t of tokens) rows.push({ measure: `tokens of ${t.tool} at defaults, largest project`, value: t.max, target: '≤ 1500', met: t.max <= 1500 });
  return rows;
}

const cell = (value: number | null | boolean): string => (value === null ? '–' : typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value));
const escape = (text: string) => text.replace(/\|/g, '\\|');

export function renderMarkdown(report: EvalReport): string {
  const projects = [...new Set(report.tokens.flatMap((t) => Object.keys(t.byProject)))];
  const lines = [
    `Split **${report.split}** (seeds ${report.seeds.join(', ')}), anchor ${report.anchor}, ${report.events} planted events, ${report.durationSeconds} s.`,
    '',
    '| measure | value | target | met? |',
    '|---|---|---|---|',
    ...report.headline.map((h) => `| ${h.measure} | ${cell(h.value)} | ${h.target} | ${cell(h.met)} |`),
    '',
    '| family | cases | checks | recall@1 | recall@3 | mean rank | significant | of them planted | precision | found | first overall | failed |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...report.families.map((f) => `| ${f.family} | ${f.cases} | ${f.checks} | ${cell(f.recallAt1)} | ${cell(f.recallAt3)} | ${cell(f.meanRank)} | ${f.significant} | ${f.matching} | ${cell(f.precision)} | ${cell(f.found)} | ${cell(f.firstOverall)} | ${f.errors} |`),
    '',
    '| anomalies on unplanted data: metric | 90-day windows | anomalies | per 90 days |',
    '|---|---|---|---|',
    ...report.falseAlarms.map((f) => `| ${f.metric} | ${f.windows} | ${f.anomalies} | ${cell(f.per90Days)} |`),
    '',
    `| tokens at defaults (${report.tokenizer}) | ${projects.join(' | ')} | largest |`,
    `|---|${projects.map(() => '---|').join('')}---|`,
    ...report.tokens.map((t) => `| ${t.tool} | ${projects.map((p) => cell(t.byProject[p] ?? null)).join(' | ')} | ${t.max} |`),
  ];
  const misses = report.results.filter((r) => (r.insight === 'changes' && !r.hitAt1) || (r.insight !== 'changes' && r.insight !== 'quiet' && !r.hit) || (r.significant ?? 0) > (r.matching ?? 0));
  if (misses.length > 0) {
    lines.push('', 'Misses, and answers with significant drivers that were not planted:', '', '| case | insight | planted | rank | significant (planted) | answered first |', '|---|---|---|---|---|---|');
    for (const r of misses) {
      const rank = r.rank ?? (r.error ? `error: ${escape(r.error)}` : r.insight === 'quiet' ? '–' : 'not found');
      const judged = r.significant === undefined ? '–' : `${r.significant} (${r.matching ?? 0})`;
      lines.push(`| ${r.caseId} | ${r.insight}${r.metric ? ` ${r.metric}` : ''} | ${escape(r.planted)} | ${rank} | ${judged} | ${escape(r.top3.join('; ')) || '–'} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}
