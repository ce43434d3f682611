// Project's typed arguments (Period scalar, enums, Int, Boolean, lists), named and described as the parameter
// catalogue names them, and their translation back into the raw strings the report pipelines parse — so a typed
// field runs the same report, with the same rules and errors, as REST and MCP.
import { PARAMETERS } from '../../contract/parameters.ts';
import type { ProjectRecord } from '../../store/projects-repository.ts';
import type { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { AnomalyIntervalRef, BrandFilterRef, CompareModeRef, IntervalRef, SearchDimensionRef, SearchProviderRef } from './enums.ts';
import type { ProjectRef } from './project.ts';

type TypedArgs = Record<string, string | number | boolean | readonly string[] | null | undefined>;

/** The report pipelines' argument strings from typed GraphQL arguments, with the project's key. */
export function reportArgs(project: ProjectRecord, args: TypedArgs): { project: string } & Record<string, string> {
  const out: { project: string } & Record<string, string> = { project: project.key };
  for (const [name, value] of Object.entries(args)) {
    if (value === null || value === undefined) continue;
    if (typeof value === 'boolean') out[name] = value ? '1' : '0';
    else if (Array.isArray(value)) out[name] = value.join(',');
    else out[name] = String(value);
  }
  return out;
}

type FieldBuilder = Parameters<Parameters<typeof builder.objectField<typeof ProjectRef>>[2]>[0];
type ArgBuilder = FieldBuilder['arg'];

const describe = (name: keyof typeof PARAMETERS) => ({ description: PARAMETERS[name].description });

/** Typed arguments named as the contract names them; each described from the parameter catalogue. */
export const typed = {
  period: (arg: ArgBuilder) => arg({ type: 'Period', ...describe('period') }),
  compare: (arg: ArgBuilder) => arg({ type: CompareModeRef, ...describe('compare') }),
  sp: (arg: ArgBuilder) => arg({ type: SearchProviderRef, ...describe('sp') }),
  interval: (arg: ArgBuilder) => arg({ type: IntervalRef, ...describe('interval') }),
  anomalyInterval: (arg: ArgBuilder) => arg({ type: AnomalyIntervalRef, description: 'day (default) or hour (with an engine1 metric: clicks, impressions, ctr, position).' }),
  brand: (arg: ArgBuilder) => arg({ type: BrandFilterRef, ...describe('brand') }),
  force: (arg: ArgBuilder) => arg.boolean({ description: 'true bypasses the cache and refreshes it (limited to 30/hour per project).' }),
  metric: (arg: ArgBuilder) => arg.string(describe('metric')),
  metrics: (arg: ArgBuilder) => arg.stringList({ description: 'Analytics metrics (at most 10). Default: activeUsers, sessions, screenPageViews.' }),
  dimension: (arg: ArgBuilder) => arg.string({ required: true, ...describe('dimension') }),
  searchDimension: (arg: ArgBuilder) => arg({ type: SearchDimensionRef, required: true, description: 'The dimension to break search data down by.' }),
  filter: (arg: ArgBuilder) => arg.string(describe('filter')),
  order: (arg: ArgBuilder) => arg.string(describe('order')),
  limit: (arg: ArgBuilder) => arg.int(describe('limit')),
  offset: (arg: ArgBuilder) => arg.int(describe('offset')),
};

/** A Project field's resolver: its typed arguments as report strings, the project's key, the report. */
export const report =
  <A extends TypedArgs, T>(run: (ctx: GraphQLContext, args: ReturnType<typeof reportArgs>) => Promise<T>) =>
  (project: ProjectRecord, args: A, ctx: GraphQLContext): Promise<T> =>
    run(ctx, reportArgs(project, args));
