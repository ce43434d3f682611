// Test helper: the AppError a promise rejects with (anything else, or success, fails the test). Takes a value too:
// a function that answers at once when it can gives its success as a value, its failure as a rejection.
import { AppError } from '../../src/errors/app-error.ts';

export async function failure(attempt: unknown): Promise<AppError> {
  try {
    await attempt;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}
