// Over a real socket, an oversized upload is answered with its 413 while the client is still sending, chunked or
// with a declared length: the server stops reading at the cap instead of taking in 50 MB first, and the answer still
// reaches the client (abandoning the body does not reset the connection under it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveRuntime, type RunningServer } from '../../src/server.ts';
import { createTestRuntime, type TestRuntime } from '../helpers/test-runtime.ts';

const TOTAL = 50 * 1024 * 1024;
const CHUNK = 64 * 1024;

let rt: TestRuntime;
let running: RunningServer;
beforeAll(async () => {
  rt = await createTestRuntime({ env: { PORT: '0', HOST: '127.0.0.1' } });
  running = await serveRuntime(rt, rt.settings);
});
afterAll(async () => {
  await running.stop();
  await rt.dispose();
});

/** Uploads up to 50 MB, one chunk per pull; returns the answer and how much the client had handed over by then. */
async function upload(path: string, headers: Record<string, string>) {
  let sent = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (sent >= TOTAL) return controller.close();
        sent += CHUNK;
        controller.enqueue(new Uint8Array(CHUNK).fill(0x61));
      },
    },
    { highWaterMark: 0 },
  );
  const res = await fetch(new URL(path, running.url), { method: 'POST', body, duplex: 'half', headers } as RequestInit);
  return { status: res.status, text: await res.text(), sent };
}

describe('an oversized upload over HTTP', () => {
  const form = { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' };

  it.each([
    ['/join', form],
    ['/account/sign-in', form],
    ['/oauth/token', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['/oauth/register', { 'content-type': 'application/json' }],
  ])('POST %s: 413 long before the whole body was sent, chunked or declared', async (path, headers) => {
    const lengths: Record<string, string>[] = [{}, { 'content-length': String(TOTAL) }];
    for (const declared of lengths) {
      const answer = await upload(path, { ...headers, ...declared });
      expect(answer.status, answer.text.slice(0, 200)).toBe(413);
      // What the socket buffers took in before the answer; the server itself read at most its cap and one chunk.
      expect(answer.sent).toBeLessThan(TOTAL / 2);
    }
  });

  it('a body within its cap is read whole, with a declared length (read in one go) or chunked', async () => {
    const metadata = { client_name: 'Over HTTP', redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none', padding: 'x'.repeat(40 * 1024) };
    const text = `\uFEFF${JSON.stringify(metadata)}`;
    const declared = await fetch(new URL('/oauth/register', running.url), { method: 'POST', body: text, headers: { 'content-type': 'application/json' } });
    expect(declared.status, await declared.clone().text()).toBe(201);
    const bytes = new TextEncoder().encode(text);
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 1000) controller.enqueue(bytes.slice(at, at + 1000));
        controller.close();
      },
    });
    const streamed = await fetch(new URL('/oauth/register', running.url), { method: 'POST', body: chunked, duplex: 'half', headers: { 'content-type': 'application/json' } } as RequestInit);
    expect(streamed.status, await streamed.clone().text()).toBe(201);
  });
});
