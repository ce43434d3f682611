// Whether a provider's history reaches a comparison range, from the first days the sandbox itself reports (see
// world.ts), and the relation that follows: where it does not, a compared number's previous is null (with a
// comparison_unavailable warning naming the provider), never a 0; where it does, it is a number.
import type { ApiRequest } from './request.ts';
import { check } from './property.ts';
import type { Provider, World } from './world.ts';

export const EARLIEST_START = '2015-08-14';
export type Coverage = 'covered' | 'uncovered' | 'either';

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * engine1 counts its 16 months in Pacific days and Bing dates its rows in its own offset, so a range starting
 * within two days of their first day may go either way; analytics' first day is exact.
 */
export function coverageOf(world: World, project: string, provider: Provider, range: { start: string }): Coverage {
  const first = world.firstDays[project]?.[provider];
  if (first === undefined) throw new Error(`${provider} is not connected to ${project}`);
  if (range.start < EARLIEST_START) return 'uncovered';
  const slack = provider === 'analytics' ? 0 : 2;
  if (range.start >= addDays(first, slack)) return 'covered';
  if (range.start < addDays(first, -slack)) return 'uncovered';
  return 'either';
}

export const COVERAGE_RELATION = 'a range the provider has no history for compares with null (and a comparison_unavailable warning naming it), never 0';

type Compared = { value: number | null; previous: number | null; delta: number | null; deltaPct: number | null };
type Warning = { code: string; message: string };

export function unavailableNames(body: { meta: { warnings: Warning[] } }): (provider: string) => boolean {
  const warnings = body.meta.warnings.filter((w) => w.code === 'comparison_unavailable');
  return (provider) => warnings.some((w) => w.message.startsWith(`${provider} `));
}

/** Every compared figure of an answer, named by where it is. */
export function comparedFigures(request: ApiRequest, body: any): [string, Compared][] {
  switch (request.route) {
    case 'summary':
      return Object.entries(body.metrics as Record<string, Compared>).map(([k, v]) => [`metrics.${k}`, v]);
    case 'timeseries':
      return [['total', body.total], ...(body.points as { value: Compared; date?: string; time?: string }[]).map((p): [string, Compared] => [`points[${p.date ?? p.time}]`, p.value])];
    case 'breakdown':
      return (body.rows as Record<string, Compared | string>[]).flatMap((row) =>
        (body.metrics as string[]).map((m): [string, Compared] => [`rows[${String(row[body.dimension])}].${m}`, row[m] as Compared]),
      );
    default:
      throw new Error(`no compared figures listed for ${request.route}`);
  }
}

/** The relation for one provider's figures: all null and named where uncovered, all numbers and unnamed where covered. */
export function assertCoverage(request: ApiRequest, surface: string, provider: string, coverage: Coverage, figures: [string, Compared][], named: boolean): void {
  const c = check(COVERAGE_RELATION, request, surface);
  const nulls = figures.filter(([, f]) => f.previous === null);
  if (coverage === 'uncovered') {
    for (const [where, f] of figures) c.equal(`${provider} ${where}.previous`, f.previous, null);
    for (const [where, f] of figures) c.that(`${provider} ${where}: delta and deltaPct are null with previous`, f.delta === null && f.deltaPct === null, JSON.stringify(f));
    c.that(`a comparison_unavailable warning names ${provider}`, named);
  } else if (coverage === 'covered') {
    c.that(`${provider} covers the range, so every previous is a number`, nulls.length === 0, `null at ${nulls.map(([w]) => w).join(', ')}`);
    c.that(`no comparison_unavailable warning names ${provider}, whose history covers the range`, !named);
  } else {
    c.that(`${provider}: previous is null everywhere or nowhere`, nulls.length === 0 || nulls.length === figures.length);
    c.that(`${provider}: a comparison_unavailable warning exactly when its previous is null`, named === (nulls.length > 0) || figures.length === 0);
  }
}
