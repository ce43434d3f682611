// The GraphQL document nesting limit, checked before graphql-js parses (its parser recurses and overflows the stack
// on a few KiB of nested list literal): strings, block strings and comments do not count.
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { documentTooDeep, MAX_DOCUMENT_NESTING } from '../../src/graphql/document-nesting.ts';

const list = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('documentTooDeep', () => {
  it('counts braces, brackets and parentheses together', () => {
    expect(documentTooDeep('{ a(x: [1]) { b } }', 3)).toBe(false);
    expect(documentTooDeep('{ a(x: [{ y: 1 }]) { b } }', 3)).toBe(true);
    expect(documentTooDeep(`{ a(x: ${list(MAX_DOCUMENT_NESTING - 2)}) }`)).toBe(false);
    expect(documentTooDeep(`{ a(x: ${list(MAX_DOCUMENT_NESTING - 1)}) }`)).toBe(true);
  });

  it('skips strings, escaped quotes, block strings and comments', () => {
    const source = `# {{{{ [[[[
      { a(s: "\\"{{{{[[[", b: """ {{{{ \\""" [[[[ """) { c } }`;
    expect(() => parse(source)).not.toThrow();
    expect(documentTooDeep(source, 2)).toBe(false);
    expect(documentTooDeep(source, 1)).toBe(true);
  });

  it('answers for documents far deeper than the parser survives', () => {
    expect(documentTooDeep(`{ a(x: ${list(100_000)}) }`)).toBe(true);
  });
});
