// Validates a raw-proxy path for analytics and rebuilds the upstream path from constants.
import { invalidParameter, notFound } from '../../errors/app-error.ts';

export const RAW_ANALYTICS_METHODS = [
  'runReport',
  'runPivotReport',
  'batchRunReports',
  'batchRunPivotReports',
  'runRealtimeReport',
  'checkCompatibility',
] as const;

// Anchored, no dots, no slashes besides the fixed ones: `..`, `%2e`, `//host` and `\` cannot match.
const PATH = new RegExp(`^properties/(\\d{1,20})(?::(${RAW_ANALYTICS_METHODS.join('|')})|/(metadata))$`);

export interface RawAnalyticsTarget {
  method: 'GET' | 'POST';
  /** Relative to the API root, e.g. `v1beta/properties/123:runReport`. */
  path: string;
  operation: string;
}

export function toRawAnalyticsPath(method: string, path: string, propertyId: string): RawAnalyticsTarget {
  const match = PATH.exec(path);
  if (match === null) {
    throw invalidParameter(
      'path',
      `Path "${path.slice(0, 200)}" is not allowed; use properties/<id>:<method> (${RAW_ANALYTICS_METHODS.join(', ')}) or properties/<id>/metadata.`,
    );
  }
  const [, id, verb, metadata] = match;
  if (id !== propertyId) throw notFound('The analytics property in the path is not this project\'s property.');
  const operation = verb ?? metadata ?? 'metadata';
  const expected = metadata === undefined ? 'POST' : 'GET';
  if (method.toUpperCase() !== expected) {
    throw invalidParameter('method', `${operation} takes ${expected}, not ${method.toUpperCase()}.`);
  }
  const suffix = metadata === undefined ? `:${operation}` : '/metadata';
  return { method: expected, path: `v1beta/properties/${propertyId}${suffix}`, operation };
}
