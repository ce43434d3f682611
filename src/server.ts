// Serves a runtime's app on HOST:PORT and drains it on SIGTERM/SIGINT: stop accepting, finish in-flight
// requests (up to SHUTDOWN_GRACE_MS), then close the store, cache connections and sandbox.
import { serve } from 'h3';
import type { Settings } from './config/settings.ts';
import { createRuntime, type Runtime } from './runtime.ts';

export interface RunningServer {
  runtime: Runtime;
  url: string;
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
  const url = server.url ?? `http://${settings.HOST}:${settings.PORT}/`;
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      runtime.logger.info('shutting down: draining in-flight requests');
      const forced = setTimeout(() => void server.close(true), settings.SHUTDOWN_GRACE_MS);
      await server.close();
      clearTimeout(forced);
      await runtime.close();
    })());
  return { runtime, url, stop };
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
