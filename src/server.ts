// Serves a runtime's app on HOST:PORT and drains it on SIGTERM/SIGINT: stop accepting, finish in-flight
// requests (up to SHUTDOWN_GRACE_MS), then close the store, cache connections and sandbox.
import type { Server } from 'node:http';
import { serve } from 'h3';
import { answerClientErrors } from './http/client-error.ts';
import type { Settings } from './config/settings.ts';
import { createRuntime, type Runtime } from './runtime.ts';
import { startMetricsServer } from './observability/metrics-server.ts';

export interface RunningServer {
  runtime: Runtime;
  url: string;
  /** Base URL of the separate metrics listener, when METRICS_PORT is set. */
  metricsUrl?: string;
  stop(): Promise<void>;
}

export async function startServer(settings: Settings): Promise<RunningServer> {
  return serveRuntime(await createRuntime(settings), settings);
}

/** Serves an already built runtime (tests add routes to its app first: h3 freezes routes once serving). */
export async function serveRuntime(runtime: Runtime, settings: Settings): Promise<RunningServer> {
  const trustProxy = settings.TRUST_PROXY === 'true' ? true : settings.TRUST_PROXY === 'loopback' ? 'loopback' : false;
  const server = serve(runtime.app, { port: settings.PORT, hostname: settings.HOST, silent: true, gracefulShutdown: false, trustProxy });
  await server.ready();
  if (server.node?.server) answerClientErrors(server.node.server as Server, runtime.logger);
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
      const forced = setTimeout(() => void server.close(true), settings.SHUTDOWN_GRACE_MS);
      await server.close();
      clearTimeout(forced);
      await metricsServer?.close();
      await runtime.close();
    })());
  return { runtime, url, ...(metricsServer ? { metricsUrl: metricsServer.url } : {}), stop };
}

/** SIGTERM/SIGINT → graceful stop, then exit. */
export function stopOnSignals(running: RunningServer): void {
  const onSignal = (signal: string) => {
    running.runtime.logger.info({ signal }, 'signal received');
    void running.stop().then(
      () => process.exit(0),
      (error) => {
        running.runtime.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => onSignal('SIGTERM'));
  process.once('SIGINT', () => onSignal('SIGINT'));
}
