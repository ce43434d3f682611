// The GraphQL side of a request: the typed `Project` field that answers it (enums, Int, Boolean, Period and lists
// as the schema types them, not the stored operations' strings), and its answer turned into the REST contract's
// shape (metrics keyed by name, a plain number when not comparing, a row's value under its dimension's name).
import type { ApiRequest, Route } from './request.ts';

type Json = Record<string, any>;

const COMPARED = '{ value previous delta deltaPct }';
const PERIOD = 'period { name start end timezone previous { start end } }';
const META = 'meta { warnings { code message } sources dataThrough }';
const FIGURES = 'clicks impressions ctr position';
const COMPARED_FIGURES = `{ clicks ${COMPARED} impressions ${COMPARED} ctr ${COMPARED} position ${COMPARED} }`;

interface FieldSpec {
  field: string;
  /** Parameter → [GraphQL variable type, conversion from the REST string]. */
  args: Record<string, [string, (raw: string) => unknown]>;
  selection: string;
}

// Enum values are the words REST takes, so they pass as sent.
const text = (raw: string) => raw;
const int = (raw: string) => Number(raw);
const flag = (raw: string) => raw === '1';
const list = (raw: string) => raw.split(',');

const FIELDS: Readonly<Record<Route, FieldSpec>> = {
  summary: {
    field: 'summary',
    args: { period: ['Period', text], compare: ['CompareMode', text], force: ['Boolean', flag] },
    selection: `project ${PERIOD} metrics { name value ${COMPARED} } ${META}`,
  },
  timeseries: {
    field: 'timeseries',
    args: { metric: ['String', text], period: ['Period', text], interval: ['Interval', text], compare: ['CompareMode', text], force: ['Boolean', flag] },
    selection: `project ${PERIOD} metric interval points { date time value ${COMPARED} } total ${COMPARED} ${META}`,
  },
  breakdown: {
    field: 'breakdown',
    args: {
      dimension: ['String!', text],
      metrics: ['[String!]', list],
      limit: ['Int', int],
      offset: ['Int', int],
      order: ['String', text],
      filter: ['String', text],
      compare: ['CompareMode', text],
      period: ['Period', text],
      force: ['Boolean', flag],
    },
    selection: `project ${PERIOD} dimension metrics rows { value metrics { name value ${COMPARED} } } totalRows limit offset ${META}`,
  },
  searchSummary: {
    field: 'search',
    args: { period: ['Period', text], compare: ['CompareMode', text], sp: ['SearchProvider', text], force: ['Boolean', flag] },
    selection: `project ${PERIOD} sp totals ${COMPARED_FIGURES} byProvider { engine1 ${COMPARED_FIGURES} engine2 ${COMPARED_FIGURES} } ${META}`,
  },
  searchTimeseries: {
    field: 'searchTimeseries',
    args: { period: ['Period', text], sp: ['SearchProvider', text], interval: ['Interval', text], force: ['Boolean', flag] },
    selection: `project ${PERIOD} sp interval points { date time ${FIGURES} byProvider { engine1 { ${FIGURES} } engine2 { ${FIGURES} } } } totals { ${FIGURES} } byProvider { engine1 { ${FIGURES} } engine2 { ${FIGURES} } } ${META}`,
  },
  searchBreakdown: {
    field: 'searchBreakdown',
    args: {
      dimension: ['SearchDimension!', text],
      period: ['Period', text],
      sp: ['SearchProvider', text],
      limit: ['Int', int],
      offset: ['Int', int],
      order: ['String', text],
      filter: ['String', text],
      force: ['Boolean', flag],
    },
    selection: `project ${PERIOD} sp dimension rows { value ${FIGURES} byProvider { engine1 { ${FIGURES} } engine2 { ${FIGURES} } } } totalRows limit offset ${META}`,
  },
  landingPages: {
    field: 'landingPages',
    args: { period: ['Period', text], sp: ['SearchProvider', text], limit: ['Int', int], offset: ['Int', int], order: ['String', text], filter: ['String', text], force: ['Boolean', flag] },
    selection: `project ${PERIOD} sp rows { page sessions engagementRate keyEvents ${FIGURES} } totalRows limit offset ${META}`,
  },
  changes: {
    field: 'changes',
    args: { metric: ['String', text], period: ['Period', text], compare: ['CompareMode', text], sp: ['SearchProvider', text], force: ['Boolean', flag] },
    selection: `project ${PERIOD} metric kind sp change ${COMPARED} drivers { dimension value contribution share current previous significant reason echoOf { dimension value } mix rate } dimensions { dimension delta unlisted segments } ${META}`,
  },
};

export function graphqlQueryOf(request: ApiRequest): { query: string; variables: Record<string, unknown> } {
  const spec = FIELDS[request.route];
  const declared: string[] = ['$key: String!'];
  const passed: string[] = [];
  const variables: Record<string, unknown> = { key: request.project };
  for (const [name, raw] of Object.entries(request.params)) {
    const arg = spec.args[name];
    if (!arg) throw new Error(`GraphQL field ${spec.field} has no argument for ${name} (${request})`);
    declared.push(`$${name}: ${arg[0]}`);
    passed.push(`${name}: $${name}`);
    variables[name] = arg[1](raw);
  }
  const args = passed.length ? `(${passed.join(', ')})` : '';
  return { query: `query Relation(${declared.join(', ')}) { project(key: $key) { ${spec.field}${args} { ${spec.selection} } } }`, variables };
}

/** The GraphQL answer in the REST contract's shape (only what the selection above reads). */
export function restShapeOfGraphql(request: ApiRequest, field: Json): Json {
  const comparing = Boolean(field.period?.previous);
  const figure = (compared: Json | null) => (compared === null ? null : comparing ? compared : compared.value);
  const metricMap = (metrics: { name: string; value: Json }[]) => Object.fromEntries(metrics.map((m) => [m.name, figure(m.value)]));
  const figureMap = (figures: Json | null) => (figures === null ? null : Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, figure(v as Json | null)])));
  switch (request.route) {
    case 'summary':
      return { ...field, metrics: metricMap(field.metrics) };
    case 'timeseries':
      return { ...field, points: field.points.map((p: Json) => ({ ...p, value: figure(p.value) })), total: figure(field.total) };
    case 'breakdown':
      return { ...field, rows: field.rows.map((r: Json) => ({ [field.dimension]: r.value, ...metricMap(r.metrics) })) };
    case 'searchSummary':
      return {
        ...field,
        totals: figureMap(field.totals),
        byProvider: Object.fromEntries(Object.entries(field.byProvider as Json).map(([engine, figures]) => [engine, figureMap(figures as Json | null)])),
      };
    case 'searchBreakdown':
      return { ...field, rows: field.rows.map(({ value, ...rest }: Json) => ({ [field.dimension]: value, ...rest })) };
    default:
      return field;
  }
}
