// The yardstick: a bare h3 v2 server in its own process answering fixed JSON bodies, with nothing of Siteline in
// it. Bodies come as a JSON object {path: body} in the file named by argv[2]; prints {url} once it listens.
// Each path also answers at `<path>/with-headers` with the header fields Siteline's contract puts on a warm answer
// (a fresh request id, the rate-limit fields, cache state): the same bytes on the wire, without Siteline's work.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { H3, serve } from 'h3';
import { FastResponse } from 'srvx';

const bodies = JSON.parse(await readFile(process.argv[2]!, 'utf8')) as Record<string, unknown>;
const app = new H3();
for (const [path, body] of Object.entries(bodies)) {
  app.get(path, () => body);
  app.get(`${path}/with-headers`, () => new FastResponse(JSON.stringify(body), { headers: contractHeaders(path) }));
}
const server = serve(app, { port: 0, hostname: '127.0.0.1', silent: true, gracefulShutdown: false });
await server.ready();
process.stdout.write(`${JSON.stringify({ url: server.url, key: '' })}\n`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void server.close(true).then(() => process.exit(0)));

/** What Siteline sends with a warm answer: `/healthz` has no rate-limit or cache fields. */
function contractHeaders(path: string): Record<string, string> {
  const common = { 'x-request-id': randomUUID(), 'content-type': 'application/json; charset=utf-8', 'cache-control': 'private, no-store' };
  if (path === '/healthz') return common;
  return { ...common, 'RateLimit-Policy': '"default";q=1000000;w=60, "burst";q=100000;w=1', RateLimit: '"default";r=999990;t=42, "burst";r=99990;t=1', 'cache-status': 'siteline; hit', age: '3' };
}
