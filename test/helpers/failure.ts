// Test helper: the AppError a promise rejects with (anything else, or success, fails the test).
import { AppError } from '../../src/errors/app-error.ts';

export async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}
