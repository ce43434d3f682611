// getMetadata and checkCompatibility: the schema as the Data API describes it (custom definitions only on
// real properties, never on the wildcard property 0).
import { omitDefaults } from '../http.ts';
import { DIMENSIONS, METRICS, DIMENSION_BY_NAME, METRIC_BY_NAME, type DimensionDef, type MetricDef } from './fields.ts';
import { compileFilter } from './filters.ts';
import { assertKnownFields, invalid, unknownDimension, unknownMetric, incompatible } from './ga-errors.ts';
import type { Json } from './run-report.ts';

function dimensionMetadata(d: DimensionDef): Json {
  return omitDefaults({ apiName: d.apiName, uiName: d.uiName, description: d.description, customDefinition: d.custom === true, category: d.custom ? 'Custom' : d.category });
}

function metricMetadata(m: MetricDef): Json {
  return omitDefaults({
    apiName: m.apiName, uiName: m.uiName, description: m.description, type: m.type, expression: m.expression,
    customDefinition: m.custom === true, category: m.custom ? 'Custom' : m.category,
  });
}

const schemaDimensions = (custom: boolean) => DIMENSIONS.filter((d) => d.core && d.source !== 'range' && (custom || !d.custom));
const schemaMetrics = (custom: boolean) => METRICS.filter((m) => m.core && (custom || !m.custom));

export function getMetadata(propertyId: string): Json {
  const custom = propertyId !== '0';
  return {
    name: `properties/${propertyId}/metadata`,
    dimensions: schemaDimensions(custom).map(dimensionMetadata),
    metrics: schemaMetrics(custom).map(metricMetadata),
  };
}

const names = (list: unknown): string[] => (Array.isArray(list) ? list : []).map((x) => String((x as Json)?.name ?? ''));

export function checkCompatibility(propertyId: string, body: Json): Json {
  assertKnownFields(body, ['property', 'dimensions', 'metrics', 'dimensionFilter', 'metricFilter', 'compatibilityFilter']);
  const custom = propertyId !== '0';
  const dims = names(body.dimensions);
  const metrics = names(body.metrics);
  const knownDim = (n: string) => {
    const d = DIMENSION_BY_NAME.get(n);
    if (!d || !d.core || (d.custom && !custom)) throw unknownDimension(n);
  };
  const knownMetric = (n: string) => {
    const m = METRIC_BY_NAME.get(n);
    if (!m || (m.custom && !custom)) throw unknownMetric(n);
  };
  dims.forEach(knownDim);
  metrics.forEach(knownMetric);
  if (body.dimensionFilter !== undefined) compileFilter(body.dimensionFilter, (n) => { knownDim(n); dims.push(n); }, 'dimensionFilter');
  if (body.metricFilter !== undefined) compileFilter(body.metricFilter, (n) => { knownMetric(n); metrics.push(n); }, 'metricFilter');
  const filterValue = body.compatibilityFilter === undefined ? undefined : String(body.compatibilityFilter);
  if (filterValue !== undefined && !['COMPATIBLE', 'INCOMPATIBLE', 'COMPATIBILITY_UNSPECIFIED'].includes(filterValue)) throw invalid(`Invalid compatibilityFilter ${filterValue}.`);
  const hasItemDim = dims.some((d) => DIMENSION_BY_NAME.get(d)?.item);
  const hasOtherMetric = metrics.some((m) => !METRIC_BY_NAME.get(m)?.item);
  const firstItemDim = dims.find((d) => DIMENSION_BY_NAME.get(d)?.item);
  if (hasItemDim && hasOtherMetric && firstItemDim) throw incompatible(firstItemDim);
  const keep = (c: string) => !filterValue || filterValue === 'COMPATIBILITY_UNSPECIFIED' || filterValue === c;
  const dimensionCompatibilities = schemaDimensions(custom)
    .map((d) => ({ dimensionMetadata: dimensionMetadata(d), compatibility: d.item && hasOtherMetric ? 'INCOMPATIBLE' : 'COMPATIBLE' }))
    .filter((x) => keep(x.compatibility));
  const metricCompatibilities = schemaMetrics(custom)
    .map((m) => ({ metricMetadata: metricMetadata(m), compatibility: !m.item && hasItemDim ? 'INCOMPATIBLE' : 'COMPATIBLE' }))
    .filter((x) => keep(x.compatibility));
  return omitDefaults({ dimensionCompatibilities, metricCompatibilities });
}
