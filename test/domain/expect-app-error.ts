// Test helper: assert that a call throws an AppError with the given code and param, quoting the input.

import { expect } from 'vitest';
import { AppError, type ErrorCode } from '../../src/errors/app-error.ts';

export interface ExpectedAppError {
  readonly code: ErrorCode;
  readonly param?: string;
  /** Text the message must contain, e.g. the offending input. */
  readonly includes?: readonly string[];
  readonly provider?: string;
}

export function expectAppError(fn: () => unknown, expected: ExpectedAppError): AppError {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught, 'expected an AppError to be thrown').toBeInstanceOf(AppError);
  const error = caught as AppError;
  expect(error.code).toBe(expected.code);
  expect(error.status).toBe(400);
  if (expected.param !== undefined) expect(error.param).toBe(expected.param);
  if (expected.provider !== undefined) expect(error.provider).toBe(expected.provider);
  for (const text of expected.includes ?? []) expect(error.message).toContain(text);
  return error;
}
