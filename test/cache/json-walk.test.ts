// The walks the cache makes of a value in slices: its JSON byte count without making the JSON, and a deep freeze.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deepFreeze, jsonBytes } from '../../src/cache/json-walk.ts';

/** JSON values whose strings need no escapes (which jsonBytes counts as one byte each). */
const plainJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.string({ unit: fc.constantFrom(...'aZ09 -_./:é東ß€'.split('')) }),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.string({ unit: fc.constantFrom(...'abcé'.split('')), maxLength: 4 }), tie('value'), { maxKeys: 5 }),
  ),
})).value;

describe('jsonBytes', () => {
  it('is the byte length of the JSON text', async () => {
    await fc.assert(fc.asyncProperty(plainJson, async (value) => (await jsonBytes(value)) === Buffer.byteLength(JSON.stringify(value))), { numRuns: 300 });
  });

  it('leaves out undefined members and writes undefined items as null, as JSON.stringify does', async () => {
    const value = { a: undefined, b: [undefined, 1], c: 'x' };
    expect(await jsonBytes(value)).toBe(Buffer.byteLength(JSON.stringify(value)));
    expect(await jsonBytes(undefined)).toBe(0);
  });

  it('counts a page of 25,000 search rows as JSON.stringify does, giving the event loop back along the way', async () => {
    const rows = Array.from({ length: 25_000 }, (_, i) => ({ keys: { query: `query ${i}` }, clicks: i % 7, impressions: i, ctr: 0.25, position: 3.5 }));
    let turns = 0;
    const slice = { due: () => true, next: async () => void turns++, pause: () => (turns++, Promise.resolve()) };
    expect(await jsonBytes({ rows }, slice)).toBe(Buffer.byteLength(JSON.stringify({ rows })));
    expect(turns).toBeGreaterThan(10);
  });
});

describe('deepFreeze', () => {
  it('freezes everything below, even below an object frozen only at the top', async () => {
    const inner = { n: 1 };
    const value = Object.freeze({ rows: [{ keys: inner }] });
    await deepFreeze(value);
    expect(Object.isFrozen(value.rows)).toBe(true);
    expect(Object.isFrozen(value.rows[0])).toBe(true);
    expect(Object.isFrozen(inner)).toBe(true);
  });
});
