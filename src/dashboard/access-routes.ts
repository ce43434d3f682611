// Sharing a project: admins invite an email with a role (a link is shown once; an account with that email also finds
// the invitation on its Projects page), withdraw invitations, change roles and remove access after a confirmation
// step; the invitee accepts or declines on /dashboard/invitations. Removing access takes effect on the removed
// account's API keys and apps at their next request, on every instance (their reads check access every time, and
// the write empties every instance's answer cache through the bus).
import type { H3 } from 'h3';
import { redirectResponse } from '../account/html.ts';
import { isConfirmed } from '../account/confirm-form.ts';
import type { Session } from '../account/sessions.ts';
import { isProjectRole } from '../domain/access-policy.ts';
import type { AppError } from '../errors/app-error.ts';
import { findAccountById } from '../store/accounts-repository.ts';
import { listInvitesForEmail } from '../store/invites-repository.ts';
import { acceptInvitation, declineInvitation, inviteToProject, removeAccess, setMemberRole, withdrawInvitation } from '../writes/access-writes.ts';
import { invitationsBody } from './access-pages.ts';
import { attempt } from './attempt.ts';
import type { DashboardDeps } from './dashboard-deps.ts';
import { createGuard, sessionActor, writeDeps, type RoledProject } from './guard.ts';
import { confirmationPage, dashboardPage } from './layout.ts';
import type { SettingsPage } from './project-routes.ts';

export function mountAccessRoutes(app: H3, deps: DashboardDeps, settingsPage: SettingsPage): void {
  const { db, clock, sessions } = deps.web;
  const secure = sessions.secure;
  const guard = createGuard(deps);
  const writes = writeDeps(deps);
  const settingsUrl = (key: string, done: string) => `/dashboard/p/${encodeURIComponent(key)}/settings?done=${done}`;
  /** A refusal (last admin, unknown account, bad email) shows the settings page again with the reason. */
  const onSettings = (session: Session, project: RoledProject) => (error: AppError) => settingsPage(session, project, { error: { message: error.message } }, error.status);

  app.post('/dashboard/p/:key/access/invite', async (event) => {
    const post = await guard.projectPost(event.req, event.context.params?.key, 'access.invite');
    if (post instanceof Response) return post;
    const { session, project, form } = post;
    const role = form.get('role') ?? 'viewer';
    if (!isProjectRole(role)) return settingsPage(session, project, { error: { message: `'${role}' is not a role.` } }, 400);
    return attempt(async () => {
      const outcome = await inviteToProject(writes, sessionActor(session), project, { email: form.get('email') ?? '', role });
      if (outcome.kind === 'member') return settingsPage(session, project, { error: { message: `${outcome.email} already has access (as ${outcome.role}); change their role in the list instead.` } }, 409);
      return settingsPage(session, project, { shared: { email: outcome.invite.email, role, url: `${deps.publicUrl}/join?token=${outcome.token}` } }, 201);
    }, onSettings(session, project));
  });

  app.post('/dashboard/p/:key/access/withdraw', async (event) => {
    const post = await guard.projectPost(event.req, event.context.params?.key, 'access.withdraw');
    if (post instanceof Response) return post;
    return attempt(async () => {
      await withdrawInvitation(writes, sessionActor(post.session), post.project, post.form.get('digest') ?? '');
      return redirectResponse(settingsUrl(post.project.key, 'withdrawn'));
    }, onSettings(post.session, post.project));
  });

  app.post('/dashboard/p/:key/access/role', async (event) => {
    const post = await guard.projectPost(event.req, event.context.params?.key, 'access.set_role');
    if (post instanceof Response) return post;
    const role = post.form.get('role') ?? '';
    return attempt(async () => {
      if (!isProjectRole(role)) return settingsPage(post.session, post.project, { error: { message: `'${role}' is not a role.` } }, 400);
      await setMemberRole(writes, sessionActor(post.session), post.project, post.form.get('account_id') ?? '', role);
      return redirectResponse(settingsUrl(post.project.key, 'role'));
    }, onSettings(post.session, post.project));
  });

  app.post('/dashboard/p/:key/access/revoke', async (event) => {
    const post = await guard.projectPost(event.req, event.context.params?.key, 'access.remove');
    if (post instanceof Response) return post;
    const { session, project, form } = post;
    const accountId = form.get('account_id') ?? '';
    if (!isConfirmed(form)) {
      const account = await findAccountById(db, accountId);
      const who = account ? `${account.name} (${account.email})` : 'This account';
      return confirmationPage(session, secure, {
        title: 'Remove access?',
        message: `${who} will no longer see ${project.name}. Their API keys and connected apps stop reaching it at once.`,
        action: `/dashboard/p/${encodeURIComponent(project.key)}/access/revoke`,
        fields: { account_id: accountId },
        button: 'Remove access',
        back: `/dashboard/p/${encodeURIComponent(project.key)}/settings`,
      });
    }
    return attempt(async () => {
      await removeAccess(writes, sessionActor(session), project, accountId);
      return redirectResponse(settingsUrl(project.key, 'removed'));
    }, onSettings(session, project));
  });

  async function invitationsPage(session: Session, notice?: string, status = 200): Promise<Response> {
    const invites = await listInvitesForEmail(db, session.account.email, clock());
    return dashboardPage({ title: 'Invitations', session, current: 'projects', secure, status, body: invitationsBody({ csrf: session.csrf, invites, notice }) });
  }

  app.get('/dashboard/invitations', async (event) => {
    const session = await guard.session(event.req);
    if (session instanceof Response) return session;
    return invitationsPage(session, new URL(event.req.url).searchParams.get('done') === 'declined' ? 'Invitation declined.' : undefined);
  });

  app.post('/dashboard/invitations/accept', async (event) => {
    const post = await guard.post(event.req);
    if (post instanceof Response) return post;
    return attempt(async () => {
      await acceptInvitation(writes, sessionActor(post.session), post.form.get('digest') ?? '');
      return redirectResponse('/dashboard?done=accepted');
    }, (error) => invitationsPage(post.session, error.message, error.status));
  });

  app.post('/dashboard/invitations/decline', async (event) => {
    const post = await guard.post(event.req);
    if (post instanceof Response) return post;
    return attempt(async () => {
      await declineInvitation(writes, sessionActor(post.session), post.form.get('digest') ?? '');
      return redirectResponse('/dashboard/invitations?done=declined');
    }, (error) => invitationsPage(post.session, error.message, error.status));
  });
}
