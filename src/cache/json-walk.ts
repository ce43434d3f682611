// Walks of a cached value (plain JSON data: objects, arrays, strings, numbers, booleans, null), in slices of the
// event loop. A page of 25,000 search rows is about 3 MB of JSON and 50,000 objects: measuring it with
// JSON.stringify and freezing it in one go held the loop for tens of milliseconds per store, for every request.
import { createTimeSlice, type TimeSlice } from '../limits/event-loop-slice.ts';

/** Values between two looks at the clock. */
const BLOCK = 1024;

/** Visits every object and array below `value` (itself included), depth first, giving the loop back when due. */
async function eachObject(value: unknown, visit: (object: object) => void, slice: TimeSlice): Promise<void> {
  const stack: unknown[] = [value];
  let seen = 0;
  while (stack.length > 0) {
    const next = stack.pop();
    if (next === null || typeof next !== 'object') continue;
    visit(next);
    for (const child of Object.values(next)) if (child !== null && typeof child === 'object') stack.push(child);
    if (++seen % BLOCK === 0) await slice.pause();
  }
}

/**
 * The bytes of `JSON.stringify(value)`, counted without making the string (escapes in strings aside: a quote or a
 * control character counts one byte, not two or six).
 */
export async function jsonBytes(value: unknown, slice: TimeSlice = createTimeSlice()): Promise<number> {
  if (value === undefined) return 0;
  let bytes = scalarBytes(value);
  await eachObject(
    value,
    (object) => {
      bytes += 2; // [] or {}
      if (Array.isArray(object)) {
        bytes += Math.max(0, object.length - 1); // commas
        for (const item of object) bytes += item === undefined || typeof item === 'function' ? 4 : scalarBytes(item);
        return;
      }
      let members = 0;
      for (const [name, item] of Object.entries(object)) {
        if (item === undefined || typeof item === 'function') continue;
        members++;
        bytes += Buffer.byteLength(name) + 3 + scalarBytes(item); // "name":
      }
      bytes += Math.max(0, members - 1);
    },
    slice,
  );
  return bytes;
}

/** A scalar's own bytes; 0 for an object or array (their parts are counted when they are visited). */
function scalarBytes(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return Buffer.byteLength(value) + 2;
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4;
    case 'boolean':
      return value ? 4 : 5;
    case 'object':
      return value === null ? 4 : 0;
    default:
      return 0;
  }
}

/** Freezes `value` and everything below it, even below an object frozen only at the top; returns it. */
export async function deepFreeze<T>(value: T, slice: TimeSlice = createTimeSlice()): Promise<T> {
  await eachObject(value, (object) => void Object.freeze(object), slice);
  return value;
}
