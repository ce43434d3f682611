// What a tool call returns: the structured body plus a compact text copy (the SDK adds none), bounded so a
// model's context is not flooded; and errors as `isError` results a model can act on, unexpected ones masked.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { isAppError } from '../../errors/app-error.ts';
import { toAppError } from '../../http/responses.ts';
import type { Logger } from '../../logging/logger.ts';

/** Clients show about 150k characters of a tool result; the text copy stays well below. */
export const TEXT_LIMIT = 100_000;

type TextBlock = { type: 'text'; text: string };

export function toolResult(body: unknown): CallToolResult {
  const structured = body as Record<string, unknown>;
  return { content: boundedText(JSON.stringify(structured), structured), structuredContent: structured };
}

/** The same result from an answer already serialised (the micro-cache keeps text). */
export function toolResultFromText(text: string): CallToolResult {
  const structured = JSON.parse(text) as Record<string, unknown>;
  return { content: boundedText(text, structured), structuredContent: structured };
}

/**
 * The text copy, at most TEXT_LIMIT characters and always valid JSON: a result too long is cut at a row boundary
 * of its longest list (rows, points, events…), and a second block says what was left out and how to page.
 */
export function boundedText(text: string, body: Record<string, unknown>): TextBlock[] {
  if (text.length <= TEXT_LIMIT) return [{ type: 'text', text }];
  const key = longestListOf(body);
  if (key === undefined) {
    return [{ type: 'text', text: `[The result is ${text.length} characters, too long to show as text; structuredContent holds it whole. Narrow the request (a shorter period or a filter).]` }];
  }
  const rows = body[key] as unknown[];
  const shown = rowsThatFit(body, key, rows);
  const cut = JSON.stringify({ ...body, [key]: rows.slice(0, shown) });
  return [
    { type: 'text', text: cut },
    { type: 'text', text: truncationNote(body, key, shown, rows.length) },
  ];
}

function longestListOf(body: Record<string, unknown>): string | undefined {
  let best: string | undefined;
  for (const [key, value] of Object.entries(body)) {
    if (Array.isArray(value) && value.length > 0 && (best === undefined || value.length > (body[best] as unknown[]).length)) best = key;
  }
  return best;
}

/** How many leading rows fit: the envelope without rows, plus each row and its comma. */
function rowsThatFit(body: Record<string, unknown>, key: string, rows: unknown[]): number {
  let size = JSON.stringify({ ...body, [key]: [] }).length;
  for (let i = 0; i < rows.length; i++) {
    size += JSON.stringify(rows[i]).length + (i === 0 ? 0 : 1);
    if (size > TEXT_LIMIT) return i;
  }
  return rows.length;
}

function truncationNote(body: Record<string, unknown>, key: string, shown: number, total: number): string {
  const head = `[Truncated: the text above shows the first ${shown} of the ${total} ${key} in this result; structuredContent holds all of them.`;
  if (typeof body.offset === 'number' && typeof body.limit === 'number' && shown > 0) {
    return `${head} To read the rest as text, page with smaller requests: limit=${shown}, offset=${body.offset + shown} (then offset=${body.offset + 2 * shown}, …).]`;
  }
  return `${head} Narrow the request (a shorter period, a coarser interval or a filter) to see every row as text.]`;
}

/**
 * The REST problem's code and detail (`invalid_parameter: Unknown period 'x'…`, plus the parameter), so a model
 * gets the same message a REST caller would. Unexpected errors are logged and masked.
 */
export function toolError(error: unknown, requestId: string, logger: Logger): CallToolResult {
  const appError = toAppError(error);
  if (!isAppError(error) || appError.status >= 500) {
    logger.error({ err: appError.cause ?? appError, requestId }, 'mcp tool failed');
  }
  const param = appError.param === undefined ? '' : ` (parameter: ${appError.param})`;
  const reference = appError.code === 'internal_error' ? ` Request id: ${requestId}.` : '';
  return { content: [{ type: 'text', text: `${appError.code}: ${appError.message}${param}${reference}` }], isError: true };
}
