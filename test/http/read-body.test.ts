// The one body reader: a declared Content-Length past the cap refuses before reading, the body itself is counted
// as it streams (a declared length is not trusted) and abandoned at the first chunk past the cap; forms and JSON on
// top of it, with the media-type checks and the nesting limit.
import { describe, expect, it } from 'vitest';
import { BODY_LIMITS, readBodyText, readFormBody, readJsonBody } from '../../src/http/read-body.ts';
import { expectAppErrorRejection } from '../domain/expect-app-error.ts';

const BOM = '\uFEFF';
const TOO_LARGE = { code: 'payload_too_large', status: 413 } as const;

function declared(body: string, length = Buffer.byteLength(body), type = 'text/plain'): Request {
  return new Request('http://siteline.test/', { method: 'POST', body, headers: { 'content-length': String(length), 'content-type': type } });
}

/** A chunked body; `pulls` counts the chunks handed out (nothing is read ahead). */
function chunked(chunks: string[], type = 'text/plain') {
  let pulls = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const chunk = chunks[pulls++];
        if (chunk === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(chunk));
      },
    },
    { highWaterMark: 0 },
  );
  const request = new Request('http://siteline.test/', { method: 'POST', body: stream, duplex: 'half', headers: { 'content-type': type } } as RequestInit);
  return { request, pulls: () => pulls };
}

describe('readBodyText', () => {
  it('reads a body within the cap, declared or chunked', async () => {
    expect(await readBodyText(declared('{"a":"é"}'), 11)).toBe('{"a":"é"}');
    expect(await readBodyText(declared(''), 10)).toBe('');
    expect(await readBodyText(chunked(['abc', 'def']).request, 6)).toBe('abcdef');
  });

  it('refuses a declared length over the cap without reading', async () => {
    const request = declared('x'.repeat(11));
    await expectAppErrorRejection(readBodyText(request, 10), TOO_LARGE);
    expect(request.bodyUsed).toBe(false);
  });

  it('stops at the first chunk past the cap, whatever length was declared', async () => {
    const body = chunked(['abc', 'defg', 'never', 'read']);
    await expectAppErrorRejection(readBodyText(body.request, 6), TOO_LARGE);
    expect(body.pulls()).toBe(2);

    const lying = new Request('http://siteline.test/', { method: 'POST', body: 'x'.repeat(100), headers: { 'content-length': '5' } });
    await expectAppErrorRejection(readBodyText(lying, 10), TOO_LARGE);
  });

  it('names the cap in the message', async () => {
    await expectAppErrorRejection(readBodyText(declared('x', 2 * 1024 * 1024), BODY_LIMITS.mcp), { ...TOO_LARGE, includes: ['1 MiB'] });
    await expectAppErrorRejection(readBodyText(declared('x', 65 * 1024), BODY_LIMITS.form), { ...TOO_LARGE, includes: ['64 KiB'] });
  });

  it('drops a leading byte order mark either way', async () => {
    expect(await readBodyText(declared(`${BOM}{}`), 10)).toBe('{}');
    expect(await readBodyText(chunked([`${BOM}{}`]).request, 10)).toBe('{}');
  });
});

describe('readFormBody', () => {
  it('parses a urlencoded form', async () => {
    const form = await readFormBody(declared('csrf=t&name=Ada+L', undefined, 'application/x-www-form-urlencoded; charset=UTF-8'));
    expect(form?.get('name')).toBe('Ada L');
  });

  it('is undefined for another media type, and reads nothing then', async () => {
    const body = chunked(['name=x'], 'multipart/form-data; boundary=x');
    expect(await readFormBody(body.request)).toBeUndefined();
    expect(body.pulls()).toBe(0);
  });

  it('refuses a form past its cap', async () => {
    const body = chunked(['a'.repeat(40 * 1024), 'a'.repeat(40 * 1024), 'a'.repeat(40 * 1024)], 'application/x-www-form-urlencoded');
    await expectAppErrorRejection(readFormBody(body.request), TOO_LARGE);
    expect(body.pulls()).toBe(2);
  });
});

describe('readJsonBody', () => {
  const json = (text: string, type = 'application/json') => declared(text, undefined, type);

  it('parses JSON and +json media types', async () => {
    expect(await readJsonBody(json('{"a":[1,2]}'))).toEqual({ a: [1, 2] });
    expect(await readJsonBody(json('{"a":1}', 'application/merge-patch+json; charset=utf-8'))).toEqual({ a: 1 });
  });

  it('415 for another media type, 400 invalid_json for bad JSON, 413 past the cap', async () => {
    await expectAppErrorRejection(readJsonBody(json('{}', 'text/plain')), { code: 'unsupported_media_type', status: 415 });
    await expectAppErrorRejection(readJsonBody(json('{"a":')), { code: 'invalid_json', includes: ['not valid JSON'] });
    await expectAppErrorRejection(readJsonBody(json(`{"a":"${'x'.repeat(100)}"}`), 50), TOO_LARGE);
  });

  it('400 invalid_json naming the nesting limit for a deeply nested body', async () => {
    await expectAppErrorRejection(readJsonBody(json(`${'['.repeat(30_000)}${']'.repeat(30_000)}`)), { code: 'invalid_json', includes: ['more than 64 levels'] });
  });
});
