// Which seeds plan the cases. The tuning split is what insight work may be tuned and debugged on; the held-out
// split is only ever run to report a figure, never read case by case while changing the insight code, so the
// figure says how the insights do on cases nobody fitted them to. Both use the same families and mixes.
export const SPLITS = {
  tuning: [13, 7],
  'held-out': [211, 307],
} as const satisfies Record<string, readonly number[]>;

export type SplitName = keyof typeof SPLITS;

export function isSplit(name: string): name is SplitName {
  return Object.hasOwn(SPLITS, name);
}
