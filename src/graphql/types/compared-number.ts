// ComparedNumber: a figure next to its value in the comparison range. Every number a report may compare is this
// type, compared or not, so a client selects `sessions { value deltaPct }` whatever `compare` it sent.
import type { Compared } from '../../domain/compare.ts';
import { builder } from '../builder.ts';

/** A report's number as GraphQL shows it: a plain number has no previous, delta or deltaPct. */
export function toCompared(figure: number | Compared): Compared {
  return typeof figure === 'number' ? { value: figure, previous: null, delta: null, deltaPct: null } : figure;
}

/** A figure that may be missing (a search position no engine reported): null stays null. */
export function toComparedOrNull(figure: number | Compared | null | undefined): Compared | null {
  return figure === null || figure === undefined ? null : toCompared(figure);
}

export const ComparedNumberRef = builder.objectRef<Compared>('ComparedNumber').implement({
  description: "A number and, when comparing, its value in the comparison range; in the unit of the field that holds it.",
  fields: (t) => ({
    value: t.exposeFloat('value', { description: 'The value in the period.' }),
    previous: t.float({
      nullable: true,
      description: "The value in the comparison range; null without a comparison or when the provider's history does not cover it (then meta.warnings has comparison_unavailable) — never 0 for a missing range.",
      resolve: (c) => c.previous,
    }),
    delta: t.float({ nullable: true, description: 'value − previous, in the same unit; null when previous is.', resolve: (c) => c.delta }),
    deltaPct: t.float({ nullable: true, description: 'delta / |previous|, a fraction with 4 decimals (0.1 = +10 %); null when previous is 0 or null.', resolve: (c) => c.deltaPct }),
  }),
});

/** A metric by name, for metric sets a property defines (custom metrics included). */
export interface NamedFigure {
  name: string;
  figure: Compared;
}

export const MetricValueRef = builder.objectRef<NamedFigure>('MetricValue').implement({
  description: 'One metric of a row or summary, by its analytics name.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The analytics metric name (sessions, customEvent:credits_used, …).' }),
    value: t.field({ type: ComparedNumberRef, description: "The metric's value in its unit (see the metric's description on SiteSummary, or metadata for custom ones).", resolve: (m) => m.figure }),
  }),
});

/** `{name → number | Compared}` as a list, in the report's order. */
export function namedFigures(metrics: Readonly<Record<string, unknown>>, names: readonly string[]): NamedFigure[] {
  return names.filter((name) => metrics[name] !== undefined).map((name) => ({ name, figure: toCompared(metrics[name] as number | Compared) }));
}
