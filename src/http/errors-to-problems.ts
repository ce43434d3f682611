// Maps anything thrown inside the h3 app to the AppError that becomes the problem JSON; h3's own HTTPErrors
// (unreadable bodies and the like) keep their status under our codes, everything else is masked.
import { HTTPError } from 'h3';
import { AppError, type ErrorCode } from '../errors/app-error.ts';
import { toAppError } from './responses.ts';

const H3_STATUS_CODES: Record<number, ErrorCode> = {
  400: 'invalid_parameter',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

export function appErrorFromThrown(error: unknown): AppError {
  // h3's own client errors (e.g. a path with broken percent-encoding) keep their status whatever caused them.
  if (error instanceof HTTPError && !error.unhandled && !(error.cause instanceof AppError) && H3_STATUS_CODES[error.status]) {
    return fromH3(error);
  }
  const inner = error instanceof HTTPError && error.cause !== undefined ? error.cause : error;
  if (inner instanceof AppError) return inner;
  if (inner instanceof HTTPError && !inner.unhandled && H3_STATUS_CODES[inner.status]) return fromH3(inner);
  return toAppError(inner);
}

function fromH3(error: HTTPError): AppError {
  const code = H3_STATUS_CODES[error.status]!;
  if (code === 'not_found') return new AppError('not_found', 'No route matches this path. See /api/v1/docs for the endpoints.');
  if (code === 'invalid_parameter') return new AppError(code, 'The request URL or body could not be read (check its percent-encoding).');
  return new AppError(code, error.message);
}
