// /account/sign-in and /account/sign-out. Failed attempts are limited per IP and per account at that IP; the forms carry
// CSRF tokens and cross-site posts are refused; a successful sign-in sets the session cookie and goes back to
// where the user came from (a same-site path only).
import type { H3 } from 'h3';
import { DEPENDENCY_RETRY_AFTER_SECONDS, isDependencyUnavailable } from '../errors/app-error.ts';
import { clientIpOf } from '../http/client-ip.ts';
import { readFormBody } from '../http/read-body.ts';
import { verifyAccountPassword, normalizeEmail } from '../store/accounts-repository.ts';
import { newNonce, pageResponse, redirectResponse } from './html.ts';
import { errorPage, signInBody, signOutBody, type SignInView } from './sign-in-page.ts';
import { safeReturnTo, signInLimitKeys, type WebDeps } from './web-deps.ts';

export function mountSignInRoutes(app: H3, deps: WebDeps): void {
  const { sessions } = deps;
  const secure = sessions.secure;

  function signInPage(request: Request, view: Omit<SignInView, 'csrf'>, status = 200, headers: Record<string, string> = {}): Response {
    const { token, setCookie } = sessions.signInToken(request);
    return pageResponse({
      title: 'Sign in',
      nonce: newNonce(),
      secure,
      status,
      headers: { ...headers, ...(setCookie ? { 'set-cookie': setCookie } : {}) },
      body: signInBody({ ...view, csrf: token }),
    });
  }
  const forApp = (returnTo: string) => returnTo.startsWith('/oauth/authorize');

  app.get('/account/sign-in', async (event) => {
    const url = new URL(event.req.url);
    const returnTo = safeReturnTo(url.searchParams.get('return_to'));
    if (await sessions.read(event.req)) return redirectResponse(returnTo, {}, 302);
    const notice = url.searchParams.has('signed_out') ? 'You are signed out.' : undefined;
    return signInPage(event.req, { returnTo, forApp: forApp(returnTo), notice });
  });

  app.post('/account/sign-in', async (event) => {
    const request = event.req;
    const form = await readFormBody(request);
    const returnTo = safeReturnTo(form?.get('return_to'));
    const email = (form?.get('email') ?? '').trim().slice(0, 254);
    if (!form || !sessions.sameOrigin(request) || !sessions.checkSignInToken(request, form.get('csrf'))) {
      return signInPage(request, { returnTo, email, forApp: forApp(returnTo), error: 'The sign-in form expired or came from another site. Please try again.' }, 403);
    }
    const ip = clientIpOf(event);
    const keys = signInLimitKeys(ip, normalizeEmail(email));
    // Count first, check after: parallel attempts each take a point before scrypt runs, so no burst of guesses
    // gets past the limit; a successful sign-in gives its points back.
    const states = await Promise.all(keys.map(([policy, key]) => deps.limits.consumePolicy(policy, key)));
    const blocked = states.find((state) => !state.allowed);
    if (blocked) {
      const minutes = Math.max(1, Math.ceil(blocked.resetMs / 60_000));
      return signInPage(request, { returnTo, email, forApp: forApp(returnTo), error: `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.` }, 429, {
        'retry-after': String(Math.ceil(blocked.resetMs / 1000)),
      });
    }
    const account = email && (await verifyAccountPassword(deps.db, email, form.get('password') ?? ''));
    if (!account) return signInPage(request, { returnTo, email, forApp: forApp(returnTo), error: 'The email or password is not correct.' }, 400);
    await Promise.all(keys.map(([policy, key]) => deps.limits.refundPolicy(policy, key)));
    const cookie = await sessions.start(account.id).catch((error: unknown) => {
      if (isDependencyUnavailable(error)) return undefined;
      throw error;
    });
    if (cookie === undefined) {
      // The database cannot save the session (down, or its disk full): say so on the page, never a 500.
      const error = 'Signing in is not possible right now because the server cannot save your session. Please try again in a minute.';
      return signInPage(request, { returnTo, email, forApp: forApp(returnTo), error }, 503, { 'retry-after': String(DEPENDENCY_RETRY_AFTER_SECONDS) });
    }
    return redirectResponse(returnTo, { 'set-cookie': cookie });
  });

  app.get('/account/sign-out', async (event) => {
    const session = await sessions.read(event.req);
    if (!session) return redirectResponse('/account/sign-in', {}, 302);
    return pageResponse({ title: 'Sign out', nonce: newNonce(), secure, body: signOutBody(session.csrf, session.account.email) });
  });

  app.post('/account/sign-out', async (event) => {
    const request = event.req;
    const session = await sessions.read(request);
    const form = await readFormBody(request);
    if (session && (!form || !sessions.sameOrigin(request) || !sessions.checkCsrf(session, form.get('csrf')))) {
      return errorPage({ title: 'Request refused', message: 'The form expired or came from another site. Go back and try again.', status: 403, nonce: newNonce(), secure });
    }
    return redirectResponse('/account/sign-in?signed_out=1', { 'set-cookie': await sessions.end(request) });
  });
}
