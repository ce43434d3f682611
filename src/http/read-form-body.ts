// Reads small request bodies for the OAuth endpoints and the account pages' forms, under a byte limit.
// Returns undefined (the caller answers in its own error shape) for a wrong media type or a body too large.

export const FORM_BODY_LIMIT = 64 * 1024;

export async function readBodyText(request: Request, limitBytes = FORM_BODY_LIMIT): Promise<string | undefined> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limitBytes) return undefined;
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limitBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

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
