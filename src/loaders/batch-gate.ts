// When a property's batchRunReports may leave: after a short window, and once this execution has nothing under way
// that will add reports of that property. Two kinds of work count:
// - a property's field list being read (a breakdown asks for its report once it knows the names are valid) —
//   an upstream call of its own that never waits on a batch, so the batch waits for it;
// - cache lookups not yet answered (a Redis round trip each) — each counts for a short while only, because a
//   lookup can join another request's in-flight load that itself waits on a batch, and two such requests must not
//   wait on each other.

/** Misses that arrive within this window after each other share one call. */
export const MISS_BATCH_WINDOW_MS = 2;
/** How long a cache lookup under way holds its property's batch back. */
export const LOOKUP_WAIT_MS = 50;
/** Upper bound for waiting on field lists (a stuck upstream call is the client's timeout to handle). */
export const LISTING_WAIT_MS = 10_000;

interface SourceWork {
  lookups: number;
  listings: number;
  waiters: Set<Waiter>;
}

interface Waiter {
  fire(): void;
}

export interface BatchGate {
  /** A cache lookup started; returns its end (idempotent): the answer arrived or the load was handed to a batch. */
  startLookup(sourceId: string): () => void;
  /** A field list read started; returns its end (idempotent). */
  startListing(sourceId: string): () => void;
  /** Runs `run` when the source's batch may leave. */
  whenReady(sourceId: string, run: () => void): void;
}

/**
 * A timer whose callback runs after the I/O that arrived meanwhile has been handled: when the event loop was busy
 * (a large answer being parsed), the timer is due in the same turn as the cache answers it waits for, and timers
 * run first in a turn; `setImmediate` runs after that turn's I/O.
 */
function afterIo(callback: () => void, ms: number): ReturnType<typeof setTimeout> {
  return setTimeout(() => setImmediate(callback), ms);
}

export function createBatchGate(): BatchGate {
  const work = new Map<string, SourceWork>();
  const of = (sourceId: string) => {
    let entry = work.get(sourceId);
    if (!entry) work.set(sourceId, (entry = { lookups: 0, listings: 0, waiters: new Set() }));
    return entry;
  };
  const ready = (entry: SourceWork) => entry.listings === 0 && entry.lookups === 0;
  const wake = (entry: SourceWork) => {
    if (ready(entry)) for (const waiter of entry.waiters) waiter.fire();
  };
  const start = (sourceId: string, kind: 'lookups' | 'listings') => {
    const entry = of(sourceId);
    entry[kind]++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      entry[kind]--;
      // Follow-up work (the report a field list unlocks) starts within the same turn; the window lets it join.
      setTimeout(() => wake(entry), MISS_BATCH_WINDOW_MS);
    };
  };
  return {
    startLookup(sourceId) {
      const end = start(sourceId, 'lookups');
      afterIo(end, LOOKUP_WAIT_MS);
      return end;
    },
    startListing: (sourceId) => start(sourceId, 'listings'),
    whenReady(sourceId, run) {
      const entry = of(sourceId);
      const timers: ReturnType<typeof setTimeout>[] = [];
      let fired = false;
      const waiter: Waiter = {
        fire() {
          if (fired) return;
          fired = true;
          entry.waiters.delete(waiter);
          for (const timer of timers) clearTimeout(timer);
          run();
        },
      };
      timers.push(
        afterIo(() => (ready(entry) ? waiter.fire() : entry.waiters.add(waiter)), MISS_BATCH_WINDOW_MS),
        setTimeout(() => waiter.fire(), LISTING_WAIT_MS),
      );
    },
  };
}
