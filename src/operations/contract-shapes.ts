// The shaping step between the typed graph and the contract's JSON: stored operations select typed fields
// (metric lists, ComparedNumber objects, a row's `value`, a connection's nodes), and the REST/MCP contract keys
// metrics and rows by name, shows a plain number when not comparing and lists projects without paging. One function per root field; only those that need it.
// Runs once per executed operation (warm REST answers come from the response cache), so it stays a single pass.

type Json = Record<string, unknown>;

interface TypedCompared {
  value: number;
  previous: number | null;
  delta: number | null;
  deltaPct: number | null;
}

interface TypedMetric {
  name: string;
  value: TypedCompared;
}

/** A period echo carries `previous` exactly when the answer compares. */
const isComparing = (body: Json): boolean => Boolean((body.period as Json | null | undefined)?.previous);

/** `{value, previous, delta, deltaPct}` when comparing, the bare value otherwise; null stays null. */
function figure(compared: TypedCompared | null | undefined, comparing: boolean): number | TypedCompared | null {
  if (compared === null || compared === undefined) return null;
  return comparing ? compared : compared.value;
}

const metricMap = (metrics: TypedMetric[], comparing: boolean): Json =>
  Object.fromEntries(metrics.map((m) => [m.name, figure(m.value, comparing)]));

function mapFigures(figures: Json | null, comparing: boolean): Json | null {
  if (figures === null) return null;
  const out: Json = {};
  for (const [name, value] of Object.entries(figures)) out[name] = figure(value as TypedCompared | null, comparing);
  return out;
}

function mapValues(record: Json | null, map: (value: Json | null) => Json | null): Json | null {
  if (record === null) return null;
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value as Json | null)]));
}

/** A row's `value` becomes the key named by the dimension, first, as the contract shows it. */
function keyedRow(dimension: string, row: Json, rest: Json): Json {
  return { [dimension]: row.value, ...rest };
}

const SHAPES: Readonly<Record<string, (body: Json) => unknown>> = {
  // The projects connection: the contract lists every project the caller may read.
  projects: (body) => body.nodes,
  siteSummary: (body) => ({ ...body, metrics: metricMap(body.metrics as TypedMetric[], isComparing(body)) }),
  siteTimeseries: (body) => {
    const comparing = isComparing(body);
    return {
      ...body,
      points: (body.points as Json[]).map((p) => ({ ...p, value: figure(p.value as TypedCompared, comparing) })),
      total: figure(body.total as TypedCompared, comparing),
    };
  },
  siteBreakdown: (body) => {
    const comparing = isComparing(body);
    const dimension = body.dimension as string;
    return { ...body, rows: (body.rows as Json[]).map((row) => keyedRow(dimension, row, metricMap(row.metrics as TypedMetric[], comparing))) };
  },
  searchSummary: (body) => {
    const comparing = isComparing(body);
    return { ...body, totals: mapFigures(body.totals as Json, comparing), byProvider: mapValues(body.byProvider as Json | null, (f) => mapFigures(f, comparing)) };
  },
  searchBreakdown: (body) => {
    const dimension = body.dimension as string;
    return {
      ...body,
      rows: (body.rows as Json[]).map((row) => {
        const { value: _value, ...figures } = row;
        return keyedRow(dimension, row, figures);
      }),
    };
  },
};

/** The contract's JSON for an operation's data: each root field with a typed shape is turned back into it. */
export function shapeForContract(data: Json): Json {
  let shaped: Json | undefined;
  for (const [field, value] of Object.entries(data)) {
    const shape = SHAPES[field];
    if (!shape || value === null || typeof value !== 'object') continue;
    shaped ??= { ...data };
    shaped[field] = shape(value as Json);
  }
  return shaped ?? data;
}
