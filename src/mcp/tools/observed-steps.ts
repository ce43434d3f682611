// What each proposed funnel step matches among the event names and page paths observed on the site (through
// the ObservedEvents / ObservedPages operations), so a typo shows up in the preview rather than as a funnel
// that silently counts nobody.
import { RE2JS } from 're2js';
import type { AppDeps } from '../../app-deps.ts';
import { runEndpoint } from '../../operations/run-endpoint.ts';
import type { FunnelStep } from '../../store/funnels-repository.ts';
import type { McpCaller } from '../mcp-caller.ts';

export interface StepPreview extends FunnelStep {
  checked: boolean;
  matchedValues?: number;
  matchedCount?: number;
  examples?: { value: string; count: number }[];
  warning?: string;
}

interface Observed {
  value: string;
  count: number;
}

const SOURCES = {
  event: { operation: 'ObservedEvents', field: 'observedEvents', list: 'events', noun: 'event name' },
  page: { operation: 'ObservedPages', field: 'observedPages', list: 'pages', noun: 'page path' },
} as const;

const OBSERVED_LIMIT = '1000';

export async function matchObservedSteps(
  deps: Pick<AppDeps, 'createContext' | 'executeOperation' | 'hasOperation'>,
  caller: McpCaller,
  project: string,
  period: string | undefined,
  steps: readonly FunnelStep[],
): Promise<StepPreview[]> {
  const observed = new Map<FunnelStep['type'], Observed[] | undefined>();
  for (const type of new Set(steps.map((s) => s.type))) {
    const source = SOURCES[type];
    if (!deps.hasOperation(source.operation)) {
      observed.set(type, undefined);
      continue;
    }
    const variables = { project, limit: OBSERVED_LIMIT, ...(period === undefined ? {} : { period }) };
    const body = (await runEndpoint(deps, caller.principal, caller.requestId, source, variables)) as Record<string, unknown>;
    observed.set(type, toObserved(body[source.list]));
  }
  return steps.map((step) => previewStep(step, observed.get(step.type), SOURCES[step.type].noun));
}

function previewStep(step: FunnelStep, observed: Observed[] | undefined, noun: string): StepPreview {
  if (!observed) return { ...step, checked: false, warning: `Observed ${noun}s are not available yet; the step was validated but not checked against site data.` };
  const test = matcher(step);
  const hits = observed.filter((o) => test(o.value)).sort((a, b) => b.count - a.count);
  const preview: StepPreview = {
    ...step,
    checked: true,
    matchedValues: hits.length,
    matchedCount: hits.reduce((sum, o) => sum + o.count, 0),
    examples: hits.slice(0, 5),
  };
  if (hits.length === 0) {
    const seen = observed.slice(0, 5).map((o) => `'${o.value}'`).join(', ');
    preview.warning = `Matches no ${noun} seen in the period${seen ? ` (most frequent: ${seen})` : ''}; check the value and match type.`;
  }
  return preview;
}

function matcher(step: FunnelStep): (value: string) => boolean {
  switch (step.match) {
    case 'exact':
      return (v) => v === step.value;
    case 'begins_with':
      return (v) => v.startsWith(step.value);
    case 'contains':
      return (v) => v.includes(step.value);
    case 'regex': {
      const pattern = RE2JS.compile(step.value);
      return (v) => pattern.matcher(v).find();
    }
  }
}

/** Rows of the observed list: the first string field is the value, the first number its count. */
function toObserved(rows: unknown): Observed[] {
  if (!Array.isArray(rows)) return [];
  return rows.flatMap((row) => {
    if (typeof row !== 'object' || row === null) return [];
    const values = Object.values(row as Record<string, unknown>);
    const value = values.find((v): v is string => typeof v === 'string');
    const count = values.find((v): v is number => typeof v === 'number') ?? 0;
    return value === undefined ? [] : [{ value, count }];
  });
}
