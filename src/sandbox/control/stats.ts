// Upstream call counters per provider and method, for tests and benchmarks to prove caching and batching.
import type { Provider } from './fault-settings.ts';

export type SandboxStats = Record<Provider, Record<string, number>> & { total: number };

export interface StatsCounter {
  count(provider: Provider, method: string): void;
  snapshot(): SandboxStats;
  reset(): void;
}

export function createStatsCounter(): StatsCounter {
  let counts = new Map<Provider, Map<string, number>>();
  let total = 0;
  return {
    count(provider, method) {
      let m = counts.get(provider);
      if (!m) counts.set(provider, (m = new Map()));
      m.set(method, (m.get(method) ?? 0) + 1);
      total++;
    },
    snapshot() {
      const out = { analytics: {}, engine1: {}, engine2: {}, token: {}, total } as SandboxStats;
      for (const [p, m] of counts) out[p] = Object.fromEntries(m);
      return out;
    },
    reset() {
      counts = new Map();
      total = 0;
    },
  };
}
