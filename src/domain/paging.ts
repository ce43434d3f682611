// Cursor paging over a list sorted by key (projects): `first` items after the `after` cursor, with the total count.
// A cursor is the last key seen, opaque to clients (base64url), so a page stays stable when items are added before it.
import { invalidParameter } from '../errors/app-error.ts';
import { quoteInput } from './quote.ts';

/** At most this many items per page. */
export const MAX_PAGE_SIZE = 100;

export interface PageRequest {
  /** Items per page (1–MAX_PAGE_SIZE); absent: every item after the cursor. */
  readonly first?: number | null;
  readonly after?: string | null;
}

export interface Page<T> {
  readonly items: readonly T[];
  /** Items before paging (after any selection). */
  readonly totalCount: number;
  readonly hasNextPage: boolean;
  readonly hasPreviousPage: boolean;
  cursorOf(item: T): string;
}

const CURSOR_PREFIX = 'key:';

export function toCursor(key: string): string {
  return Buffer.from(`${CURSOR_PREFIX}${key}`).toString('base64url');
}

/** The key a cursor names; a cursor this API did not give is a 400 naming `after`. */
export function keyOfCursor(cursor: string): string {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!text.startsWith(CURSOR_PREFIX) || toCursor(text.slice(CURSOR_PREFIX.length)) !== cursor) {
    throw invalidParameter('after', `Invalid cursor ${quoteInput(cursor)}: pass the endCursor (or an edge's cursor) of a previous page.`);
  }
  return text.slice(CURSOR_PREFIX.length);
}

/** The index after the cursor's item; when it is gone, the first item sorting after its key (or the end). */
function startAfter<T>(items: readonly T[], keyOf: (item: T) => string, key: string): number {
  const at = items.findIndex((item) => keyOf(item) === key);
  if (at !== -1) return at + 1;
  const next = items.findIndex((item) => keyOf(item) > key);
  return next === -1 ? items.length : next;
}

/** One page of `items` (in the store's key order). */
export function pageByKey<T>(items: readonly T[], keyOf: (item: T) => string, request: PageRequest): Page<T> {
  const { first, after } = request;
  if (first !== null && first !== undefined && (!Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE)) {
    throw invalidParameter('first', `Invalid first ${first}: expected an integer from 1 to ${MAX_PAGE_SIZE}.`);
  }
  const afterKey = after === null || after === undefined ? undefined : keyOfCursor(after);
  const from = afterKey === undefined ? 0 : startAfter(items, keyOf, afterKey);
  const to = first === null || first === undefined ? items.length : Math.min(items.length, from + first);
  return { items: items.slice(from, to), totalCount: items.length, hasNextPage: to < items.length, hasPreviousPage: from > 0, cursorOf: (item) => toCursor(keyOf(item)) };
}
