// The raw proxies' answer: the provider's status and JSON body exactly as sent (byte for byte), checked to be JSON.
import { MalformedAnswer } from './upstream-errors.ts';

export interface RawResponse {
  status: number;
  /** The provider's body text, unchanged. */
  body: string;
  /** The same body, parsed (for caching or inspection). */
  json: unknown;
}

export function readRawBody(status: number, text: unknown, _headers: unknown, what: string): RawResponse {
  if (typeof text !== 'string') throw new MalformedAnswer(`${what}: no body`);
  try {
    return { status, body: text, json: JSON.parse(text) as unknown };
  } catch {
    throw new MalformedAnswer(`${what}: not JSON`);
  }
}
