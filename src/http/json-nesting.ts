// How deeply JSON may nest. JSON.parse copes with any depth, but the code after it does not: JSON.stringify and
// every recursive walk overflow the stack somewhere past a few thousand levels, and a 64 KiB body can nest 32,000
// deep. No legitimate request comes near the limit (a GA4 report with nested filter groups is about 10 levels).
import { AppError } from '../errors/app-error.ts';

/** Arrays and objects inside one another, counted from the top level of the JSON text or value. */
export const MAX_JSON_DEPTH = 64;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether JSON text nests deeper than `max`, found in one pass before anything is built (strings are skipped). */
export function jsonTextTooDeep(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return false;
}

/** Whether a parsed value (GraphQL variables or literals, tool arguments) nests deeper than `max`; no recursion. */
export function jsonValueTooDeep(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [next, depth] = pending.pop()!;
    if (typeof next !== 'object' || next === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(next) ? next : Object.values(next)) pending.push([child, depth + 1]);
  }
  return false;
}

export function tooDeeplyNested(max: number = MAX_JSON_DEPTH): AppError {
  return new AppError('invalid_json', `The JSON nests arrays and objects more than ${max} levels deep; flatten it.`);
}

/** JSON text → value: 400 `invalid_json` for malformed JSON or nesting past the limit, never a stack overflow. */
export function parseJsonText(text: string, max: number = MAX_JSON_DEPTH): unknown {
  if (jsonTextTooDeep(text, max)) throw tooDeeplyNested(max);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AppError('invalid_json', `The body is not valid JSON: ${(error as Error).message}`);
  }
}
