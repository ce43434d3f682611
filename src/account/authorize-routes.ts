// /oauth/authorize, the browser-facing step of the code flow: check the request (error page without redirect
// for a bad client or redirect URI), send a signed-out user to sign in and back, show the consent screen, and
// on approval redirect to the client with a single-use code, `state` and `iss`.
import type { H3 } from 'h3';
import { AUTHORIZATION_PARAMS, type AuthorizationRequest } from '../auth/oauth/authorization-request.ts';
import { formActionSourceOf } from '../auth/oauth/redirect-uris.ts';
import { readFormBody } from '../http/read-body.ts';
import { listProjectsForAccount } from '../store/projects-repository.ts';
import { consentBody } from './consent-page.ts';
import { newNonce, pageResponse, redirectResponse } from './html.ts';
import type { Session } from './sessions.ts';
import { errorPage } from './sign-in-page.ts';
import type { WebDeps } from './web-deps.ts';

export function mountAuthorizeRoutes(app: H3, deps: WebDeps): void {
  const { sessions, oauth } = deps;
  const secure = sessions.secure;

  const refused = (message: string, status = 400) =>
    errorPage({ title: 'This connection cannot continue', message, status, nonce: newNonce(), secure });

  async function consent(session: Session, request: AuthorizationRequest, params: URLSearchParams, extra: { error?: string; selected?: Set<string> } = {}) {
    const projects = await listProjectsForAccount(deps.db, session.account.id);
    return pageResponse({
      title: `Allow ${request.client.name}?`,
      nonce: newNonce(),
      secure,
      status: extra.error ? 400 : 200,
      formActions: [formActionSourceOf(request.redirectUri)],
      body: consentBody({ request, params, email: session.account.email, csrf: session.csrf, projects, ...extra }),
    });
  }

  app.get('/oauth/authorize', async (event) => {
    const url = new URL(event.req.url);
    const check = await oauth.checkAuthorizationRequest(url.searchParams);
    if (!check.ok) return check.kind === 'page' ? refused(check.message) : redirectResponse(check.location, {}, 302);
    const session = await sessions.read(event.req);
    if (!session) return redirectResponse(`/account/sign-in?return_to=${encodeURIComponent(url.pathname + url.search)}`, {}, 302);
    return consent(session, check.request, url.searchParams);
  });

  app.post('/oauth/authorize', async (event) => {
    const form = await readFormBody(event.req);
    if (!form) return refused('The form could not be read.');
    const params = new URLSearchParams();
    for (const name of AUTHORIZATION_PARAMS) for (const value of form.getAll(name)) params.append(name, value);
    const session = await sessions.read(event.req);
    if (!session) return redirectResponse(`/account/sign-in?return_to=${encodeURIComponent(`/oauth/authorize?${params}`)}`);
    if (!sessions.sameOrigin(event.req) || !sessions.checkCsrf(session, form.get('csrf'))) {
      return refused('The form expired or came from another site. Start the connection again from your app.', 403);
    }
    const check = await oauth.checkAuthorizationRequest(params);
    if (!check.ok) return check.kind === 'page' ? refused(check.message) : redirectResponse(check.location);
    const decision = form.get('decision');
    if (decision === 'deny') return redirectResponse(oauth.deny(check.request));
    if (decision !== 'approve') return consent(session, check.request, params, { error: 'Choose Allow access or Deny.' });

    const projects = await listProjectsForAccount(deps.db, session.account.id);
    const chosen = new Set(form.getAll('project').filter((key) => projects.some((p) => p.key === key)));
    if (projects.length > 0 && chosen.size === 0) {
      return consent(session, check.request, params, { error: 'Select at least one project, or deny the request.', selected: chosen });
    }
    const projectKeys = chosen.size === projects.length ? null : [...chosen].sort();
    return redirectResponse(await oauth.approve(check.request, session.account.id, projectKeys));
  });
}
