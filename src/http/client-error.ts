// Requests Node's HTTP parser refuses before any route runs (a head over the 16 KB limit, an unknown method, bytes
// that are not HTTP, a CONNECT) get the same problem JSON as every other error instead of Node's empty default answer.
import type { Socket } from 'node:net';
import { STATUS_CODES, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { AppError } from '../errors/app-error.ts';
import type { Logger } from '../logging/logger.ts';
import { problemBody, PROBLEM_TYPE } from './responses.ts';

interface ParserError extends Error {
  code?: string;
}

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
  return problemOnSocket(clientErrorProblem(error), requestId);
}

function problemOnSocket(problem: AppError, requestId: string): string {
  const body = JSON.stringify(problemBody(problem, requestId));
  const headers = Object.entries(problem.headers).map(([name, value]) => `${name}: ${value}`);
  return [
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? 'Error'}`,
    `content-type: ${PROBLEM_TYPE}`,
    `content-length: ${Buffer.byteLength(body)}`,
    'cache-control: no-store',
    `x-request-id: ${requestId}`,
    ...headers,
    'connection: close',
    '',
    body,
  ].join('\r\n');
}

/** CONNECT asks for a tunnel; Node hands such a request to the `connect` event and, unanswered, just drops it. */
const CONNECT_REFUSED = new AppError('method_not_allowed', 'CONNECT is not supported: this is an API, not a proxy.', { headers: { allow: 'GET, POST' } });

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
  server.on('connect', (_request: unknown, socket: Socket) => {
    socket.on('error', () => socket.destroy());
    socket.end(problemOnSocket(CONNECT_REFUSED, randomUUID()));
  });
}
