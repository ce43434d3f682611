// Joining Siteline in the browser. /setup creates the owner while no account exists (then it is gone for good);
// /join redeems an invitation link (SIGNUP=invite or open); /signup is open sign-up (SIGNUP=open only). The forms
// use the pre-session CSRF token of the sign-in form; a new account is signed in at once.
import type { H3 } from 'h3';
import { h, redirectResponse } from '../account/html.ts';
import { invalidParameter, isAppError } from '../errors/app-error.ts';
import { readFormBody } from '../http/read-body.ts';
import { createAccount, listAccounts, type NewAccount } from '../store/accounts-repository.ts';
import { claimOwnership, countAccounts, roleOf } from '../store/account-roles-repository.ts';
import { claimInvite, createInvite, deleteInvite, findOpenInvite, listOpenInvites } from '../store/invites-repository.ts';
import { newAccountBody, teamBody, type NewAccountForm, type TeamView } from './account-pages.ts';
import type { DashboardDeps } from './dashboard-deps.ts';
import { createGuard } from './guard.ts';
import { dashboardPage, problemPage } from './layout.ts';
import type { Session } from '../account/sessions.ts';

export function mountAccountRoutes(app: H3, deps: DashboardDeps): void {
  const { db, sessions, clock } = deps.web;
  const secure = sessions.secure;
  const guard = createGuard(deps);

  function form(request: Request, view: Omit<NewAccountForm, 'csrf'>, status = 200): Response {
    const { token, setCookie } = sessions.signInToken(request);
    return dashboardPage({ title: view.heading, secure, status, headers: setCookie ? { 'set-cookie': setCookie } : {}, body: newAccountBody({ ...view, csrf: token }) });
  }

  /** Creates the account, or answers with a page instead (a race lost to another form). */
  type Insert = (input: NewAccount) => Promise<{ id: string } | Response>;
  const plainInsert: Insert = (input) => createAccount(db, input);

  /**
   * Validates the pre-session form, creates the account and signs it in; `before` may refuse (returns a page).
   * `read` is the form when the route read it already (the body is read once, under its cap).
   */
  async function create(request: Request, view: Omit<NewAccountForm, 'csrf'>, before: () => Promise<Response | undefined>, insert: Insert = plainInsert, read?: URLSearchParams) {
    const fields = read ?? (await readFormBody(request));
    if (!fields || !sessions.sameOrigin(request) || !sessions.checkSignInToken(request, fields.get('csrf'))) {
      return form(request, { ...view, error: 'The form expired or came from another site. Please try again.' }, 403);
    }
    const filled = { ...view, name: fields.get('name') ?? '', email: view.emailLocked ? view.email : (fields.get('email') ?? '') };
    const refused = await before();
    if (refused) return refused;
    try {
      const account = await insert({ name: filled.name, email: filled.email ?? '', password: fields.get('password') ?? '', now: clock() });
      if (account instanceof Response) return account;
      return redirectResponse('/dashboard', { 'set-cookie': await sessions.start(account.id) });
    } catch (error) {
      if (isAppError(error) && error.status < 500) return form(request, { ...filled, error: error.message }, 400);
      throw error;
    }
  }

  const SETUP = { action: '/setup', heading: 'Set up Siteline', intro: 'No account exists yet. Create the owner account: it can create projects, connect data and invite teammates.', button: 'Create owner account' };

  app.get('/setup', async (event) => {
    if ((await countAccounts(db)) > 0) return redirectResponse('/dashboard', {}, 302);
    return form(event.req, SETUP);
  });

  const alreadySetUp = () => problemPage({ title: 'Already set up', message: 'An owner account already exists.', next: h`<a href="/account/sign-in">Sign in</a>`, status: 409, secure });
  /** Thrown inside the transaction to roll the account back when another form claimed ownership first. */
  const lostRace = new Error('owner already claimed');

  app.post('/setup', async (event) =>
    create(
      event.req,
      SETUP,
      async () => ((await countAccounts(db)) > 0 ? alreadySetUp() : undefined),
      // Account and ownership in one transaction: of two forms sent at once, one owner, and no stray account.
      (input) =>
        db
          .transaction()
          .execute(async (trx) => {
            const account = await createAccount(trx, input);
            if (!(await claimOwnership(trx, account.id))) throw lostRace;
            return account;
          })
          .catch((error: unknown) => (error === lostRace ? alreadySetUp() : Promise.reject(error))),
    ),
  );

  const closedPage = () =>
    problemPage({ title: 'Sign-up is closed', message: 'This Siteline does not accept new accounts from the browser.', next: h`Ask its owner for an account, or <a href="/account/sign-in">sign in</a>.`, status: 403, secure });
  const deadInvite = () =>
    problemPage({ title: 'Invitation not valid', message: 'This invitation link was already used, withdrawn or has expired.', next: h`Ask the person who invited you for a new link, or <a href="/account/sign-in">sign in</a> if you already have an account.`, status: 410, secure });
  const joinView = (token: string, email: string) => ({ action: '/join', heading: 'Join Siteline', intro: `You were invited as ${email}. Choose your name and a password.`, button: 'Create account', email, emailLocked: true, token });

  app.get('/join', async (event) => {
    if (deps.signup === 'closed') return closedPage();
    const token = new URL(event.req.url).searchParams.get('token') ?? '';
    const invite = await findOpenInvite(db, token, clock());
    return invite ? form(event.req, joinView(token, invite.email)) : deadInvite();
  });

  app.post('/join', async (event) => {
    if (deps.signup === 'closed') return closedPage();
    const request = event.req;
    // The invitation is in the form, so the form is read first: under its cap, never more.
    const fields = await readFormBody(request);
    const token = fields?.get('token') ?? '';
    const invite = await findOpenInvite(db, token, clock());
    if (!invite) return deadInvite();
    // Claim and account in one transaction: a rejected password does not burn the link, two tabs make one account.
    const insert: Insert = (input) =>
      db.transaction().execute(async (trx) => {
        if (!(await claimInvite(trx, token, clock()))) throw invalidParameter('token', 'This invitation link was used a moment ago; ask for a new one.');
        return createAccount(trx, input);
      });
    return create(request, joinView(token, invite.email), async () => undefined, insert, fields);
  });

  const SIGNUP = { action: '/signup', heading: 'Create your Siteline account', intro: 'Create an account; projects are shared with you by their owners, or you create your own.', button: 'Create account' };
  app.get('/signup', async (event) => (deps.signup === 'open' ? form(event.req, SIGNUP) : closedPage()));
  app.post('/signup', async (event) => (deps.signup === 'open' ? create(event.req, SIGNUP, async () => undefined) : closedPage()));

  async function team(session: Session, extra: Partial<TeamView> = {}, status = 200): Promise<Response> {
    const [isOwner, accounts, invites] = await Promise.all([roleOf(db, session.account.id).then((r) => r === 'owner'), listAccounts(db), listOpenInvites(db, clock())]);
    return dashboardPage({ title: 'Team', session, current: 'team', secure, status, body: teamBody({ csrf: session.csrf, isOwner, accounts, invites, signup: deps.signup, ...extra }) });
  }

  app.get('/dashboard/team', async (event) => {
    const session = await guard.session(event.req);
    return session instanceof Response ? session : team(session);
  });

  app.post('/dashboard/team/invites', async (event) => {
    const post = await guard.post(event.req);
    if (post instanceof Response) return post;
    const { session, form: fields } = post;
    if ((await roleOf(db, session.account.id)) !== 'owner' || deps.signup === 'closed') return team(session, { error: 'Only the owner can invite, and only while sign-up is not closed.' }, 403);
    try {
      const { token, invite } = await createInvite(db, { email: fields.get('email') ?? '', createdBy: session.account.id, now: clock() });
      return team(session, { link: { email: invite.email, url: `${deps.publicUrl}/join?token=${token}` } }, 201);
    } catch (error) {
      if (isAppError(error) && error.status < 500) return team(session, { error: error.message }, 400);
      throw error;
    }
  });

  app.post('/dashboard/team/invites/delete', async (event) => {
    const post = await guard.post(event.req);
    if (post instanceof Response) return post;
    const { session, form: fields } = post;
    if ((await roleOf(db, session.account.id)) !== 'owner') return team(session, { error: 'Only the owner can withdraw invitations.' }, 403);
    const deleted = await deleteInvite(db, fields.get('digest') ?? '');
    return team(session, deleted ? { notice: 'The invitation was withdrawn; its link no longer works.' } : { error: 'That invitation is no longer open.' }, deleted ? 200 : 404);
  });
}
