// Request bodies under a byte limit: a declared Content-Length is checked before reading and read in one go, a
// chunked body is counted as it arrives; both give the same text (a leading byte order mark dropped).
import { describe, expect, it } from 'vitest';
import { readBodyText } from '../../src/http/read-body-text.ts';

const BOM = '\uFEFF';

function declared(body: string, length = Buffer.byteLength(body)): Request {
  return new Request('http://siteline.test/', { method: 'POST', body, headers: { 'content-length': String(length) } });
}

function chunked(...chunks: string[]): Request {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });
  return new Request('http://siteline.test/', { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
}

describe('readBodyText', () => {
  it('reads a body whose declared length is within the limit', async () => {
    expect(await readBodyText(declared('{"a":"é"}'), 11)).toBe('{"a":"é"}');
    expect(await readBodyText(declared(''), 10)).toBe('');
  });

  it('refuses a declared length over the limit without reading', async () => {
    const request = declared('x'.repeat(11));
    expect(await readBodyText(request, 10)).toBeUndefined();
    expect(request.bodyUsed).toBe(false);
  });

  it('counts a chunked body as it arrives and stops past the limit', async () => {
    expect(await readBodyText(chunked('abc', 'def'), 6)).toBe('abcdef');
    expect(await readBodyText(chunked('abc', 'defg'), 6)).toBeUndefined();
  });

  it('drops a leading byte order mark either way', async () => {
    expect(await readBodyText(declared(`${BOM}{}`), 10)).toBe('{}');
    expect(await readBodyText(chunked(`${BOM}{}`), 10)).toBe('{}');
  });
});
