// Response builders shared by every facade: JSON with the contract's default headers, and RFC 9457 problem JSON.
import { FastResponse } from 'srvx';
import { AppError, ERROR_TITLES, type ErrorCode } from '../errors/app-error.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';
export const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';

export function jsonResponse(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new FastResponse(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { 'content-type': JSON_TYPE, 'cache-control': 'private, no-store', ...init.headers },
  });
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  request_id: string;
  param?: string;
  errors?: { param: string; code: string; message: string }[];
  provider?: string;
  upstream?: unknown;
}

export function problemBody(error: AppError, requestId: string): ProblemBody {
  const body: ProblemBody = {
    type: `/api/v1/errors#${error.code}`,
    title: ERROR_TITLES[error.code],
    status: error.status,
    detail: error.message,
    code: error.code,
    request_id: requestId,
  };
  if (error.param !== undefined) body.param = error.param;
  if (error.errors?.length) body.errors = error.errors;
  if (error.provider !== undefined) body.provider = error.provider;
  if (error.upstream !== undefined) body.upstream = error.upstream;
  return body;
}

/** `extraHeaders` (the request's id and rate-limit fields) never override what the error itself says. */
export function problemResponse(error: AppError, requestId: string, extraHeaders: Record<string, string> = {}): Response {
  return new FastResponse(JSON.stringify(problemBody(error, requestId)), {
    status: error.status,
    headers: { ...extraHeaders, 'content-type': PROBLEM_TYPE, 'cache-control': 'no-store', ...error.headers },
  });
}

/** Any thrown value → an AppError; unexpected ones become a masked 500 (the cause is for the log only). */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  return new AppError('internal_error', 'An unexpected error occurred. It has been logged; quote the request id when reporting it.', { cause: error });
}
