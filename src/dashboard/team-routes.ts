// The team page: the owner sees every account, invites teammates by single-use link (an email that already has an
// account is pointed to sharing projects instead) and takes back the admin role of any project; everyone else sees
// the people they share a project with.
import type { H3 } from 'h3';
import { isConfirmed } from '../account/confirm-form.ts';
import { redirectResponse } from '../account/html.ts';
import type { Session } from '../account/sessions.ts';
import { listAccounts } from '../store/accounts-repository.ts';
import { installationAllows } from '../domain/access-policy.ts';
import { installationStanding } from '../writes/authorize.ts';
import { listOpenInvites } from '../store/invites-repository.ts';
import { listAdminsByProject, listTeammates } from '../store/project-roles-repository.ts';
import { getProjectByKey, listProjects } from '../store/projects-repository.ts';
import { inviteTeammate, withdrawTeamInvite } from '../writes/account-writes.ts';
import { recoverProject } from '../writes/project-writes.ts';
import { teamBody, type TeamView } from './account-pages.ts';
import { attempt } from './attempt.ts';
import type { DashboardDeps } from './dashboard-deps.ts';
import { createGuard, sessionActor, writeDeps } from './guard.ts';
import { confirmationPage, dashboardPage } from './layout.ts';

const NOTICES: Record<string, string> = {
  recovered: 'You are now admin of the project.',
  withdrawn: 'The invitation was withdrawn; its link no longer works.',
};

export function mountTeamRoutes(app: H3, deps: DashboardDeps): void {
  const { db, sessions, clock } = deps.web;
  const secure = sessions.secure;
  const guard = createGuard(deps);
  const writes = writeDeps(deps);

  async function team(session: Session, extra: Partial<TeamView> = {}, status = 200): Promise<Response> {
    // The owner sees every account (and every project, to recover one); anyone else the people they share a project with.
    const isOwner = installationAllows('team.view_all', await installationStanding(db, sessionActor(session)));
    const [accounts, invites, projects] = isOwner
      ? await Promise.all([listAccounts(db), listOpenInvites(db, clock()), recoveryList()])
      : [await listTeammates(db, session.account.id), [], undefined];
    const view: TeamView = { csrf: session.csrf, isOwner, accounts, invites, signup: deps.signup, projects, selfId: session.account.id, ...extra };
    return dashboardPage({ title: 'Team', session, current: 'team', secure, status, body: teamBody(view) });
  }

  async function recoveryList(): Promise<TeamView['projects']> {
    const [projects, admins] = await Promise.all([listProjects(db), listAdminsByProject(db)]);
    return projects.map((project) => ({ project, admins: admins.get(project.id) ?? [] }));
  }

  app.get('/dashboard/team', async (event) => {
    const session = await guard.session(event.req);
    if (session instanceof Response) return session;
    const done = new URL(event.req.url).searchParams.get('done');
    return team(session, { notice: done ? NOTICES[done] : undefined });
  });

  app.post('/dashboard/team/invites', async (event) => {
    const post = await guard.post(event.req);
    if (post instanceof Response) return post;
    const { session, form: fields } = post;
    if (deps.signup === 'closed') return team(session, { error: 'Sign-up is closed (SIGNUP=closed): accounts are created with siteline accounts create.' }, 403);
    return attempt(async () => {
      const outcome = await inviteTeammate(writes, sessionActor(session), fields.get('email') ?? '');
      if (outcome.kind === 'exists') {
        return team(session, { notice: `${outcome.account.email} already has an account. Give them access to a project from its Settings (Invite, with a role); they accept it from their Projects page.` });
      }
      return team(session, { link: { email: outcome.invite.email, url: `${deps.publicUrl}/join?token=${outcome.token}` } }, 201);
    }, (error) => team(session, { error: error.message }, error.status));
  });

  app.post('/dashboard/team/invites/delete', async (event) => {
    const post = await guard.post(event.req);
    if (post instanceof Response) return post;
    return attempt(async () => {
      await withdrawTeamInvite(writes, sessionActor(post.session), post.form.get('digest') ?? '');
      return redirectResponse('/dashboard/team?done=withdrawn');
    }, (error) => team(post.session, { error: error.message }, error.status));
  });

  app.post('/dashboard/team/recover', async (event) => {
    const post = await guard.post(event.req);
    if (post instanceof Response) return post;
    const { session, form } = post;
    const project = await getProjectByKey(db, form.get('project') ?? '');
    if (!project) return guard.notFound(session, `The project '${form.get('project') ?? ''}'`);
    if (!isConfirmed(form)) {
      return confirmationPage(session, secure, {
        title: 'Become admin?',
        message: `You will be admin of ${project.name} (${project.key}): you see its data, sources, funnels and members, and its admins see that you did this in its audit log.`,
        action: '/dashboard/team/recover',
        fields: { project: project.key },
        button: 'Become admin',
        back: '/dashboard/team',
      });
    }
    return attempt(async () => {
      await recoverProject(writes, sessionActor(session), project, session.account.id);
      return redirectResponse('/dashboard/team?done=recovered');
    }, (error) => team(session, { error: error.message }, error.status));
  });
}
