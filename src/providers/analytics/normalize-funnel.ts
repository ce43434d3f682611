// GA v1alpha funnel answers → steps with users and rates, tolerating the observed header/typing quirks.
import type { NativeFunnelReport } from './shapes.ts';
import type { ProviderWarning, QuotaRemaining, ReportRow } from './normalize.ts';
import { metadataWarnings, quotaField, quotaWarnings, toRows } from './normalize.ts';

export interface FunnelTableRow {
  /** 1-based step number from the `"N. name"` label. */
  step: number;
  name: string;
  activeUsers: number;
  /** Fractions (0.412 = 41.2%); forward-looking: the share of this step's users reaching the next step. */
  completionRate: number;
  abandonments: number;
  abandonmentRate: number;
  /** Breakdown/segment dimension values; `RESERVED_TOTAL` marks the all-values row. */
  dimensions: Record<string, string>;
}
export interface FunnelVisualizationRow {
  step: number;
  name: string;
  activeUsers: number;
  dimensions: Record<string, string>;
}
export interface FunnelReport {
  /** One row per step: the total row when there is a breakdown, in step order. */
  steps: FunnelTableRow[];
  table: FunnelTableRow[];
  visualization: FunnelVisualizationRow[];
  warnings: ProviderWarning[];
  quota?: QuotaRemaining;
}

const STEP_DIMENSION = 'funnelStepName';
const TOTAL = 'RESERVED_TOTAL';

/** `"3. Signup done"` → step 3, name "Signup done"; a label without the prefix keeps its order of appearance. */
export function parseStepName(label: string, fallback: number): { step: number; name: string } {
  const match = /^(\d+)\.\s(.*)$/s.exec(label);
  return match ? { step: Number(match[1]), name: match[2] ?? '' } : { step: fallback, name: label };
}

function split(row: ReportRow, order: Map<string, number>) {
  const label = row.dimensions[STEP_DIMENSION] ?? '';
  if (!order.has(label)) order.set(label, order.size + 1);
  const { step, name } = parseStepName(label, order.get(label) ?? 0);
  const dimensions = Object.fromEntries(Object.entries(row.dimensions).filter(([key]) => key !== STEP_DIMENSION));
  return { step, name, dimensions };
}

export function normalizeFunnel(native: NativeFunnelReport): FunnelReport {
  const tableNative = native.funnelTable ?? {};
  const order = new Map<string, number>();
  // Rates can arrive typed TYPE_INTEGER while holding fractions: parseMetricValue keeps the fraction.
  const table = toRows(tableNative, tableNative.rows).map((row) => ({
    ...split(row, order),
    activeUsers: row.metrics.activeUsers ?? 0,
    completionRate: row.metrics.funnelStepCompletionRate ?? 0,
    abandonments: row.metrics.funnelStepAbandonments ?? 0,
    abandonmentRate: row.metrics.funnelStepAbandonmentRate ?? 0,
  }));
  const visualNative = native.funnelVisualization ?? {};
  const visualization = toRows(visualNative, visualNative.rows).map((row) => ({
    ...split(row, order),
    activeUsers: row.metrics.activeUsers ?? 0,
  }));
  return {
    steps: totalsPerStep(table),
    table,
    visualization,
    warnings: [
      ...metadataWarnings(tableNative.metadata),
      ...quotaWarnings(native.propertyQuota),
    ],
    ...quotaField(native.propertyQuota),
  };
}

function totalsPerStep(table: FunnelTableRow[]): FunnelTableRow[] {
  const byStep = new Map<number, FunnelTableRow>();
  for (const row of table) {
    const isTotal = Object.values(row.dimensions).every((value) => value === TOTAL);
    const current = byStep.get(row.step);
    // Prefer the all-values row; otherwise the first row seen for the step.
    if (current === undefined || (isTotal && !Object.values(current.dimensions).every((v) => v === TOTAL))) {
      byStep.set(row.step, row);
    }
  }
  return [...byStep.values()].sort((a, b) => a.step - b.step);
}
