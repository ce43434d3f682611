// The separate metrics listener (METRICS_PORT): /metrics only, so it can stay private while the API is public.
import { serve } from 'h3';
import { createMetricsApp } from './mount-metrics.ts';
import type { Metrics } from './metrics.ts';

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

export async function startMetricsServer(metrics: Metrics, options: { port: number; hostname: string }): Promise<MetricsServer> {
  const server = serve(createMetricsApp(metrics), { port: options.port, hostname: options.hostname, silent: true, gracefulShutdown: false });
  await server.ready();
  return {
    url: server.url ?? `http://${options.hostname}:${options.port}/`,
    close: () => server.close(true),
  };
}
