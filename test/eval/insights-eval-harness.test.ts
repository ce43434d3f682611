// A small slice of `npm run eval:insights` end to end, so the harness cannot rot: three planted events on the smallest demo
// site (a segment shift, a spike, a ranking loss) go through the sandbox's scenarios API, the insight endpoints
// answer every check without an error, and the report has the table's rows. How good the answers are is the full
// evaluation's business (its table is in docs/insights-eval.md), not this test's.
import { describe, expect, it } from 'vitest';
import { runEval } from '../../scripts/insights-eval/run-eval.ts';
import { renderMarkdown } from '../../scripts/insights-eval/table.ts';

describe('insights evaluation harness (a three-event slice)', () => {
  it('plants, asks, scores and reports without a failed check', async () => {
    const report = await runEval({
      seed: 5,
      lanes: 1,
      mixes: { 'tiny-saas': { shifts: 1, spikes: 1, rankingLosses: 1, cannibalisations: 0 } },
      queriesWithPages: 0,
      falseAlarmWindows: 1,
    });
    expect(report.cases.map((c) => c.event.kind)).toEqual(['segment_shift', 'spike', 'ranking_loss']);
    expect(report.results.length).toBeGreaterThanOrEqual(3);
    expect(report.results.filter((r) => r.error !== undefined).map((r) => `${r.caseId} ${r.insight}: ${r.error}`)).toEqual([]);
    expect(report.falseAlarms.windows).toBe(1);
    const byKind = Object.fromEntries(report.rows.map((r) => [r.kind, r.cases]));
    expect(byKind).toMatchObject({ 'change explanation': 1, 'search: ranking loss': 1, 'search: cannibalisation': 0 });
    expect(byKind.anomalies).toBeGreaterThanOrEqual(1);
    expect(renderMarkdown(report)).toContain('| insight | cases | recall@3 |');
  }, 60_000);
});
