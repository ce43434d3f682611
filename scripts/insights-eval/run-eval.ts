// The evaluation itself: open the lanes, read the baselines, plan the seeded cases of a split (or of given seeds)
// and the quiet windows, and for each case plant its events, ask the insight endpoints (force=1, so Siteline's
// cache cannot answer from before the event), score the answers and clear the sandbox; then, on unplanted data,
// count anomalies per metric and measure each tool's answer at its defaults.
import { addDays, type IsoDate } from '../../src/domain/calendar.ts';
import { DEMO_SITES, type DemoSite } from '../../src/sandbox/catalogue.ts';
import { readBaseline } from './baseline.ts';
import { customPeriod, type Check, type EvalCase } from './cases.ts';
import { openLane, type Lane } from './lane.ts';
import { ANOMALY_DAYS, planCases, planQuietCases, QUIET_METRICS, type SiteBaseline, type SiteMix } from './plan.ts';
import { seededRandom } from './random.ts';
import { countAnomalies, failedCheck, scoreAnomalies, scoreChanges, scoreSearch, type CheckResult } from './score.ts';
import { SPLITS, type SplitName } from './splits.ts';
import { familyRows, headline, share, type EvalReport, type FalseAlarmRow, type TokenRow } from './table.ts';
import { DEFAULT_TOOL_PATHS, TOKENIZER, tokensOf } from './tokens.ts';

/**
 * Per seed: 41 cases over the three demo sites (tiny-saas has no engine2, so no engine2-only loss). acme-shop gets
 * one search loss of each kind: explaining its clicks reads 25,000 queries, a minute per answer on today's code.
 */
export const DEFAULT_MIXES: Readonly<Record<string, SiteMix>> = {
  'acme-shop': { shifts: 3, spikes: 2, rateShifts: 3, trends: 2, twoEvents: 1, queryLosses: 1, engine2Losses: 1, pageDrops: 1, cannibalisations: 1 },
  'northwind-journal': { shifts: 3, spikes: 2, rateShifts: 3, trends: 2, twoEvents: 1, queryLosses: 2, engine2Losses: 1, pageDrops: 1, cannibalisations: 1 },
  'tiny-saas': { shifts: 2, spikes: 1, rateShifts: 2, trends: 1, twoEvents: 1, queryLosses: 1, engine2Losses: 0, pageDrops: 1, cannibalisations: 1 },
};

export interface EvalOptions {
  /** The split whose seeds plan the cases (default held-out); `seeds` overrides it. */
  split?: SplitName;
  seeds?: readonly number[];
  /** The last day any case looks at (default: four days ago, UTC, so every day asked is complete). */
  anchor?: IsoDate;
  mixes?: Readonly<Record<string, SiteMix>>;
  /** Independent sandbox + Siteline pairs working through the cases side by side (default 2). */
  lanes?: number;
  /** Unplanted 14-day windows per project and metric kind asked for drivers (default 2, a month apart). */
  quietWindows?: number;
  /** Unplanted 90-day windows per project and metric for the false-alarm rate (default 2: the last 90 days and the 90 before). */
  falseAlarmWindows?: number;
  /** Queries whose ranking pages the baseline looks up (default 15; 0 when no cannibalisation is planted). */
  queriesWithPages?: number;
  log?: (line: string) => void;
}

export function defaultAnchor(now = new Date()): IsoDate {
  return addDays(now.toISOString().slice(0, 10), -4);
}

function insightPath(c: EvalCase, check: Check): string {
  const base = `/api/v1/metrics/${c.project}/insights`;
  switch (check.insight) {
    case 'changes':
    case 'quiet':
      return `${base}/changes?period=${check.period}&compare=previous&metric=${check.metric}${'sp' in check && check.sp ? `&sp=${check.sp}` : ''}&force=1`;
    case 'anomalies':
      return `${base}/anomalies?period=${check.period}&metric=${check.metric}&force=1`;
    case 'search':
      return `${base}/search-opportunities?period=${check.period}&force=1`;
  }
}

