// Runs a form's action; an expected refusal (a role that does not allow it, a value the action rejects, something
// no longer there) is answered by `refused` — usually the form's page again, with the reason — and anything else
// propagates as a failure.
import { isAppError, type AppError } from '../errors/app-error.ts';

export async function attempt(action: () => Promise<Response>, refused: (error: AppError) => Response | Promise<Response>): Promise<Response> {
  try {
    return await action();
  } catch (error) {
    if (isAppError(error) && error.status < 500) return refused(error);
    throw error;
  }
}
