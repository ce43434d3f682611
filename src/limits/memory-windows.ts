// Fixed windows counted in this process: the store of a limiter without Redis. It answers at once, so a request's
// rate-limit decision never waits for a promise; rate-limiter-flexible's in-memory limiter answers only through
// one and arms a timer per key and window. Same rules as the library's: a window starts with the first point
// spent in it, points spent past the quota still count, and a counter is gone once its window has ended.

/** A key's counter in its current window. */
export interface WindowCount {
  /** Points spent in the window, refused ones included. */
  consumed: number;
  /** Milliseconds until the window ends. */
  msBeforeNext: number;
}

export interface MemoryWindows {
  /** Adds `points` (negative gives points back) to the key's counter, starting a window when none is running. */
  add(key: string, points: number): WindowCount;
  /** The key's counter, or undefined when no window is running for it. */
  peek(key: string): WindowCount | undefined;
  /** Counters held, ended ones not yet swept included. */
  size(): number;
}

interface Counter {
  consumed: number;
  endsAt: number;
}

export function createMemoryWindows(windowSec: number): MemoryWindows {
  const windowMs = windowSec * 1000;
  const counters = new Map<string, Counter>();
  let sweepAt = 0;

  /** Drops the counters of ended windows, at most once per window length: memory follows the keys seen lately. */
  function sweep(now: number): void {
    if (now < sweepAt) return;
    sweepAt = now + windowMs;
    for (const [key, counter] of counters) if (counter.endsAt <= now) counters.delete(key);
  }

  function running(key: string, now: number): Counter | undefined {
    const counter = counters.get(key);
    return counter !== undefined && counter.endsAt > now ? counter : undefined;
  }

  return {
    add(key, points) {
      const now = Date.now();
      sweep(now);
      let counter = running(key, now);
      if (counter === undefined) counters.set(key, (counter = { consumed: 0, endsAt: now + windowMs }));
      counter.consumed += points;
      return { consumed: counter.consumed, msBeforeNext: counter.endsAt - now };
    },
    peek(key) {
      const now = Date.now();
      const counter = running(key, now);
      return counter === undefined ? undefined : { consumed: counter.consumed, msBeforeNext: counter.endsAt - now };
    },
    size: () => counters.size,
  };
}
