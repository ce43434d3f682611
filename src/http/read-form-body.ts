// Reads small request bodies for the OAuth endpoints and the account pages' forms, under a byte limit.
// Returns undefined (the caller answers in its own error shape) for a wrong media type or a body too large.
import { readBodyText } from './read-body-text.ts';

export const FORM_BODY_LIMIT = 64 * 1024;

export function hasMediaType(request: Request, type: string): boolean {
  const header = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  return header === type;
}

/** An application/x-www-form-urlencoded body, or undefined for another media type or an oversized body. */
export async function readFormBody(request: Request, limitBytes = FORM_BODY_LIMIT): Promise<URLSearchParams | undefined> {
  if (!hasMediaType(request, 'application/x-www-form-urlencoded')) return undefined;
  const text = await readBodyText(request, limitBytes);
  return text === undefined ? undefined : new URLSearchParams(text);
}
