// A browser form that fails is answered with a page, not problem JSON a person would see raw: what happened, and
// that nothing was changed. The API's paths keep their problem JSON whoever calls them.
import { ERROR_TITLES, type AppError } from '../errors/app-error.ts';
import { newNonce } from './html.ts';
import { errorPage } from './sign-in-page.ts';

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];

/** A form a browser posted to a page (it asks for HTML), as opposed to a call of the API. */
export function isBrowserFormPost(request: Request, pathname: string): boolean {
  if (request.method !== 'POST' || pathname.startsWith('/api/')) return false;
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  return FORM_TYPES.includes(type) && (request.headers.get('accept') ?? '').includes('text/html');
}

export function formProblemPage(error: AppError, requestId: string, secure: boolean): Response {
  // Past the cap the form was refused before anything ran.
  const advice = error.code === 'payload_too_large' ? ' Nothing was saved. Go back, shorten what you entered and send the form again.' : '';
  return errorPage({
    title: ERROR_TITLES[error.code],
    message: `${error.message}${advice} (Request id: ${requestId}.)`,
    status: error.status,
    nonce: newNonce(),
    secure,
    headers: { ...error.headers, 'x-request-id': requestId },
  });
}
