// The insights evaluation's definitions, pinned: which answer counts as finding the planted cause, how precision
// treats drivers marked not significant, how the table is aggregated, and that the seeded plan reproduces.
import { describe, expect, it } from 'vitest';
import type { Check, EvalCase } from '../../scripts/insights-eval/cases.ts';
import { planCases, type SiteBaseline } from '../../scripts/insights-eval/plan.ts';
import { seededRandom } from '../../scripts/insights-eval/random.ts';
import { normaliseValue, scoreAnomalies, scoreChanges, scoreSearch, failedCheck, type CheckResult } from '../../scripts/insights-eval/score.ts';
import { buildRows, renderMarkdown } from '../../scripts/insights-eval/table.ts';

const shift: EvalCase = {
  id: 'shop-01',
  project: 'shop',
  event: { kind: 'segment_shift', property: '1', dimension: 'country', value: 'Germany', from: '2026-10-01', factor: 0.6 },
  checks: [],
};
const changes: Check = { insight: 'changes', period: 'custom_2026-10-01_2026-10-14', metric: 'sessions' };
const driver = (dimension: string, value: string, significant?: boolean) => ({ dimension, value, contribution: -100, ...(significant === undefined ? {} : { significant }) });

describe('change explanation scoring', () => {
  it('hits when the planted segment is among the top 3, and counts only significant drivers for precision', () => {
    const result = scoreChanges(shift, changes, { drivers: [driver('deviceCategory', 'desktop', false), driver('landingPage', '/', true), driver('country', 'germany', true), driver('country', 'France')] });
    expect(result).toMatchObject({ hit: true, rank: 3, significantTop3: 2, matchingTop3: 1 });
    expect(result.top3[0]).toBe('deviceCategory=desktop (-100, not significant)');
  });

  it('misses at rank 4, and a driver without the significant field counts as significant', () => {
    const result = scoreChanges(shift, changes, { drivers: [driver('country', 'France'), driver('deviceCategory', 'mobile'), driver('landingPage', '/'), driver('country', 'Germany')] });
    expect(result).toMatchObject({ hit: false, rank: 4, significantTop3: 3, matchingTop3: 0 });
  });

  it('a value in another dimension is not the planted cause', () => {
    expect(scoreChanges(shift, changes, { drivers: [driver('landingPage', 'Germany')] })).toMatchObject({ hit: false, rank: null });
  });
});

describe('anomaly and search scoring', () => {
  const spike: EvalCase = { ...shift, event: { kind: 'spike', property: '1', dimension: 'sessionDefaultChannelGroup', value: 'Direct', date: '2026-10-05', factor: 5 } };
  const anomalyCheck = { insight: 'anomalies' as const, period: 'custom_2026-07-08_2026-10-05', metric: 'sessions', date: '2026-10-05' };

  it('finds the planted day among the anomalies, at its rank', () => {
    expect(scoreAnomalies(spike, anomalyCheck, { anomalies: [{ date: '2026-09-01', score: 6 }, { date: '2026-10-05', score: 9 }] })).toMatchObject({ hit: true, rank: 2 });
    expect(scoreAnomalies(spike, anomalyCheck, { anomalies: [{ date: '2026-10-06', score: 9 }] })).toMatchObject({ hit: false, rank: null });
  });

  it('a ranking loss is found as losing_clicks or lost_query for that query; ranks count only those kinds', () => {
    const loss: EvalCase = { ...shift, event: { kind: 'ranking_loss', site: 'sc-domain:shop.example', query: 'Hiking Boots', from: '2026-10-01', position: 11 } };
    const check: Check = { insight: 'search', period: 'custom_2026-10-01_2026-10-14' };
    const body = { opportunities: [{ kind: 'low_ctr', query: 'hiking boots' }, { kind: 'losing_clicks', query: 'tents' }, { kind: 'lost_query', query: 'hiking boots ' }] };
    expect(scoreSearch(loss, check, body)).toMatchObject({ hit: true, hitAt3: true, rank: 2 });
    expect(scoreSearch(loss, check, { opportunities: [{ kind: 'low_ctr', query: 'hiking boots' }] })).toMatchObject({ hit: false });
  });

  it('a cannibalisation needs the query and both pages, as paths or full URLs', () => {
    const cannibal: EvalCase = { ...shift, event: { kind: 'cannibalisation', site: 'sc-domain:shop.example', query: 'tents', pages: ['/a', '/b/'], from: '2026-10-01' } };
    const check: Check = { insight: 'search', period: 'custom_2026-10-01_2026-10-14' };
    expect(scoreSearch(cannibal, check, { opportunities: [{ kind: 'cannibalisation', query: 'tents', pages: ['https://shop.example/b', 'https://shop.example/a/'] }] })).toMatchObject({ hit: true, rank: 1 });
    expect(scoreSearch(cannibal, check, { opportunities: [{ kind: 'cannibalisation', query: 'tents', pages: ['/a', '/c'] }] })).toMatchObject({ hit: false });
  });

  it('normalises values for comparison', () => {
    expect(normaliseValue(' https://www.shop.example/Sale/ ')).toBe('/sale');
    expect(normaliseValue('/')).toBe('/');
    expect(normaliseValue('United Kingdom')).toBe('united kingdom');
  });
});

