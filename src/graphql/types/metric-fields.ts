// Descriptions of metric and figure fields, generated from the parameter catalogue (src/domain/catalogue.ts) so a
// field says its unit the same way everywhere: `Sessions: a count.`, `Engagement rate: a fraction 0–1 …`.
import { describeMetricName } from '../../domain/catalogue.ts';

/** The catalogue's description of a standard metric, with `more` after it. */
export function metricText(name: string, more = ''): { description: string } {
  const base = describeMetricName(name);
  if (base === undefined) throw new Error(`No catalogue entry for metric ${name}`);
  return { description: more ? `${base} ${more}` : base };
}
