// A test runtime served over a real loopback port, for tools that must connect over HTTP (Inspector CLI,
// conformance suite). `withKey` puts the demo API key on every request that arrives without credentials, as a
// client configured with the key sends it (the conformance suite's server mode cannot send headers): the app
// behind it is the production one, authentication included.
import { serve as serveApp } from 'h3';
import { serve } from 'srvx';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';
import { RELAXED_LIMITS } from './mcp-clients.ts';

export interface ListeningServer {
  rt: SandboxRuntime;
  /** http://localhost:<port>/api/mcp */
  url: string;
  close(): Promise<void>;
}

export async function startListeningServer(options: { withKey?: boolean } = {}): Promise<ListeningServer> {
  const rt = await createSandboxRuntime({ shared: RELAXED_LIMITS, env: { PUBLIC_URL: 'http://localhost' } });
  const listen = { port: 0, hostname: '127.0.0.1', silent: true, gracefulShutdown: false } as const;
  const server = options.withKey
    ? serve({
        ...listen,
        fetch: (request) => {
          if (request.headers.has('authorization')) return rt.app.fetch(request);
          const headers = new Headers(request.headers);
          headers.set('authorization', `Bearer ${rt.demo.apiKey}`);
          const body = request.body === null ? {} : { body: request.body, duplex: 'half' };
          return rt.app.fetch(new Request(request.url, { method: request.method, headers, ...body } as RequestInit));
        },
      })
    : serveApp(rt.app, listen);
  await server.ready();
  const port = new URL(server.url!).port;
  return {
    rt,
    url: `http://localhost:${port}/api/mcp`,
    async close() {
      await server.close(true);
      await rt.dispose();
    },
  };
}
