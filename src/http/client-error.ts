// Requests Node's HTTP parser refuses before any route runs (a head over the 16 KB limit, an unknown method, bytes
// that are not HTTP) get the same problem JSON as every other error instead of Node's empty default answer.
import type { Socket } from 'node:net';
import type { Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { AppError } from '../errors/app-error.ts';
import type { Logger } from '../logging/logger.ts';
import { problemBody, PROBLEM_TYPE } from './responses.ts';

interface ParserError extends Error {
  code?: string;
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/** The problem for a parser error, with the statuses Node itself would answer. */
export function clientErrorProblem(error: ParserError): AppError {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return new AppError('header_too_large', 'The request line and headers exceed 16 KB; send fewer or shorter headers.');
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new AppError('request_timeout', 'The request did not arrive completely in time.');
  }
  return new AppError('malformed_request', 'The request is not well-formed HTTP/1.1 (check the method, the request line and the header lines).');
}

/** The complete HTTP/1.1 response written straight to the socket: there is no request object to answer through. */
export function clientErrorResponse(error: ParserError, requestId: string = randomUUID()): string {
  const problem = clientErrorProblem(error);
  const body = JSON.stringify(problemBody(problem, requestId));
  return [
    `HTTP/1.1 ${problem.status} ${REASONS[problem.status]}`,
    `content-type: ${PROBLEM_TYPE}`,
    `content-length: ${Buffer.byteLength(body)}`,
    'cache-control: no-store',
    `x-request-id: ${requestId}`,
    'connection: close',
    '',
    body,
  ].join('\r\n');
}

export function answerClientErrors(server: Server, logger: Logger): void {
  server.on('clientError', (error: ParserError, socket: Socket) => {
    // A peer that hung up, or a socket already answered (Node may have written a response), has nobody to tell.
    if (error.code === 'ECONNRESET' || !socket.writable || (socket as Socket & { _httpMessage?: unknown })._httpMessage) {
      socket.destroy();
      return;
    }
    logger.debug({ code: error.code }, 'request refused by the HTTP parser');
    socket.end(clientErrorResponse(error));
  });
}
