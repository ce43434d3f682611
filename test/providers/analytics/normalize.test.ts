import { describe, expect, it } from 'vitest';
import { MalformedAnswer } from '../../../src/providers/upstream-errors.ts';
import {
  normalizeRealtimeReport,
  normalizeReport,
  parseMetricValue,
  quotaWarnings,
} from '../../../src/providers/analytics/normalize.ts';
import { normalizeFunnel, parseStepName } from '../../../src/providers/analytics/normalize-funnel.ts';

// A runReport response in the Data API's documented shape.
const report = {
  dimensionHeaders: [{ name: 'date' }, { name: 'sessionDefaultChannelGroup' }],
  metricHeaders: [
    { name: 'sessions', type: 'TYPE_INTEGER' },
    { name: 'averageSessionDuration', type: 'TYPE_SECONDS' },
  ],
  rows: [
    {
      dimensionValues: [{ value: '20250301' }, { value: 'Organic Search' }],
      metricValues: [{ value: '412' }, { value: '93.51234567' }],
    },
    { dimensionValues: [{ value: '20250301' }, { value: 'Direct' }], metricValues: [{ value: '118' }, { value: '40.2' }] },
  ],
  totals: [
    {
      dimensionValues: [{ value: 'RESERVED_TOTAL' }, { value: 'RESERVED_TOTAL' }],
      metricValues: [{ value: '530' }, { value: '81.6' }],
    },
  ],
  rowCount: 2,
  metadata: { currencyCode: 'EUR', timeZone: 'Europe/Berlin' },
  propertyQuota: {
    tokensPerDay: { consumed: 3, remaining: 199911 },
    tokensPerHour: { consumed: 3, remaining: 39977 },
    concurrentRequests: { remaining: 10 },
    serverErrorsPerProjectPerHour: { remaining: 10 },
    potentiallyThresholdedRequestsPerHour: { remaining: 120 },
    tokensPerProjectPerHour: { consumed: 3, remaining: 13977 },
  },
  kind: 'analyticsData#runReport',
};

describe('normalizeReport', () => {
  it('maps rows by header name and parses metric strings as numbers', () => {
    const out = normalizeReport(report);
    expect(out.rows).toEqual([
      { dimensions: { date: '20250301', sessionDefaultChannelGroup: 'Organic Search' }, metrics: { sessions: 412, averageSessionDuration: 93.51234567 } },
      { dimensions: { date: '20250301', sessionDefaultChannelGroup: 'Direct' }, metrics: { sessions: 118, averageSessionDuration: 40.2 } },
    ]);
    expect(out.totals[0]?.metrics).toEqual({ sessions: 530, averageSessionDuration: 81.6 });
    expect(out.rowCount).toBe(2);
    expect(out.timeZone).toBe('Europe/Berlin');
    expect(out.metricHeaders[1]).toEqual({ name: 'averageSessionDuration', type: 'TYPE_SECONDS' });
    expect(out.warnings).toEqual([]);
  });

  it('defaults the fields proto3 omits: no rows, no rowCount, no totals, empty values', () => {
    const out = normalizeReport({
      dimensionHeaders: [{ name: 'country' }],
      metricHeaders: [{ name: 'sessions', type: 'TYPE_INTEGER' }],
      metadata: { currencyCode: 'USD', timeZone: 'UTC' },
    });
    expect(out).toMatchObject({ rows: [], rowCount: 0, totals: [], maximums: [], minimums: [] });
    const sparse = normalizeReport({
      dimensionHeaders: [{ name: 'country' }],
      metricHeaders: [{ name: 'sessions', type: 'TYPE_INTEGER' }],
      rows: [{ dimensionValues: [{}], metricValues: [{}] }],
    });
    expect(sparse.rows).toEqual([{ dimensions: { country: '' }, metrics: { sessions: 0 } }]);
  });

  it('turns sampling, thresholding and (other) rows into warnings', () => {
    const out = normalizeReport({
      ...report,
      metadata: {
        subjectToThresholding: true,
        dataLossFromOtherRow: true,
        samplingMetadatas: [{ samplesReadCount: '52311', samplingSpaceSize: '104622' }],
      },
    });
    expect(out.warnings.map((w) => w.code)).toEqual(['sampled', 'thresholded', 'other_row']);
    expect(out.warnings[0]?.message).toContain('50.0%');
  });

  it('rejects a metric value that is not a number as malformed', () => {
    expect(() => parseMetricValue('abc', 'TYPE_INTEGER', 'sessions')).toThrow(MalformedAnswer);
    expect(parseMetricValue('0.412', 'TYPE_INTEGER', 'rate')).toBe(0.412);
  });

  it('normalises a realtime report (no metadata) with its minute-range column', () => {
    const out = normalizeRealtimeReport({
      dimensionHeaders: [{ name: 'country' }, { name: 'dateRange' }],
      metricHeaders: [{ name: 'activeUsers', type: 'TYPE_INTEGER' }],
      rows: [
        { dimensionValues: [{ value: 'France' }, { value: 'last30' }], metricValues: [{ value: '19' }] },
        { dimensionValues: [{ value: 'France' }, { value: 'last5' }], metricValues: [{ value: '4' }] },
      ],
      rowCount: 2,
    });
    expect(out.rows[1]).toEqual({ dimensions: { country: 'France', dateRange: 'last5' }, metrics: { activeUsers: 4 } });
    expect('timeZone' in out).toBe(false);
  });
});

