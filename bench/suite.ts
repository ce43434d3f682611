// The shape every benchmark suite returns: named measurements, each optionally checked against a target.
export interface Measurement {
  name: string;
  value: number;
  unit: string;
  /** e.g. { op: '<=', value: 50 }: reported as met or missed, never thrown. */
  target?: { op: '<=' | '>='; value: number };
  notes?: string;
}

export interface SuiteResult {
  suite: string;
  description: string;
  measurements: Measurement[];
}

export function meets(m: Measurement): boolean | undefined {
  if (!m.target) return undefined;
  return m.target.op === '<=' ? m.value <= m.target.value : m.value >= m.target.value;
}

/** Percentile of an unsorted sample (nearest-rank). */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}