function score(c: EvalCase, check: Check, body: unknown): CheckResult {
  switch (check.insight) {
    case 'changes':
    case 'quiet':
      return scoreChanges(c, check, body);
    case 'anomalies':
      return scoreAnomalies(c, check, body);
    case 'search':
      return scoreSearch(c, check, body);
  }
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function runCase(lane: Lane, c: EvalCase): Promise<CheckResult[]> {
  try {
    await lane.clear();
    if (c.events.length) await lane.plant(c.events);
  } catch (error) {
    return c.checks.map((check) => failedCheck(c, check, `planting failed: ${message(error)}`));
  }
  const results: CheckResult[] = [];
  for (const check of c.checks) {
    try {
      results.push(score(c, check, await lane.get(insightPath(c, check))));
    } catch (error) {
      results.push(failedCheck(c, check, message(error)));
    }
  }
  await lane.clear().catch(() => {});
  return results;
}

/** Anomalies reported on unplanted data, per metric, over `windows` 90-day windows per project. */
async function countFalseAlarms(lane: Lane, sites: readonly DemoSite[], anchor: IsoDate, windows: number): Promise<FalseAlarmRow[]> {
  await lane.clear().catch(() => {});
  return Promise.all(QUIET_METRICS.map(async (metric) => {
    let anomalies = 0;
    let asked = 0;
    for (const site of sites) {
      for (let w = 0; w < windows; w++) {
        const end = addDays(anchor, -w * ANOMALY_DAYS);
        const body = await lane.get(`/api/v1/metrics/${site.key}/insights/anomalies?period=${customPeriod(addDays(end, -(ANOMALY_DAYS - 1)), end)}&metric=${metric}&force=1`).catch(() => undefined);
        if (body === undefined) continue;
        anomalies += countAnomalies(body);
        asked += 1;
      }
    }
    return { metric, windows: asked, anomalies, per90Days: share(anomalies, asked) };
  }));
}

/** Each insight tool's answer at its defaults on every project, in tokens. */
async function measureTokens(lane: Lane, sites: readonly DemoSite[]): Promise<TokenRow[]> {
  await lane.clear().catch(() => {});
  const rows: TokenRow[] = [];
  for (const [tool, path] of Object.entries(DEFAULT_TOOL_PATHS)) {
    const byProject: Record<string, number> = {};
    for (const site of sites) byProject[site.key] = tokensOf(await lane.get(path(site.key)));
    rows.push({ tool, byProject, max: Math.max(...Object.values(byProject)) });
  }
  return rows;
}

export async function runEval(options: EvalOptions = {}): Promise<EvalReport> {
  const started = Date.now();
  const split = options.seeds ? 'custom' : (options.split ?? 'held-out');
  const seeds = options.seeds ?? SPLITS[options.split ?? 'held-out'];
  const anchor = options.anchor ?? defaultAnchor();
  const log = options.log ?? (() => {});
  const mixes = options.mixes ?? DEFAULT_MIXES;
  const lanes = await Promise.all(Array.from({ length: Math.max(1, options.lanes ?? 2) }, () => openLane()));
  try {
    const first = lanes[0] as Lane;
    await first.clear().catch(() => {});
    const sites = DEMO_SITES.filter((s) => mixes[s.key] !== undefined);
    const baselines: SiteBaseline[] = [];
    for (const site of sites) baselines.push(await readBaseline(first, site, anchor, options.queriesWithPages));
    const planted = seeds.flatMap((seed) => planCases(baselines, mixes, seededRandom(seed), anchor, `${seed}-`));
    const cases = [...planted, ...planQuietCases(baselines, anchor, options.quietWindows ?? 2, 'quiet-')];
    log(`insights eval: split ${split} (seeds ${seeds.join(', ')}), anchor ${anchor}, ${planted.length} planted cases and ${cases.length - planted.length} quiet ones on ${lanes.length} lane(s)`);

    const results: CheckResult[][] = Array.from({ length: cases.length }, () => []);
    let next = 0;
    await Promise.all(
      lanes.map(async (lane) => {
        while (next < cases.length) {
          const index = next++;
          const c = cases[index] as EvalCase;
          results[index] = await runCase(lane, c);
          log(`  ${c.id} ${results[index].map((r) => `${r.insight}:${r.error ? 'error' : r.hitAt1 || (r.insight !== 'changes' && r.hit) ? 'hit' : r.insight === 'quiet' ? `${r.significant} significant` : 'miss'}`).join(' ')}`);
        }
      }),
    );
    const falseAlarms = await countFalseAlarms(first, sites, anchor, options.falseAlarmWindows ?? 2);
    const tokens = await measureTokens(first, sites);
    const flat = results.flat();
    return {
      startedAt: new Date(started).toISOString(),
      split,
      seeds: [...seeds],
      anchor,
      events: planted.reduce((n, c) => n + c.events.length, 0),
      durationSeconds: Math.round((Date.now() - started) / 100) / 10,
      tokenizer: TOKENIZER,
      headline: headline(flat, falseAlarms, tokens),
      families: familyRows(flat),
      falseAlarms,
      tokens,
      results: flat,
      cases,
    };
  } finally {
    await Promise.all(lanes.map((l) => l.dispose()));
  }
}
