// Upstream latencies the benchmarks give the sandbox (ms): realistic for the three providers.
export const BENCH_LATENCY = { analytics: 150, engine1: 250, engine2: 400 } as const;
