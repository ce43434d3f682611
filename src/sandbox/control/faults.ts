// Runs the fault switches for one request: seeded decisions (latency, 429 bursts, 5xx, hangs, malformed
// bodies) in a fixed order, so the same seed and request sequence always fails the same way.
import { unit, hashString } from '../data/hash.ts';
import { applyPatch, defaultFaults, type FaultPatch, type FaultSettings, type Provider } from './fault-settings.ts';

export type FaultDecision =
  | { kind: 'none'; malformed: boolean }
  | { kind: 'throttle' }
  | { kind: 'error' }
  | { kind: 'hang' };

export interface FaultController {
  settings(): FaultSettings;
  set(patch: FaultPatch): void;
  clear(): void;
  /** Waits the configured latency (abortable), then decides what this request suffers (`target`: its property or site). */
  decide(provider: Provider, signal: AbortSignal, target?: string): Promise<FaultDecision>;
}

export function createFaultController(initial: FaultPatch = {}): FaultController {
  let base = applyPatch(defaultFaults(), initial);
  let current = structuredClone(base);
  let counter = 0;
  const draw = (provider: Provider) => unit(current.seed, hashString(provider), counter++);
  return {
    settings: () => structuredClone(current),
    set(patch) {
      current = applyPatch(current, patch);
      counter = 0;
    },
    clear() {
      base = defaultFaults();
      current = structuredClone(base);
      counter = 0;
    },
    async decide(provider, signal, target) {
      const f = current[provider];
      const t = target === undefined ? undefined : current.targets[target];
      const delay = f.latencyMs + (f.jitterMs > 0 ? draw(provider) * f.jitterMs : 0);
      if (delay > 0) await sleep(delay, signal);
      if (f.hang) return { kind: 'hang' };
      for (const bucket of [t, f]) {
        if (bucket?.burst429 !== undefined && bucket.burst429 > 0) {
          bucket.burst429 -= 1;
          return { kind: 'throttle' };
        }
      }
      const errorRate = t?.errorRate ?? f.errorRate;
      if (errorRate > 0 && draw(provider) < errorRate) return { kind: 'error' };
      return { kind: 'none', malformed: f.malformedRate > 0 && draw(provider) < f.malformedRate };
    },
  };
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Never settles until the request is aborted (then rejects with the abort reason). */
export function hangUntilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
