// What each proposed funnel step matches among the event names and page paths observed on the site (through
// the ObservedEvents / ObservedPages operations), so a typo shows up in the preview rather than as a funnel
// that silently counts nobody.
import { RE2JS } from 're2js';
import type { AppDeps } from '../../app-deps.ts';
import { isAppError } from '../../errors/app-error.ts';
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
  event: { operation: 'ObservedEvents', field: 'observedEvents', value: 'eventName', count: 'eventCount', noun: 'event name' },
  page: { operation: 'ObservedPages', field: 'observedPages', value: 'pagePath', count: 'screenPageViews', noun: 'page path' },
} as const;

const OBSERVED_LIMIT = '1000';

export async function matchObservedSteps(
  deps: Pick<AppDeps, 'createContext' | 'executeOperation' | 'hasOperation'>,
  caller: McpCaller,
  project: string,
  period: string | undefined,
  steps: readonly FunnelStep[],
): Promise<StepPreview[]> {
  const observed = new Map<FunnelStep['type'], Observed[] | string>();
  for (const type of new Set(steps.map((s) => s.type))) {
    const source = SOURCES[type];
    if (!deps.hasOperation(source.operation)) {
      observed.set(type, `Observed ${source.noun}s are not available`);
      continue;
    }
    const variables = { project, limit: OBSERVED_LIMIT, ...(period === undefined ? {} : { period }) };
    try {
      const body = (await runEndpoint(deps, caller.principal, caller.requestId, source, variables)) as { rows?: Record<string, unknown>[] };
      observed.set(type, toObserved(body.rows, source.value, source.count));
    } catch (error) {
      // A bad period is the caller's to fix; an unconnected or failing provider only means the check is skipped.
      if (!isAppError(error) || error.code === 'invalid_period' || error.code === 'invalid_parameter') throw error;
      observed.set(type, `Observed ${source.noun}s could not be read (${error.code}: ${error.message})`);
    }
  }
  return steps.map((step) => previewStep(step, observed.get(step.type)!, SOURCES[step.type].noun));
}

function previewStep(step: FunnelStep, observed: Observed[] | string, noun: string): StepPreview {
  if (typeof observed === 'string') return { ...step, checked: false, warning: `${observed}; the step was validated but not checked against site data.` };
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

function toObserved(rows: Record<string, unknown>[] | undefined, valueField: string, countField: string): Observed[] {
  return (rows ?? []).flatMap((row) => {
    const value = row[valueField];
    const count = row[countField];
    return typeof value === 'string' ? [{ value, count: typeof count === 'number' ? count : 0 }] : [];
  });
}
