// A test runtime served over a real loopback port, for tools that must connect over HTTP (Inspector CLI,
// conformance suite). `openAccess` mounts a second app whose authenticator lets requests without any
// credentials through as a fixed principal (read + mcp:write on the demo account): the conformance suite's
// server mode cannot send an Authorization header. Requests that do carry one are still verified normally.
import { serve } from 'h3';
import { createApp } from '../../src/app.ts';
import type { Principal } from '../../src/auth/principal.ts';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';
import { RELAXED_LIMITS } from './mcp-clients.ts';

export interface ListeningServer {
  rt: SandboxRuntime;
  /** http://localhost:<port>/api/mcp */
  url: string;
  close(): Promise<void>;
}

export async function startListeningServer(options: { openAccess?: boolean } = {}): Promise<ListeningServer> {
  const rt = await createSandboxRuntime({ shared: RELAXED_LIMITS, env: { PUBLIC_URL: 'http://localhost' } });
  const fixed: Principal = { kind: 'api_key', accountId: rt.demo.accountId, credentialId: 'conformance-test', scopes: new Set(['read', 'mcp:write']), projectKeys: null };
  const app = options.openAccess
    ? createApp({ ...rt.deps, authenticate: async (request, ip) => (request.headers.get('authorization') ? rt.deps.authenticate(request, ip) : fixed) })
    : rt.app;
  const server = serve(app, { port: 0, hostname: '127.0.0.1', silent: true, gracefulShutdown: false });
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
