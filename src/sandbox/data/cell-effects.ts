// Planted effects over time: a cell spanning several days (a week, a whole range) carries each effect with its
// days' deltas summed and its factors averaged by the days' volume, so a shift from mid-period moves the period by
// the right amount.
import type { CellEffect } from './cube.ts';

export interface EffectMix {
  add(effects: readonly CellEffect[], weight: number): void;
  /** The mixed effects (undefined when no day carried any). */
  result(): CellEffect[] | undefined;
}

export function createEffectMix(): EffectMix {
  let totalWeight = 0;
  const mixed = new Map<string, { effect: CellEffect; weighted: number; weight: number; delta?: Record<string, number> }>();
  return {
    add(effects, weight) {
      totalWeight += weight;
      for (const effect of effects) {
        const key = JSON.stringify([effect.where, effect.keys ?? null, effect.delta ? Object.keys(effect.delta) : null]);
        const entry = mixed.get(key) ?? { effect, weighted: 0, weight: 0 };
        entry.weighted += weight * effect.factor;
        entry.weight += weight;
        if (effect.delta) {
          const sum = (entry.delta ??= {});
          for (const [k, v] of Object.entries(effect.delta)) sum[k] = (sum[k] ?? 0) + v;
        }
        mixed.set(key, entry);
      }
    },
    result() {
      if (mixed.size === 0) return undefined;
      // Days without the effect count with factor 1 (and add nothing).
      return [...mixed.values()].map(({ effect, weighted, weight, delta }) => ({
        ...effect,
        factor: totalWeight > 0 ? (weighted + (totalWeight - weight)) / totalWeight : effect.factor,
        ...(delta ? { delta } : {}),
      }));
    },
  };
}
