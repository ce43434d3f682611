// Joining Siteline in the browser. /setup creates the owner with the one-time code from the server log, while no
// account exists and SIGNUP is not closed (then it is gone for good); /join redeems an invitation link (to the
// installation, or to a project: sign in to accept, or create the account); /signup is open sign-up (SIGNUP=open
// only). Sign-up and setup are counted per address and overall before any password is hashed. The forms use the
// pre-session CSRF token of the sign-in form; a new account is signed in at once.
import type { H3, H3Event } from 'h3';
import { h, redirectResponse } from '../account/html.ts';
import { isAppError } from '../errors/app-error.ts';
import { readFormBody } from '../http/read-body.ts';
import type { AccountRecord } from '../store/accounts-repository.ts';
import { countAccounts } from '../store/account-roles-repository.ts';
import { describeProjectInvite, findOpenInvite, type InviteRecord } from '../store/invites-repository.ts';
import { AlreadySetUp, joinByInvite, setUpOwner, signUp, type AccountInput } from '../writes/account-writes.ts';
import { newAccountBody, projectInviteBody, type NewAccountForm } from './account-pages.ts';
import type { DashboardDeps } from './dashboard-deps.ts';
import { refusedForm, writeDeps } from './guard.ts';
import { dashboardPage, problemPage } from './layout.ts';
import { spendSignupAttempt } from './signup-limits.ts';
import { mountTeamRoutes } from './team-routes.ts';

type View = Omit<NewAccountForm, 'csrf'>;

