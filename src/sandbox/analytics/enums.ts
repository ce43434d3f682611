// Proto3 JSON enums of the Data API in both encodings. A request may spell an enum by name or by number (the gax
// clients send numbers: `"matchType": 2`); with `$alt=json;enum-encoding=int` the answer's enums are numbers too.
// One table per field name (the names are unambiguous across the v1beta and v1alpha messages the sandbox reads).

type EnumTable = Readonly<Record<number, string>>;

const METRIC_AGGREGATION: EnumTable = { 0: 'METRIC_AGGREGATION_UNSPECIFIED', 1: 'TOTAL', 4: 'COUNT', 5: 'MINIMUM', 6: 'MAXIMUM' };
const COMPATIBILITY: EnumTable = { 0: 'COMPATIBILITY_UNSPECIFIED', 1: 'COMPATIBLE', 2: 'INCOMPATIBLE' };

/** Request fields (data.proto v1beta/v1alpha, analytics_data_api.proto) → enum names by number. */
const REQUEST_ENUMS: Readonly<Record<string, EnumTable>> = {
  matchType: { 0: 'MATCH_TYPE_UNSPECIFIED', 1: 'EXACT', 2: 'BEGINS_WITH', 3: 'ENDS_WITH', 4: 'CONTAINS', 5: 'FULL_REGEXP', 6: 'PARTIAL_REGEXP' },
  operation: { 0: 'OPERATION_UNSPECIFIED', 1: 'EQUAL', 2: 'LESS_THAN', 3: 'LESS_THAN_OR_EQUAL', 4: 'GREATER_THAN', 5: 'GREATER_THAN_OR_EQUAL' },
  orderType: { 0: 'ORDER_TYPE_UNSPECIFIED', 1: 'ALPHANUMERIC', 2: 'CASE_INSENSITIVE_ALPHANUMERIC', 3: 'NUMERIC' },
  metricAggregations: METRIC_AGGREGATION,
  compatibilityFilter: COMPATIBILITY,
  granularity: { 0: 'GRANULARITY_UNSPECIFIED', 1: 'DAILY', 2: 'WEEKLY', 3: 'MONTHLY' },
  funnelVisualizationType: { 0: 'FUNNEL_VISUALIZATION_TYPE_UNSPECIFIED', 1: 'STANDARD_FUNNEL', 2: 'TRENDED_FUNNEL' },
};

/** Response fields whose values are enums. */
const RESPONSE_ENUMS: Readonly<Record<string, EnumTable>> = {
  type: {
    0: 'METRIC_TYPE_UNSPECIFIED', 1: 'TYPE_INTEGER', 2: 'TYPE_FLOAT', 4: 'TYPE_SECONDS', 5: 'TYPE_MILLISECONDS', 6: 'TYPE_MINUTES', 7: 'TYPE_HOURS',
    8: 'TYPE_STANDARD', 9: 'TYPE_CURRENCY', 10: 'TYPE_FEET', 11: 'TYPE_MILES', 12: 'TYPE_METERS', 13: 'TYPE_KILOMETERS',
  },
  compatibility: COMPATIBILITY,
  restrictedMetricTypes: { 0: 'RESTRICTED_METRIC_TYPE_UNSPECIFIED', 1: 'COST_DATA', 2: 'REVENUE_DATA' },
  blockedReasons: { 0: 'BLOCKED_REASON_UNSPECIFIED', 1: 'NO_REVENUE_METRICS', 2: 'NO_COST_METRICS' },
};

const NUMBERS_BY_NAME = new Map(
  Object.entries(RESPONSE_ENUMS).map(([field, table]) => [field, new Map(Object.entries(table).map(([n, name]) => [name, Number(n)]))]),
);

/** Rewrites every enum given as a number to its name (unknown numbers stay visible: `"99"`), so parsers see names. */
export function toEnumNames(value: unknown, field?: string): unknown {
  if (Array.isArray(value)) return value.map((v) => toEnumNames(v, field));
  const table = field === undefined ? undefined : REQUEST_ENUMS[field];
  if (table && typeof value === 'number') return table[value] ?? String(value);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toEnumNames(v, k)]));
}

/** Rewrites the answer's enums to numbers (for `enum-encoding=int`). */
export function toEnumNumbers(value: unknown, field?: string): unknown {
  if (Array.isArray(value)) return value.map((v) => toEnumNumbers(v, field));
  const numbers = field === undefined ? undefined : NUMBERS_BY_NAME.get(field);
  if (numbers && typeof value === 'string') return numbers.get(value) ?? value;
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toEnumNumbers(v, k)]));
}

/** True when the request asks for integer enums (`?$alt=json;enum-encoding=int`, as the gax REST fallback sends). */
export function wantsIntEnums(url: string): boolean {
  const alt = new URL(url).searchParams.get('$alt') ?? '';
  return alt.split(';').some((part) => part.trim().toLowerCase() === 'enum-encoding=int');
}
