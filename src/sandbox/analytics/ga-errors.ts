// The Data API's error bodies, worded as observed.
import { googleError, type ProviderError } from '../http.ts';

const SCHEMA_URL = 'https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema';

export const invalid = (message: string): ProviderError => googleError(400, message);

export const unknownMetric = (name: string): ProviderError =>
  invalid(`Field ${name} is not a valid metric. For a list of valid dimensions and metrics, see ${SCHEMA_URL}`);

export const unknownDimension = (name: string): ProviderError =>
  invalid(`Field ${name} is not a valid dimension. For a list of valid dimensions and metrics, see ${SCHEMA_URL}`);

export const incompatible = (name: string): ProviderError =>
  invalid(`Please remove ${name} to make the request compatible. The request's dimensions & metrics are incompatible. To learn more, see https://ga-dev-tools.web.app/ga4/dimensions-metrics-explorer/`);

export const unknownField = (name: string): ProviderError =>
  invalid(`Invalid JSON payload received. Unknown name "${name}": Cannot find field.`);

export const noPropertyAccess = (): ProviderError =>
  googleError(403, 'User does not have sufficient permissions for this property. To learn more about Property ID, see https://developers.google.com/analytics/devguides/reporting/data/v1/property-id.');

/** Rejects top-level keys the message type does not define (after snake_case → lowerCamel). */
export function assertKnownFields(body: Record<string, unknown>, allowed: readonly string[]): void {
  for (const key of Object.keys(body)) if (!allowed.includes(key)) throw unknownField(key);
}
