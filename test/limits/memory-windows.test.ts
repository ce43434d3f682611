import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryWindows } from '../../src/limits/memory-windows.ts';

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-11-22T10:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('fixed windows counted in memory', () => {
  it('starts a window with the first point, counts down to its end, and starts afresh after it', () => {
    const windows = createMemoryWindows(60);
    expect(windows.peek('k')).toBeUndefined();
    expect(windows.add('k', 1)).toEqual({ consumed: 1, msBeforeNext: 60_000 });
    vi.advanceTimersByTime(15_000);
    expect(windows.add('k', 1)).toEqual({ consumed: 2, msBeforeNext: 45_000 });
    expect(windows.peek('k')).toEqual({ consumed: 2, msBeforeNext: 45_000 });
    vi.advanceTimersByTime(45_000);
    expect(windows.peek('k')).toBeUndefined();
    expect(windows.add('k', 1)).toEqual({ consumed: 1, msBeforeNext: 60_000 });
  });

  it('counts points past any quota and takes points back', () => {
    const windows = createMemoryWindows(1);
    for (let i = 0; i < 5; i++) windows.add('k', 1);
    expect(windows.add('k', -1)).toEqual({ consumed: 4, msBeforeNext: 1_000 });
    expect(windows.add('other', 1).consumed).toBe(1);
  });

  it('forgets the counters of ended windows, so memory follows the keys seen lately', () => {
    const windows = createMemoryWindows(1);
    for (let i = 0; i < 1_000; i++) windows.add(`ip-${i}`, 1);
    expect(windows.size()).toBe(1_000);
    vi.advanceTimersByTime(1_000);
    windows.add('late', 1);
    expect(windows.size()).toBe(1);
  });
});
