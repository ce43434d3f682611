// The evaluation itself: open the lanes, read the baselines, plan the seeded cases, and for each case plant its
// event, ask the insight endpoints (force=1, so Siteline's cache cannot answer from before the event), score the
// answers and clear the sandbox; then ask for anomalies on unplanted data to count false alarms.
import { addDays, type IsoDate } from '../../src/domain/calendar.ts';
import { DEMO_SITES, type DemoSite } from '../../src/sandbox/catalogue.ts';
import { readBaseline } from './baseline.ts';
import { customPeriod, type Check, type EvalCase } from './cases.ts';
import { openLane, type Lane } from './lane.ts';
import { ANOMALY_DAYS, planCases, type SiteMix } from './plan.ts';
import { seededRandom } from './random.ts';
import { countAnomalies, failedCheck, scoreAnomalies, scoreChanges, scoreSearch, type CheckResult } from './score.ts';
import { buildRows, type EvalReport, type FalseAlarms } from './table.ts';

export const DEFAULT_SEED = 13;

/** 34 events: 15 segment shifts, 10 spikes, 5 ranking losses, 4 cannibalisations over the three demo sites. */
export const DEFAULT_MIXES: Readonly<Record<string, SiteMix>> = {
  'acme-shop': { shifts: 6, spikes: 4, rankingLosses: 2, cannibalisations: 2 },
  'northwind-journal': { shifts: 5, spikes: 3, rankingLosses: 2, cannibalisations: 1 },
  'tiny-saas': { shifts: 4, spikes: 3, rankingLosses: 1, cannibalisations: 1 },
};

export interface EvalOptions {
  seed?: number;
  /** The last day any case looks at (default: four days ago, UTC, so every day asked is complete). */
  anchor?: IsoDate;
  mixes?: Readonly<Record<string, SiteMix>>;
  /** Independent sandbox + Siteline pairs working through the cases side by side (default 2). */
  lanes?: number;
  /** Unplanted 90-day windows per site for the false-alarm rate (default 2: the last 90 days and the 90 before). */
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
      return `${base}/changes?period=${check.period}&compare=previous&metric=${check.metric}&force=1`;
    case 'anomalies':
      return `${base}/anomalies?period=${check.period}&metric=${check.metric}&force=1`;
    case 'search':
      return `${base}/search-opportunities?period=${check.period}&force=1`;
  }
}

function score(c: EvalCase, check: Check, body: unknown): CheckResult {
  switch (check.insight) {
    case 'changes':
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
    await lane.plant([c.event]);
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

async function countFalseAlarms(lane: Lane, sites: readonly DemoSite[], anchor: IsoDate, windows: number): Promise<FalseAlarms> {
  // Without a scenarios switch nothing can have been planted, so the data is unplanted either way.
  await lane.clear().catch(() => {});
  let anomalies = 0;
  let asked = 0;
  for (const site of sites) {
    for (let w = 0; w < windows; w++) {
      const end = addDays(anchor, -w * ANOMALY_DAYS);
      const body = await lane.get(`/api/v1/metrics/${site.key}/insights/anomalies?period=${customPeriod(addDays(end, -(ANOMALY_DAYS - 1)), end)}&metric=sessions&force=1`).catch(() => undefined);
      if (body === undefined) continue;
      anomalies += countAnomalies(body);
      asked += 1;
    }
  }
  return { windows: asked, anomalies, per90Days: asked === 0 ? 0 : Math.round((anomalies / asked) * 100) / 100 };
}

export async function runEval(options: EvalOptions = {}): Promise<EvalReport> {
  const started = Date.now();
  const seed = options.seed ?? DEFAULT_SEED;
  const anchor = options.anchor ?? defaultAnchor();
  const log = options.log ?? (() => {});
  const mixes = options.mixes ?? DEFAULT_MIXES;
  const lanes = await Promise.all(Array.from({ length: Math.max(1, options.lanes ?? 2) }, () => openLane()));
  try {
    const first = lanes[0] as Lane;
    await first.clear().catch(() => {});
    const sites = DEMO_SITES.filter((s) => mixes[s.key] !== undefined);
    const baselines = [];
    for (const site of sites) baselines.push(await readBaseline(first, site, anchor, options.queriesWithPages));
    const cases = planCases(baselines, mixes, seededRandom(seed), anchor);
    log(`insights eval: seed ${seed}, anchor ${anchor}, ${cases.length} planted events on ${lanes.length} lane(s)`);

    const results: CheckResult[][] = Array.from({ length: cases.length }, () => []);
    let next = 0;
    await Promise.all(
      lanes.map(async (lane) => {
        while (next < cases.length) {
          const index = next++;
          const c = cases[index] as EvalCase;
          results[index] = await runCase(lane, c);
          log(`  ${c.id} ${results[index].map((r) => `${r.insight}:${r.error ? 'error' : r.hit ? 'hit' : 'miss'}`).join(' ')}`);
        }
      }),
    );
    const falseAlarms = await countFalseAlarms(first, sites, anchor, options.falseAlarmWindows ?? 2);
    const flat = results.flat();
    return {
      startedAt: new Date(started).toISOString(),
      seed,
      anchor,
      events: cases.length,
      durationSeconds: Math.round((Date.now() - started) / 100) / 10,
      rows: buildRows(flat, falseAlarms),
      falseAlarms,
      results: flat,
      cases,
    };
  } finally {
    await Promise.all(lanes.map((l) => l.dispose()));
  }
}
