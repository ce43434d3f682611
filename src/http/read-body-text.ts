// Reads a request body as text under a byte limit; undefined when it is larger (each caller answers in its own error shape).
// A body whose Content-Length is within the limit is read in one go by the server adapter (no web stream): Node's
// HTTP parser never delivers more body than the declared length, so the limit holds. A chunked body is counted as it
// streams in and abandoned past the limit.

export async function readBodyText(request: Request, limitBytes: number): Promise<string | undefined> {
  const length = request.headers.get('content-length');
  const declared = length === null ? Number.NaN : Number(length);
  if (Number.isFinite(declared) && declared > limitBytes) return undefined;
  if (Number.isInteger(declared) && declared >= 0) return withoutBom(await request.text());
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

/** As TextDecoder reads it: a leading byte order mark is not part of the text (a Node adapter's text() keeps it). */
function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
