// How long one request's computation may hold the event loop. Every request of a process shares one thread: a
// report that works through 50,000 search rows in one go makes every other request wait for it (a warm projects
// list once waited 76 s behind one insight). Work over large inputs goes in slices instead: after SLICE_MS of work
// the loop is given back (setImmediate: pending I/O and timers run first), then the work goes on where it stopped.
import { channel } from 'node:diagnostics_channel';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Work between two turns of the event loop, at most (give or take one block of items). */
export const SLICE_MS = 10;
/** Items processed between two looks at the clock (a look costs about as much as a cheap item). */
const BLOCK = 256;

/**
 * Published each time a slice gives the loop back, with how long it held it (`{ heldMs }`): what a test or a
 * profiler can watch to see that long work really lets others in. Costs nothing without subscribers.
 */
export const sliceYields = channel('siteline:event-loop-slice');

/**
 * A running slice of work: `due()` says whether it has held the loop for its budget; `next()` gives the loop back
 * and starts a new slice. `pause()` does both: `await slice.pause()` at every point where the work may stop.
 */
export interface TimeSlice {
  due(): boolean;
  next(): Promise<void>;
  pause(): Promise<void> | undefined;
}

export function createTimeSlice(budgetMs = SLICE_MS): TimeSlice {
  let started = performance.now();
  const slice: TimeSlice = {
    due: () => performance.now() - started >= budgetMs,
    async next() {
      if (sliceYields.hasSubscribers) sliceYields.publish({ heldMs: performance.now() - started });
      await nextTurn();
      started = performance.now();
    },
    pause: () => (slice.due() ? slice.next() : undefined),
  };
  return slice;
}

/** Gives the loop back once (pending I/O and timers run first): between two large pieces of work that each fit a slice. */
export function giveBack(): Promise<void> {
  return nextTurn();
}

/** `each` over every item in order, giving the loop back whenever the slice is due. */
export async function forEachSliced<T>(items: readonly T[], each: (item: T, index: number) => void, slice: TimeSlice = createTimeSlice()): Promise<void> {
  for (let from = 0; from < items.length; from += BLOCK) {
    const to = Math.min(items.length, from + BLOCK);
    for (let i = from; i < to; i++) each(items[i]!, i);
    if (to < items.length) await slice.pause();
  }
}

/** `map` over every item, sliced as `forEachSliced`. */
export async function mapSliced<T, U>(items: readonly T[], map: (item: T, index: number) => U, slice: TimeSlice = createTimeSlice()): Promise<U[]> {
  const out: U[] = [];
  await forEachSliced(items, (item, i) => void out.push(map(item, i)), slice);
  return out;
}
