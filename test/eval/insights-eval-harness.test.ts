// A small slice of `npm run eval:insights` end to end, so the harness cannot rot: a segment shift, a rate shift, a
// lost query and a page drop on the smallest demo site go through the sandbox's scenarios API, the insight endpoints
// answer every check (and the quiet windows, anomaly windows and default-size calls) without an error, and the report
// has its tables. How good the answers are is the full evaluation's business (docs/insights-eval.md), not this test's.
import { describe, expect, it } from 'vitest';
import { runEval } from '../../scripts/insights-eval/run-eval.ts';
import { renderMarkdown } from '../../scripts/insights-eval/table.ts';

const NONE = { shifts: 0, spikes: 0, rateShifts: 0, trends: 0, twoEvents: 0, queryLosses: 0, engine2Losses: 0, pageDrops: 0, cannibalisations: 0 };

describe('insights evaluation harness (a four-case slice)', () => {
  it('plants, asks, scores and reports without a failed check', async () => {
    const report = await runEval({
      seeds: [5],
      lanes: 1,
      mixes: { 'tiny-saas': { ...NONE, shifts: 1, rateShifts: 1, queryLosses: 1, pageDrops: 1 } },
      queriesWithPages: 0,
      quietWindows: 1,
      falseAlarmWindows: 1,
    });
    expect(report.cases.filter((c) => c.events.length > 0).map((c) => c.family)).toEqual(['segment shift', 'rate shift', 'query loss', 'page drop (echo)']);
    expect(report.results.filter((r) => r.error !== undefined).map((r) => `${r.caseId} ${r.insight}: ${r.error}`)).toEqual([]);
    expect(report.results.filter((r) => r.insight === 'quiet').map((r) => r.metric)).toEqual(['sessions', 'sessionKeyEventRate', 'engagementRate', 'clicks']);
    expect(report.falseAlarms.map((f) => [f.metric, f.windows])).toEqual([['sessions', 1], ['sessionKeyEventRate', 1], ['engagementRate', 1], ['clicks', 1]]);
    expect(report.tokens.map((t) => t.tool)).toEqual(['explain_change', 'find_anomalies', 'find_search_opportunities']);
    for (const t of report.tokens) expect(t.byProject['tiny-saas']).toBeGreaterThan(50);
    expect(report.headline.every((h) => h.value !== null)).toBe(true);
    expect(renderMarkdown(report)).toContain('| family | cases | checks | recall@1 |');
  }, 120_000);
});