describe('the table', () => {
  const result = (over: Partial<CheckResult>): CheckResult => ({ caseId: 'x', project: 'shop', insight: 'changes', planted: 'segment_shift', hit: true, rank: 1, top3: [], ...over });

  it('aggregates recall@3, micro-averaged precision@3, mean rank and false alarms, and says whether targets are met', () => {
    const results = [
      result({ hit: true, rank: 1, significantTop3: 1, matchingTop3: 1 }),
      result({ hit: true, rank: 2, significantTop3: 2, matchingTop3: 1 }),
      result({ hit: false, rank: 5, significantTop3: 1, matchingTop3: 0 }),
      result({ insight: 'anomalies', hit: true, rank: 1 }),
      result({ insight: 'search', planted: 'ranking_loss x', hit: true, hitAt3: false, rank: 4 }),
      failedCheck({ ...shift, event: { kind: 'cannibalisation', site: 's', query: 'q', pages: ['/a', '/b'], from: '2026-10-01' } }, { insight: 'search', period: 'p' }, '404 not_found'),
    ];
    const rows = buildRows(results, { windows: 6, anomalies: 3, per90Days: 0.5 });
    expect(rows.map((r) => r.kind)).toEqual(['change explanation', 'anomalies', 'search: ranking loss', 'search: cannibalisation']);
    expect(rows[0]).toMatchObject({ cases: 3, recallAt3: 0.667, precisionAt3: 0.5, meanRank: 2.67, met: false });
    expect(rows[1]).toMatchObject({ cases: 1, recallAt3: 1, falseAlarmsPer90Days: 0.5, met: true });
    expect(rows[2]).toMatchObject({ cases: 1, recallAt3: 0, found: 1, meanRank: 4, met: true });
    expect(rows[3]).toMatchObject({ cases: 1, found: 0, errors: 1, met: false });
    const markdown = renderMarkdown({ startedAt: '', seed: 1, anchor: '2026-11-19', events: 6, durationSeconds: 1, rows, falseAlarms: { windows: 6, anomalies: 3, per90Days: 0.5 }, results, cases: [] });
    expect(markdown).toContain('| change explanation | 3 | 0.667 | – | 0.5 | 2.67 | – | recall@3 ≥ 0.9, precision@3 ≥ 0.8 | no |');
    expect(markdown).toContain('| search: cannibalisation | 1 (1 failed) |');
    expect(markdown).toContain('error: 404 not_found');
  });
});

describe('the seeded plan', () => {
  const site: SiteBaseline = {
    project: 'shop',
    propertyId: '1',
    siteUrl: 'sc-domain:shop.example',
    segments: {
      country: [{ value: 'Germany', share: 0.5 }, { value: 'France', share: 0.2 }, { value: 'Chad', share: 0.001 }],
      sessionDefaultChannelGroup: [{ value: 'Direct', share: 0.3 }, { value: 'Organic Search', share: 0.5 }],
      deviceCategory: [{ value: 'mobile', share: 0.6 }, { value: 'desktop', share: 0.4 }],
      landingPage: [{ value: '/', share: 0.2 }, { value: '/tiny', share: 0.001 }],
    },
    queries: [
      { query: 'shop', clicks: 500, impressions: 1000, position: 1.2, pages: ['/'] },
      { query: 'tents', clicks: 100, impressions: 3000, position: 6, pages: ['/tents'] },
    ],
    pages: ['/', '/tents', '/sale'],
  };
  const mixes = { shop: { shifts: 4, spikes: 2, rankingLosses: 2, cannibalisations: 1 } };

  it('reproduces from the seed, plants only causes big enough to name, and dates every check before the anchor', () => {
    const first = planCases([site], mixes, seededRandom(7), '2026-11-19');
    expect(planCases([site], mixes, seededRandom(7), '2026-11-19')).toEqual(first);
    expect(planCases([site], mixes, seededRandom(8), '2026-11-19')).not.toEqual(first);
    expect(first.map((c) => c.event.kind)).toEqual(['segment_shift', 'segment_shift', 'segment_shift', 'segment_shift', 'spike', 'spike', 'ranking_loss', 'ranking_loss', 'cannibalisation']);
    const shifts = first.filter((c) => c.event.kind === 'segment_shift');
    expect(new Set(shifts.map((c) => (c.event as { dimension: string }).dimension)).size).toBe(4);
    for (const c of shifts) expect(Math.abs(c.effect ?? 0)).toBeGreaterThanOrEqual(0.04);
    const periods = first.flatMap((c) => c.checks.map((k) => k.period));
    expect(periods.length).toBeGreaterThanOrEqual(first.length);
    for (const period of periods) expect(period.slice(-10) <= '2026-11-19').toBe(true);
    for (const c of first.filter((k) => k.event.kind === 'ranking_loss')) expect((c.event as { position: number }).position).toBeGreaterThanOrEqual(11);
    const cannibal = first.find((c) => c.event.kind === 'cannibalisation')!.event as { pages: string[] };
    expect(cannibal.pages[0]).toMatch(/^\/(tents)?$/);
    expect(cannibal.pages[0]).not.toBe(cannibal.pages[1]);
  });
});
