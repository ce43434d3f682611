// The yardstick: a bare h3 v2 server in its own process answering fixed JSON bodies, with nothing of Siteline in
// it. Bodies come as a JSON object {path: body} in the file named by argv[2]; prints {url} once it listens.
import { readFile } from 'node:fs/promises';
import { H3, serve } from 'h3';

const bodies = JSON.parse(await readFile(process.argv[2]!, 'utf8')) as Record<string, unknown>;
const app = new H3();
for (const [path, body] of Object.entries(bodies)) app.get(path, () => body);
const server = serve(app, { port: 0, hostname: '127.0.0.1', silent: true, gracefulShutdown: false });
await server.ready();
process.stdout.write(`${JSON.stringify({ url: server.url, key: '' })}\n`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void server.close(true).then(() => process.exit(0)));
