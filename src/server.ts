// Serves a runtime's app on HOST:PORT and drains it on SIGTERM/SIGINT: stop accepting, finish in-flight
// requests (up to SHUTDOWN_GRACE_MS) with `Connection: close` so keep-alive clients take their next request
// elsewhere, then close the store, cache connections (releasing concurrency leases) and sandbox.
import type { Server as HttpServer, ServerResponse } from 'node:http';
import { serve } from 'h3';
import { answerClientErrors } from './http/client-error.ts';
import type { Settings } from './config/settings.ts';
import { toServerTrustProxy } from './http/trusted-proxies.ts';
import { createRuntime, type Runtime } from './runtime.ts';
import { startMetricsServer } from './observability/metrics-server.ts';

export interface RunningServer {
  runtime: Runtime;
  url: string;
  /** Base URL of the separate metrics listener, when METRICS_PORT is set. */
  metricsUrl?: string;
  /** Node's HTTP server under h3 (its 'request' events tell the idle heap trim the process is busy). */
  httpServer?: HttpServer;
  stop(): Promise<void>;
}

export async function startServer(settings: Settings): Promise<RunningServer> {
  return serveRuntime(await createRuntime(settings), settings);
}

/** Serves an already built runtime (tests add routes to its app first: h3 freezes routes once serving). */
export async function serveRuntime(runtime: Runtime, settings: Settings): Promise<RunningServer> {
  const trustProxy = toServerTrustProxy(settings.TRUST_PROXY);
  const server = serve(runtime.app, { port: settings.PORT, hostname: settings.HOST, silent: true, gracefulShutdown: false, trustProxy });
  await server.ready();
  const httpServer = server.node?.server as HttpServer | undefined;
  // After listening, a server error (e.g. out of file descriptors on accept) is logged; unheard it would end the process.
  httpServer?.on('error', (error) => runtime.logger.error({ err: error }, 'HTTP server error'));
  const drain = closeConnectionsWhenDraining(httpServer);
  if (httpServer) answerClientErrors(httpServer, runtime.logger);
  const url = server.url ?? `http://${settings.HOST}:${settings.PORT}/`;
  const metricsServer =
    runtime.metrics && settings.METRICS_PORT !== undefined
      ? await startMetricsServer(runtime.metrics, { port: settings.METRICS_PORT, hostname: settings.HOST }).catch(async (error: unknown) => {
          await server.close(true);
          throw error;
        })
      : undefined;
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      runtime.logger.info('shutting down: draining in-flight requests');
      drain.start();
      const forced = setTimeout(() => void server.close(true), settings.SHUTDOWN_GRACE_MS);
      await server.close();
      clearTimeout(forced);
      await metricsServer?.close();
      await runtime.close();
    })());
  return { runtime, url, ...(metricsServer ? { metricsUrl: metricsServer.url } : {}), ...(httpServer ? { httpServer } : {}), stop };
}

/**
 * Once draining, every response still to be written says `Connection: close`: a busy keep-alive connection
 * then ends after its current response instead of taking new requests until the grace deadline cuts it.
 */
function closeConnectionsWhenDraining(server: HttpServer | undefined): { start(): void } {
  let draining = false;
  const open = new Set<ServerResponse>();
  const closeAfter = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('connection', 'close');
    res.shouldKeepAlive = false;
  };
  // Prepended, so it runs before the app's handler can write anything.
  server?.prependListener('request', (_req, res: ServerResponse) => {
    if (draining) return closeAfter(res);
    open.add(res);
    res.once('close', () => open.delete(res));
  });
  return {
    start() {
      draining = true;
      for (const res of open) closeAfter(res);
    },
  };
}

/** SIGTERM/SIGINT → graceful stop, then exit. */
export function stopOnSignals(running: RunningServer): void {
  const onSignal = (signal: string) => {
    running.runtime.logger.info({ signal }, 'signal received');
    drainAndExit(running, 0);
  };
  process.once('SIGTERM', () => onSignal('SIGTERM'));
  process.once('SIGINT', () => onSignal('SIGINT'));
}

/** Graceful stop, then exit with `code` (1 when the stop itself failed). */
export function drainAndExit(running: RunningServer, code: number): void {
  void running.stop().then(
    () => process.exit(code),
    (error) => {
      running.runtime.logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    },
  );
}
