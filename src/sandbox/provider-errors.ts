// What each provider answers when a fault switch fires: its own 429 and 5xx bodies, and truncated JSON.
import { googleError, ProviderError } from './http.ts';
import { backendError, rateLimited } from './engine1/gsc-errors.ts';
import { bingError } from './engine2/handler.ts';
import type { Provider } from './control/fault-settings.ts';

export function throttled(provider: Provider): ProviderError {
  switch (provider) {
    case 'analytics':
      return googleError(429, 'Exhausted property tokens per hour for a project per property. These quota tokens will return in under an hour. To learn more, see https://developers.google.com/analytics/devguides/reporting/data/v1/quotas');
    case 'engine1':
      return rateLimited();
    case 'engine2':
      return bingError(429, 4, 'ThrottleUser');
    case 'token':
      return new ProviderError(429, { error: 'rate_limit_exceeded', error_description: 'Rate limit exceeded. Try again later.' });
  }
}

export function serverError(provider: Provider): ProviderError {
  switch (provider) {
    case 'analytics':
      return googleError(503, 'The service is currently unavailable.');
    case 'engine1':
      return backendError();
    case 'engine2':
      return bingError(500, 1, 'InternalError');
    case 'token':
      return new ProviderError(503, { error: 'temporarily_unavailable', error_description: 'The service is currently unavailable.' });
  }
}

/** A 200 whose JSON body is cut off mid-way: what a broken proxy or a dropped connection looks like. */
export async function malformed(response: Response): Promise<Response> {
  const text = await response.text();
  const cut = text.slice(0, Math.max(1, Math.floor(text.length * 0.6)));
  return new Response(cut, { status: 200, headers: { 'content-type': response.headers.get('content-type') ?? 'application/json' } });
}
