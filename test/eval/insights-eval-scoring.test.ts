// The insights evaluation's definitions, pinned: which answer counts as finding the planted causes (at 1 and at 3,
// with one cause or two), how precision treats drivers marked not significant and quiet windows, how the search
// ranks are counted, how the tables aggregate, and that the seeded plan reproduces and keeps the splits apart.
import { describe, expect, it } from 'vitest';
import type { Check, EvalCase, SearchTarget } from '../../scripts/insights-eval/cases.ts';
import { planCases, planQuietCases, type SiteBaseline, type SiteMix } from '../../scripts/insights-eval/plan.ts';
import { seededRandom } from '../../scripts/insights-eval/random.ts';
import { normaliseValue, scoreAnomalies, scoreChanges, scoreSearch, failedCheck, type CheckResult } from '../../scripts/insights-eval/score.ts';
import { SPLITS } from '../../scripts/insights-eval/splits.ts';
import { familyRows, headline, renderMarkdown } from '../../scripts/insights-eval/table.ts';

const shift: EvalCase = {
  id: 'shop-01',
  project: 'shop',
  family: 'segment shift',
  events: [{ kind: 'segment_shift', property: '1', dimension: 'country', value: 'Germany', from: '2026-10-01', factor: 0.6 }],
  checks: [],
};
const germany = { dimension: 'country', value: 'Germany' };
const changes = { insight: 'changes' as const, period: 'custom_2026-10-01_2026-10-14', metric: 'sessions', truths: [germany] };
const driver = (dimension: string, value: string, significant?: boolean) => ({ dimension, value, contribution: -100, ...(significant === undefined ? {} : { significant }) });

describe('change explanation scoring', () => {
  it('hits at 3 but not at 1 when the planted segment is third, and counts every significant driver for precision', () => {
    const result = scoreChanges(shift, changes, { drivers: [driver('deviceCategory', 'desktop', false), driver('landingPage', '/', true), driver('country', 'germany', true), driver('country', 'France')] });
    expect(result).toMatchObject({ hit: true, hitAt1: false, rank: 3, significant: 3, matching: 1 });
    expect(result.top3[0]).toBe('deviceCategory=desktop (-100, not significant)');
  });

  it('hits at 1 when it leads; a driver without the significant field counts as significant', () => {
    expect(scoreChanges(shift, changes, { drivers: [driver('country', 'Germany'), driver('deviceCategory', 'mobile')] })).toMatchObject({ hit: true, hitAt1: true, rank: 1, significant: 2, matching: 1 });
    expect(scoreChanges(shift, changes, { drivers: [driver('country', 'France'), driver('deviceCategory', 'mobile'), driver('landingPage', '/'), driver('country', 'Germany')] })).toMatchObject({ hit: false, rank: 4 });
  });

  it('two planted causes: hit@1 when either leads, hit@3 only when both are in the top 3, rank is the later one', () => {
    const two = { ...changes, truths: [germany, { dimension: 'deviceCategory', value: 'mobile' }] };
    expect(scoreChanges(shift, two, { drivers: [driver('deviceCategory', 'mobile'), driver('country', 'France'), driver('country', 'Germany')] })).toMatchObject({ hit: true, hitAt1: true, rank: 3, matching: 2 });
    expect(scoreChanges(shift, two, { drivers: [driver('deviceCategory', 'mobile'), driver('country', 'France'), driver('landingPage', '/'), driver('country', 'Germany')] })).toMatchObject({ hit: false, hitAt1: true, rank: 4 });
  });

  it('a value in another dimension is not the planted cause; engine and page drivers match by value', () => {
    expect(scoreChanges(shift, changes, { drivers: [driver('landingPage', 'Germany')] })).toMatchObject({ hit: false, hitAt1: false, rank: null });
    const page = { ...changes, metric: 'clicks', truths: [{ dimension: 'page', value: '/guides/tent' }] };
    expect(scoreChanges(shift, page, { drivers: [driver('page', 'https://shop.example/guides/tent/')] })).toMatchObject({ hitAt1: true });
  });

  it('in a quiet window every significant driver is a false one', () => {
    const quiet: Check & { insight: 'quiet' } = { insight: 'quiet', period: 'custom_2026-10-01_2026-10-14', metric: 'engagementRate' };
    const result = scoreChanges({ ...shift, family: 'quiet window', events: [] }, quiet, { drivers: [driver('country', 'Chad', true), driver('deviceCategory', 'mobile', false)] });
    expect(result).toMatchObject({ significant: 1, matching: 0, metric: 'engagementRate', planted: 'nothing' });
  });
});

