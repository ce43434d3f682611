// What a tool call returns: the structured body plus a compact text copy (the SDK adds none), bounded so a
// model's context is not flooded; and errors as `isError` results a model can act on, unexpected ones masked.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { isAppError } from '../../errors/app-error.ts';
import { toAppError } from '../../http/responses.ts';
import type { Logger } from '../../logging/logger.ts';

/** Clients show about 150k characters of a tool result; the text copy stays well below. */
export const TEXT_LIMIT = 100_000;

export function toolResult(body: unknown, pagingHint?: string): CallToolResult {
  const structured = body as Record<string, unknown>;
  return { content: [{ type: 'text', text: boundedText(JSON.stringify(structured), pagingHint) }], structuredContent: structured };
}

/** The same result from an answer already serialised (the micro-cache keeps text). */
export function toolResultFromText(text: string, pagingHint?: string): CallToolResult {
  return { content: [{ type: 'text', text: boundedText(text, pagingHint) }], structuredContent: JSON.parse(text) as Record<string, unknown> };
}

export function boundedText(text: string, pagingHint = 'Narrow the request (a shorter period, a filter, or limit/offset).'): string {
  if (text.length <= TEXT_LIMIT) return text;
  return `${text.slice(0, TEXT_LIMIT)}\n[Truncated: ${TEXT_LIMIT} of ${text.length} characters shown; structuredContent holds the whole result. ${pagingHint}]`;
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
