// Quoting of caller input inside error messages: JSON-style (control characters escaped), bounded length.

const MAX_QUOTED = 200;

/** `"value"` as JSON would write it; inputs over 200 characters are cut with an ellipsis. */
export function quoteInput(value: string): string {
  return value.length <= MAX_QUOTED ? JSON.stringify(value) : `${JSON.stringify(value.slice(0, MAX_QUOTED))}…`;
}
