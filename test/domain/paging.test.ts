// Cursor paging over a key-sorted list: pages tile the list in order whatever the page size, cursors are opaque
// and checked, and a cursor whose item is gone still continues after its key.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyOfCursor, MAX_PAGE_SIZE, pageByKey, toCursor } from '../../src/domain/paging.ts';
import { expectAppError } from './expect-app-error.ts';

const keyOf = (k: string) => k;
const KEYS = ['acme-shop', 'northwind-journal', 'tiny-saas'];

describe('pageByKey', () => {
  it('pages tile the list in order, with the total count on every page', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/), { maxLength: 40 }), fc.integer({ min: 1, max: MAX_PAGE_SIZE }), (raw, first) => {
        const keys = [...raw].sort();
        const seen: string[] = [];
        let after: string | undefined;
        for (;;) {
          const page = pageByKey(keys, keyOf, { first, after });
          expect(page.totalCount).toBe(keys.length);
          expect(page.hasPreviousPage).toBe(after !== undefined && keys.length > 0 && seen.length > 0);
          seen.push(...page.items);
          if (!page.hasNextPage) break;
          after = page.cursorOf(page.items.at(-1)!);
        }
        expect(seen).toEqual(keys);
      }),
    );
  });

  it('without first, every item after the cursor', () => {
    expect(pageByKey(KEYS, keyOf, {}).items).toEqual(KEYS);
    expect(pageByKey(KEYS, keyOf, { after: toCursor('acme-shop') }).items).toEqual(['northwind-journal', 'tiny-saas']);
  });

  it('continues after a cursor whose item is gone', () => {
    expect(pageByKey(KEYS, keyOf, { after: toCursor('b-deleted') }).items).toEqual(['northwind-journal', 'tiny-saas']);
    expect(pageByKey(KEYS, keyOf, { after: toCursor('zzz') })).toMatchObject({ items: [], hasNextPage: false, hasPreviousPage: true });
  });

  it.each([0, -1, 101, 1.5])('refuses first %s, naming the parameter', (first) => {
    expectAppError(() => pageByKey(KEYS, keyOf, { first }), { code: 'invalid_parameter', param: 'first' });
  });

  it.each(['nonsense', 'a2V5', `${toCursor('x')}=`])('refuses a cursor it did not give (%s)', (cursor) => {
    expectAppError(() => keyOfCursor(cursor), { code: 'invalid_parameter', param: 'after' });
  });
});
