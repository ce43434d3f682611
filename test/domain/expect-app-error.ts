// Test helpers: assert that a call throws an AppError with the given code, status and param (quoting the input),
// or capture whatever a call throws. A regex on the message alone would also pass on a thrown `undefined` or on
// the wrong error with a similar text.

import { expect } from 'vitest';
import { AppError, type ErrorCode } from '../../src/errors/app-error.ts';

export interface ExpectedAppError {
  readonly code: ErrorCode;
  /** Default 400. */
  readonly status?: number;
  readonly param?: string;
  /** Text the message must contain, e.g. the offending input. */
  readonly includes?: readonly string[];
  readonly provider?: string;
}

/** What `fn` throws; fails the test when it returns normally. */
export function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  expect.fail('expected the call to throw');
}

/** What `promise` rejects with; fails the test when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  const settled = await promise.then(
    () => ({ rejected: false as const }),
    (error: unknown) => ({ rejected: true as const, error }),
  );
  if (!settled.rejected) expect.fail('expected the promise to reject');
  return settled.error;
}

export function expectAppError(fn: () => unknown, expected: ExpectedAppError): AppError {
  return checkAppError(thrownBy(fn), expected);
}

export async function expectAppErrorRejection(promise: Promise<unknown>, expected: ExpectedAppError): Promise<AppError> {
  return checkAppError(await rejectionOf(promise), expected);
}

function checkAppError(caught: unknown, expected: ExpectedAppError): AppError {
  expect(caught, 'expected an AppError to be thrown').toBeInstanceOf(AppError);
  const error = caught as AppError;
  expect(error.code).toBe(expected.code);
  expect(error.status).toBe(expected.status ?? 400);
  if (expected.param !== undefined) expect(error.param).toBe(expected.param);
  if (expected.provider !== undefined) expect(error.provider).toBe(expected.provider);
  for (const text of expected.includes ?? []) expect(error.message).toContain(text);
  return error;
}