export function mountAccountRoutes(app: H3, deps: DashboardDeps): void {
  const { db, sessions, clock } = deps.web;
  const secure = sessions.secure;
  const writes = writeDeps(deps);

  function page(request: Request, title: string, body: (csrf: string) => ReturnType<typeof newAccountBody>, status = 200): Response {
    const { token, setCookie } = sessions.signInToken(request);
    return dashboardPage({ title, secure, status, headers: setCookie ? { 'set-cookie': setCookie } : {}, body: body(token) });
  }
  const form = (request: Request, view: View, status = 200) => page(request, view.heading, (csrf) => newAccountBody({ ...view, csrf }), status);

  /**
   * Reads the pre-session form (under its cap: past it the app answers its 413 page; refusing a cross-site one),
   * counts the attempt when `limited`, creates the account with `create` and signs it in; expected refusals re-render
   * the form with the reason. `read` is the form when the route read it already (the body is read once).
   */
  async function create(event: H3Event, view: View, create: (fields: URLSearchParams, input: AccountInput) => Promise<AccountRecord | Response>, limited: boolean, read?: URLSearchParams) {
    const request = event.req;
    const fields = read ?? (await readFormBody(request));
    if (!fields) return refusedForm(undefined, secure);
    if (!sessions.sameOrigin(request) || !sessions.checkSignInToken(request, fields.get('csrf'))) {
      return form(request, { ...view, error: 'The form expired or came from another site. Please try again.' }, 403);
    }
    const filled = { ...view, name: fields.get('name') ?? '', email: view.emailLocked ? view.email : (fields.get('email') ?? '') };
    if (limited) {
      const wait = await spendSignupAttempt(deps.web, event);
      if (wait !== undefined) {
        const minutes = Math.ceil(wait / 60);
        const tooMany = form(request, { ...filled, error: `Too many accounts were requested lately. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.` }, 429);
        tooMany.headers.set('retry-after', String(wait));
        return tooMany;
      }
    }
    try {
      const account = await create(fields, { name: filled.name, email: filled.email ?? '', password: fields.get('password') ?? '' });
      if (account instanceof Response) return account;
      return redirectResponse('/dashboard', { 'set-cookie': await sessions.start(account.id) });
    } catch (error) {
      if (isAppError(error) && error.status < 500) return form(request, { ...filled, error: takenEmail(error) ?? error.message }, 400);
      throw error;
    }
  }

  const SETUP: View = {
    action: '/setup',
    heading: 'Set up Siteline',
    intro: 'No account exists yet. Create the owner account: it can create projects, connect data and invite teammates. You need the setup code the server printed in its log when it started.',
    button: 'Create owner account',
    askCode: true,
  };
  const setupClosed = () =>
    problemPage({
      title: 'Setup is closed',
      message: 'This Siteline does not accept its owner from the browser (SIGNUP=closed).',
      next: h`On the server, create the owner with <code>siteline accounts create --owner --email you@example.com --name "Your name" --password-stdin</code>, then <a href="/account/sign-in">sign in</a>.`,
      status: 403,
      secure,
    });
  const alreadySetUp = () => problemPage({ title: 'Already set up', message: 'An owner account already exists.', next: h`<a href="/account/sign-in">Sign in</a>`, status: 409, secure });

  app.get('/setup', async (event) => {
    if (deps.signup === 'closed') return setupClosed();
    if ((await countAccounts(db)) > 0) return redirectResponse('/dashboard', {}, 302);
    return form(event.req, SETUP);
  });

  app.post('/setup', async (event) => {
    if (deps.signup === 'closed') return setupClosed();
    return create(
      event,
      SETUP,
      (fields, input) => setUpOwner(writes, { ...input, code: fields.get('code') ?? '' }).catch((error: unknown) => (error instanceof AlreadySetUp ? alreadySetUp() : Promise.reject(error))),
      true,
    );
  });

  const closedPage = () =>
    problemPage({ title: 'Sign-up is closed', message: 'This Siteline does not accept new accounts from the browser.', next: h`Ask its owner for an account, or <a href="/account/sign-in">sign in</a>.`, status: 403, secure });
  const deadInvite = () =>
    problemPage({ title: 'Invitation not valid', message: 'This invitation link was already used, withdrawn or has expired.', next: h`Ask the person who invited you for a new link, or <a href="/account/sign-in">sign in</a> if you already have an account.`, status: 410, secure });
  const joinView = (token: string, invite: InviteRecord): View => ({
    action: '/join',
    heading: 'Join Siteline',
    intro: `You were invited as ${invite.email}. Choose your name and a password.`,
    button: 'Create account',
    email: invite.email,
    emailLocked: true,
    token,
  });

  /** An invitation to a project: accept when signed in as its email; otherwise sign in, or create the account. */
  async function projectInvitePage(request: Request, token: string, invite: InviteRecord, error?: string, status = 200): Promise<Response> {
    const described = await describeProjectInvite(db, invite);
    if (!described) return deadInvite();
    const session = await sessions.read(request);
    if (session) {
      const matches = session.account.email.trim().toLowerCase() === invite.email.trim().toLowerCase();
      return dashboardPage({ title: 'Invitation', session, secure, status, body: projectInviteBody({ invite: described, token, signedIn: { email: session.account.email, csrf: session.csrf, matches } }) });
    }
    const createForm = deps.signup === 'closed' ? undefined : { ...joinView(token, invite), error };
    return page(request, 'Invitation', (csrf) => projectInviteBody({ invite: described, token, createForm: createForm && { ...createForm, csrf } }), status);
  }

  app.get('/join', async (event) => {
    const token = new URL(event.req.url).searchParams.get('token') ?? '';
    const invite = await findOpenInvite(db, token, clock());
    if (!invite) return deps.signup === 'closed' ? closedPage() : deadInvite();
    if (invite.projectId) return projectInvitePage(event.req, token, invite);
    return deps.signup === 'closed' ? closedPage() : form(event.req, joinView(token, invite));
  });

  app.post('/join', async (event) => {
    if (deps.signup === 'closed') return closedPage();
    // The invitation is in the form, so the form is read first: under its cap, never more.
    const fields = await readFormBody(event.req);
    const token = fields?.get('token') ?? '';
    const invite = await findOpenInvite(db, token, clock());
    if (!invite) return deadInvite();
    // The email is the invitation's, whatever the form says; claim and account in one transaction.
    return create(event, joinView(token, invite), (_fields, input) => joinByInvite(writes, token, input), false, fields);
  });

  const SIGNUP: View = { action: '/signup', heading: 'Create your Siteline account', intro: 'Create an account; projects are shared with you by their admins, or you create your own.', button: 'Create account' };
  app.get('/signup', async (event) => (deps.signup === 'open' ? form(event.req, SIGNUP) : closedPage()));
  app.post('/signup', async (event) => (deps.signup === 'open' ? create(event, SIGNUP, (_fields, input) => signUp(writes, input), true) : closedPage()));

  mountTeamRoutes(app, deps);
}

/**
 * An email that already has an account cannot get a second one. Without mail to send instead, the refusal cannot be
 * hidden; it says no more than that (the limits above bound how fast anyone can ask).
 */
function takenEmail(error: { param?: string; message: string }): string | undefined {
  return error.param === 'email' && /already exists/.test(error.message) ? 'This email cannot be used for a new account. If it is yours, sign in instead.' : undefined;
}
