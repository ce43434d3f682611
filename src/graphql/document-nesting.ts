// How deeply a GraphQL document may nest before it is parsed. graphql-js parses recursively, and a document of a few
// KiB — a list literal two thousand levels deep — overflows the stack in the parser; no depth or cost rule runs
// before that. Braces, brackets and parentheses are counted together (strings and comments skipped), so this also
// bounds literals in arguments; a real query stays far below (selection sets stop at depth 12).
import type { Plugin } from '@envelop/core';
import { GraphQLError } from 'graphql';
import { MAX_JSON_DEPTH } from '../http/json-nesting.ts';

export const MAX_DOCUMENT_NESTING = MAX_JSON_DEPTH;

const OPENERS = new Set(['{', '[', '(']);
const CLOSERS = new Set(['}', ']', ')']);

/** Whether GraphQL source text nests deeper than `max`: one pass, skipping strings, block strings and comments. */
export function documentTooDeep(source: string, max: number = MAX_DOCUMENT_NESTING): boolean {
  let depth = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '#') {
      const end = source.indexOf('\n', i);
      i = end === -1 ? source.length : end;
    } else if (c === '"') {
      i = source.startsWith('"""', i) ? endOfBlockString(source, i + 3) : endOfString(source, i + 1);
    } else if (OPENERS.has(c)) {
      if (++depth > max) return true;
    } else if (CLOSERS.has(c)) depth--;
  }
  return false;
}

/** Index of the closing quote of a string whose content starts at `from`. */
function endOfString(source: string, from: number): number {
  for (let i = from; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === '"' || source[i] === '\n') return i;
  }
  return source.length;
}

/** Index of the last quote of a block string whose content starts at `from` (`\"""` does not end it). */
function endOfBlockString(source: string, from: number): number {
  for (let i = from; i < source.length; i++) {
    if (source.startsWith('\\"""', i)) i += 3;
    else if (source.startsWith('"""', i)) return i + 2;
  }
  return source.length;
}

/** Refuses a document nested past the limit before graphql-js parses it: a 400 with a code, never a stack overflow. */
export function documentNestingPlugin(max: number = MAX_DOCUMENT_NESTING): Plugin {
  return {
    onParse({ params }) {
      const source = typeof params.source === 'string' ? params.source : params.source.body;
      if (documentTooDeep(source, max)) {
        throw new GraphQLError(`The GraphQL document nests braces, brackets and parentheses more than ${max} levels deep; flatten it.`, {
          extensions: { code: 'invalid_parameter', status: 400, param: 'query', http: { status: 400 } },
        });
      }
    },
  };
}