describe('anomaly and search scoring', () => {
  const spike: EvalCase = { ...shift, family: 'spike', events: [{ kind: 'spike', property: '1', dimension: 'sessionDefaultChannelGroup', value: 'Direct', date: '2026-10-05', factor: 5 }] };
  const anomalyCheck = { insight: 'anomalies' as const, period: 'custom_2026-07-08_2026-10-05', metric: 'sessions', date: '2026-10-05' };
  const search = (target: SearchTarget) => ({ insight: 'search' as const, period: 'custom_2026-10-01_2026-10-14', target });

  it('finds the planted day among the anomalies, at its rank', () => {
    expect(scoreAnomalies(spike, anomalyCheck, { anomalies: [{ date: '2026-09-01', score: 6 }, { date: '2026-10-05', score: 9 }] })).toMatchObject({ hit: true, rank: 2 });
    expect(scoreAnomalies(spike, anomalyCheck, { anomalies: [{ date: '2026-10-06', score: 9 }] })).toMatchObject({ hit: false, rank: null });
  });

  it('a lost query is found as losing_clicks or lost_query; its rank among those kinds and among all opportunities', () => {
    const check = search({ kinds: ['losing_clicks', 'lost_query'], query: 'Hiking Boots' });
    const body = { opportunities: [{ kind: 'low_ctr', query: 'hiking boots' }, { kind: 'losing_clicks', query: 'tents' }, { kind: 'lost_query', query: 'hiking boots ' }] };
    expect(scoreSearch(shift, check, body)).toMatchObject({ hit: true, hitAt1: false, hitAt3: true, rank: 2, overallRank: 3 });
    expect(scoreSearch(shift, check, { opportunities: [{ kind: 'losing_clicks', query: 'hiking boots' }] })).toMatchObject({ hit: true, hitAt1: true, overallRank: 1 });
    expect(scoreSearch(shift, check, { opportunities: [{ kind: 'low_ctr', query: 'hiking boots' }] })).toMatchObject({ hit: false, overallRank: null });
  });

  it('a dropped page is found by its page; a cannibalisation needs the query and both pages, as paths or URLs', () => {
    const page = search({ kinds: ['losing_clicks', 'lost_query'], page: '/guides/tent' });
    expect(scoreSearch(shift, page, { opportunities: [{ kind: 'losing_clicks', query: 'tent', page: 'https://shop.example/guides/tent' }] })).toMatchObject({ hit: true });
    expect(scoreSearch(shift, page, { opportunities: [{ kind: 'losing_clicks', page: 'https://shop.example/guides/tents' }] })).toMatchObject({ hit: false });
    const cannibal = search({ kinds: ['cannibalisation'], query: 'tents', pages: ['/a', '/b/'] });
    expect(scoreSearch(shift, cannibal, { opportunities: [{ kind: 'cannibalisation', query: 'tents', pages: ['https://shop.example/b', 'https://shop.example/a/'] }] })).toMatchObject({ hit: true, rank: 1 });
    expect(scoreSearch(shift, cannibal, { opportunities: [{ kind: 'cannibalisation', query: 'tents', pages: ['/a', '/c'] }] })).toMatchObject({ hit: false });
  });

  it('normalises values for comparison', () => {
    expect(normaliseValue(' https://www.shop.example/Sale/ ')).toBe('/sale');
    expect(normaliseValue('/')).toBe('/');
    expect(normaliseValue('United Kingdom')).toBe('united kingdom');
  });
});

describe('the tables', () => {
  const result = (over: Partial<CheckResult>): CheckResult => ({ caseId: 'x', project: 'shop', family: 'segment shift', insight: 'changes', metric: 'sessions', planted: 'p', hit: true, hitAt1: true, rank: 1, top3: [], ...over });

  it('aggregates recall@1/@3, micro-averaged precision over planted and quiet cases, search ranks, and the targets', () => {
    const results = [
      result({ caseId: 'a', significant: 1, matching: 1 }),
      result({ caseId: 'b', hitAt1: false, rank: 2, significant: 2, matching: 1 }),
      result({ caseId: 'c', family: 'rate shift', metric: 'engagementRate', hit: false, hitAt1: false, rank: 5, significant: 1, matching: 0 }),
      result({ caseId: 'q', family: 'quiet window', insight: 'quiet', metric: 'engagementRate', hit: false, hitAt1: false, rank: null, significant: 2, matching: 0 }),
      result({ caseId: 'd', family: 'query loss', insight: 'search', hit: true, hitAt1: false, hitAt3: true, rank: 1, overallRank: 4 }),
      failedCheck({ ...shift, id: 'e', family: 'cannibalisation' }, { insight: 'search', period: 'p', target: { kinds: ['cannibalisation'] } }, '404 not_found'),
    ];
    const rows = familyRows(results);
    expect(rows.map((r) => r.family)).toEqual(['segment shift', 'rate shift', 'quiet window', 'query loss', 'cannibalisation']);
    expect(rows[0]).toMatchObject({ cases: 2, recallAt1: 0.5, recallAt3: 1, meanRank: 1.5, significant: 3, matching: 2, precision: 0.667 });
    expect(rows[2]).toMatchObject({ cases: 1, recallAt1: null, significant: 2, matching: 0, precision: 0 });
    expect(rows[3]).toMatchObject({ found: 1, firstOverall: 0 });
    expect(rows[4]).toMatchObject({ found: 0, errors: 1 });
    const alarms = [{ metric: 'sessions', windows: 6, anomalies: 1, per90Days: 0.167 }, { metric: 'clicks', windows: 6, anomalies: 3, per90Days: 0.5 }];
    const tokens = [{ tool: 'explain_change', byProject: { shop: 900, journal: 1600 }, max: 1600 }];
    const head = headline(results, alarms, tokens);
    expect(head.map((h) => [h.value, h.met])).toEqual([[0.333, false], [0.667, null], [0.333, false], [0, false], [0.5, false], [0, false], [1600, false]]);
    const markdown = renderMarkdown({ startedAt: '', split: 'held-out', seeds: [1], anchor: '2026-11-19', events: 4, durationSeconds: 1, tokenizer: 't', headline: head, families: rows, falseAlarms: alarms, tokens, results, cases: [] });
    expect(markdown).toContain('| segment shift | 2 | 2 | 0.5 | 1 | 1.5 | 3 | 2 | 0.667 | – | – | 0 |');
    expect(markdown).toContain('| explain_change | 900 | 1600 | 1600 |');
    expect(markdown).toContain('error: 404 not_found');
  });
});