describe('quotaWarnings', () => {
  it('warns when a bucket has under 10% left; omitted remaining means 0', () => {
    expect(quotaWarnings(report.propertyQuota)).toEqual([]);
    const low = quotaWarnings({ tokensPerHour: { consumed: 5, remaining: 3000 }, tokensPerDay: { consumed: 5 } });
    expect(low).toHaveLength(1);
    expect(low[0]?.code).toBe('quota_low');
    expect(low[0]?.message).toContain('tokensPerDay (0 left)');
    expect(low[0]?.message).toContain('tokensPerHour (3000 left)');
  });

  it('infers a GA360 property from a remaining count above the standard bucket', () => {
    expect(quotaWarnings({ tokensPerDay: { remaining: 1_500_000 } })).toEqual([]);
    expect(quotaWarnings({ tokensPerDay: { remaining: 19_000 } })).toHaveLength(1);
  });
});

describe('normalizeFunnel', () => {
  // runFunnelReport quirks as observed: metricHeaders listed twice (8) while rows hold 4 values; rates typed INTEGER.
  const headers = [
    { name: 'activeUsers', type: 'TYPE_INTEGER' },
    { name: 'funnelStepCompletionRate', type: 'TYPE_INTEGER' },
    { name: 'funnelStepAbandonments', type: 'TYPE_INTEGER' },
    { name: 'funnelStepAbandonmentRate', type: 'TYPE_INTEGER' },
  ];
  const row = (step: string, device: string, values: string[]) => ({
    dimensionValues: [{ value: step }, { value: device }],
    metricValues: values.map((value) => ({ value })),
  });
  const native = {
    funnelTable: {
      dimensionHeaders: [{ name: 'funnelStepName' }, { name: 'deviceCategory' }],
      metricHeaders: [...headers, ...headers],
      rows: [
        row('1. Landing', 'desktop', ['600', '0.3', '420', '0.7']),
        row('1. Landing', 'RESERVED_TOTAL', ['1000', '0.25', '750', '0.75']),
        row('2. Signup started', 'RESERVED_TOTAL', ['250', '0.4', '150', '0.6']),
        row('3. Signup done', 'RESERVED_TOTAL', ['100', '0', '100', '1']),
      ],
    },
    funnelVisualization: {
      dimensionHeaders: [{ name: 'funnelStepName' }],
      metricHeaders: [{ name: 'activeUsers', type: 'TYPE_INTEGER' }],
      rows: [
        { dimensionValues: [{ value: '1. Landing' }], metricValues: [{ value: '1000' }] },
        { dimensionValues: [{ value: '2. Signup started' }], metricValues: [{ value: '250' }] },
      ],
    },
    kind: 'analyticsData#runFunnelReport',
  };

  it('maps values by the first occurrence of each header and keeps fractional rates', () => {
    const out = normalizeFunnel(native);
    expect(out.steps).toEqual([
      { step: 1, name: 'Landing', activeUsers: 1000, completionRate: 0.25, abandonments: 750, abandonmentRate: 0.75, dimensions: { deviceCategory: 'RESERVED_TOTAL' } },
      { step: 2, name: 'Signup started', activeUsers: 250, completionRate: 0.4, abandonments: 150, abandonmentRate: 0.6, dimensions: { deviceCategory: 'RESERVED_TOTAL' } },
      { step: 3, name: 'Signup done', activeUsers: 100, completionRate: 0, abandonments: 100, abandonmentRate: 1, dimensions: { deviceCategory: 'RESERVED_TOTAL' } },
    ]);
    expect(out.table).toHaveLength(4);
    expect(out.table[0]).toMatchObject({ step: 1, completionRate: 0.3, dimensions: { deviceCategory: 'desktop' } });
    expect(out.visualization.map((v) => [v.step, v.activeUsers])).toEqual([[1, 1000], [2, 250]]);
  });

  it('parses step labels, keeping names with dots and unnumbered labels', () => {
    expect(parseStepName('12. Paid. Done', 0)).toEqual({ step: 12, name: 'Paid. Done' });
    expect(parseStepName('Checkout', 4)).toEqual({ step: 4, name: 'Checkout' });
  });

  it('treats an empty funnel answer as no steps', () => {
    expect(normalizeFunnel({})).toEqual({ steps: [], table: [], visualization: [], warnings: [] });
  });
});
