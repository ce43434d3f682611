// `expect(xs.every(p)).toBe(true)` passes on an empty array and names no culprit; this asserts that there is
// something to check and shows the first element that fails.
import { expect } from 'vitest';

export function expectEvery<T>(items: readonly T[], predicate: (item: T, index: number) => boolean): void {
  expect(items.length, 'expected a non-empty array').toBeGreaterThan(0);
  const failing = items.findIndex((item, index) => !predicate(item, index));
  expect(failing === -1 ? undefined : { index: failing, item: items[failing] }, 'first element failing the predicate').toBeUndefined();
}