describe('the seeded plan', () => {
  const site: SiteBaseline = {
    project: 'shop',
    propertyId: '1',
    siteUrl: 'sc-domain:shop.example',
    engine2: true,
    segments: {
      country: [{ value: 'Germany', share: 0.5 }, { value: 'France', share: 0.2 }, { value: 'Chad', share: 0.001 }],
      sessionDefaultChannelGroup: [{ value: 'Direct', share: 0.3 }, { value: 'Organic Search', share: 0.5 }],
      deviceCategory: [{ value: 'mobile', share: 0.6 }, { value: 'desktop', share: 0.4 }],
      landingPage: [{ value: '/', share: 0.2 }, { value: '/tiny', share: 0.001 }],
    },
    queries: [
      { query: 'shop', clicks: 500, impressions: 1000, position: 1.2, pages: ['/'], engine2: true },
      { query: 'tents', clicks: 100, impressions: 3000, position: 6, pages: ['/tents'], engine2: true },
      { query: 'boots', clicks: 80, impressions: 2000, position: 5, pages: ['/boots'], engine2: false },
    ],
    pages: [{ page: '/', clicks: 500 }, { page: '/tents', clicks: 100 }, { page: '/sale', clicks: 2 }],
  };
  const mix: SiteMix = { shifts: 2, spikes: 1, rateShifts: 2, trends: 1, twoEvents: 1, queryLosses: 1, engine2Losses: 1, pageDrops: 1, cannibalisations: 1 };

  it('reproduces from the seed, plants only causes big enough to name, and dates every check before the anchor', () => {
    const first = planCases([site], { shop: mix }, seededRandom(7), '2026-11-19');
    expect(planCases([site], { shop: mix }, seededRandom(7), '2026-11-19')).toEqual(first);
    expect(planCases([site], { shop: mix }, seededRandom(8), '2026-11-19')).not.toEqual(first);
    expect(new Set(first.map((c) => c.family))).toEqual(new Set(['segment shift', 'spike', 'rate shift', 'trend', 'two events', 'query loss', 'engine2-only loss', 'page drop (echo)', 'cannibalisation']));
    for (const c of first.filter((k) => ['segment shift', 'rate shift', 'two events'].includes(k.family))) {
      for (const e of c.events) expect(['segment_shift', 'rate_shift']).toContain(e.kind);
      expect(Math.abs(c.effect ?? 0)).toBeGreaterThanOrEqual(0.04);
    }
    const two = first.find((c) => c.family === 'two events')!;
    expect(two.events).toHaveLength(2);
    expect((two.checks[0] as { truths: unknown[] }).truths).toHaveLength(2);
    const engine2 = first.find((c) => c.family === 'engine2-only loss')!;
    expect(engine2.events[0]).toMatchObject({ kind: 'ranking_loss', engine: 'engine2' });
    expect(engine2.checks[0]).toMatchObject({ insight: 'changes', metric: 'clicks', sp: 'all', truths: [{ dimension: 'engine', value: 'engine2' }] });
    expect(first.find((c) => c.family === 'page drop (echo)')!.checks[0]).toMatchObject({ metric: 'clicks', truths: [{ dimension: 'page' }] });
    const periods = first.flatMap((c) => c.checks.map((k) => k.period));
    for (const period of periods) expect(period.slice(-10) <= '2026-11-19').toBe(true);
  });

  it('a project without engine2 gets no engine2-only loss; quiet windows cover every project and metric kind', () => {
    expect(planCases([{ ...site, engine2: false }], { shop: mix }, seededRandom(7), '2026-11-19').some((c) => c.family === 'engine2-only loss')).toBe(false);
    const quiet = planQuietCases([site, { ...site, project: 'blog' }], '2026-11-19', 2);
    expect(quiet).toHaveLength(16);
    expect(new Set(quiet.flatMap((c) => c.checks.map((k) => (k as { metric: string }).metric)))).toEqual(new Set(['sessions', 'sessionKeyEventRate', 'engagementRate', 'clicks']));
    expect(quiet.every((c) => c.events.length === 0)).toBe(true);
  });

  it('keeps the tuning and held-out seeds apart', () => {
    expect(SPLITS.tuning.filter((s) => (SPLITS['held-out'] as readonly number[]).includes(s))).toEqual([]);
  });
});
