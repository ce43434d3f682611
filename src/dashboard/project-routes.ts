// Projects in the dashboard: the list (home), create (the creator is its admin), the settings page (what each role
// may change), edit, brand terms, and delete after typing the key (credentials, funnels and access rows go with
// it). Every change goes through the write service, which checks the role again and audits.
import type { H3 } from 'h3';
import { h, redirectResponse } from '../account/html.ts';
import type { Session } from '../account/sessions.ts';
import { allows } from '../domain/access-policy.ts';
import { defaultBrandTerms } from '../domain/brand-terms.ts';
import type { AppError } from '../errors/app-error.ts';
import { countAccounts } from '../store/account-roles-repository.ts';
import { listSourcesForProjects } from '../store/data-sources-repository.ts';
import { listInvitesForEmail, listOpenInvites } from '../store/invites-repository.ts';
import { listProjectMembers } from '../store/project-roles-repository.ts';
import { listProjectsForAccount } from '../store/projects-repository.ts';
import { createProject, deleteProject, setBrandTerms, updateProject } from '../writes/project-writes.ts';
import { membersSection, type MembersView } from './access-pages.ts';
import { attempt } from './attempt.ts';
import { dropFlowsOfProject } from './google-flow-tokens.ts';
import type { DashboardDeps } from './dashboard-deps.ts';
import { createGuard, sessionActor, writeDeps, type RoledProject } from './guard.ts';
import { dashboardPage } from './layout.ts';
import { brandTermsSection, deleteSection, projectForm, projectHeader, projectListBody, type ProjectFormView } from './project-pages.ts';

const TIMEZONES = Intl.supportedValuesOf('timeZone');
const NOTICES: Record<string, string> = {
  deleted: 'The project was deleted with its credentials and funnels.',
  accepted: 'Invitation accepted: the project is in your list.',
};
const SETTINGS_NOTICES: Record<string, string> = {
  saved: 'Saved.',
  'brand-terms': 'Brand terms saved.',
  role: 'Role changed.',
  removed: 'Access removed. Their keys and apps stop reaching this project now.',
  withdrawn: 'The invitation was withdrawn; its link no longer works.',
};

export interface SettingsExtra {
  values?: ProjectFormView['values'];
  error?: ProjectFormView['error'];
  notice?: string;
  brand?: { text: string; error: string };
  shared?: MembersView['shared'];
}

export interface SettingsPage {
  (session: Session, project: RoledProject, extra?: SettingsExtra, status?: number): Promise<Response>;
}

export function mountProjectRoutes(app: H3, deps: DashboardDeps): SettingsPage {
  const { db, clock, sessions } = deps.web;
  const secure = sessions.secure;
  const guard = createGuard(deps);
  const writes = writeDeps(deps);
  const fields = (form: URLSearchParams) => ({
    key: (form.get('key') ?? '').trim(),
    name: form.get('name') ?? '',
    domain: form.get('domain') ?? '',
    timezone: (form.get('timezone') ?? '').trim() || 'UTC',
    currency: form.get('currency') ?? '',
  });
  const shownAs = (error: AppError): { param?: string; message: string } => ({ param: error.param, message: error.message });

  app.get('/dashboard', async (event) => {
    if ((await countAccounts(db)) === 0) return redirectResponse('/setup', {}, 302);
    const session = await guard.session(event.req);
    if (session instanceof Response) return session;
    const [projects, invitations] = await Promise.all([listProjectsForAccount(db, session.account.id), listInvitesForEmail(db, session.account.email, clock())]);
    const sources = await listSourcesForProjects(db, projects.map((p) => p.id));
    const done = new URL(event.req.url).searchParams.get('done');
    return dashboardPage({ title: 'Projects', session, current: 'projects', secure, body: projectListBody({ projects, sources, notice: done ? NOTICES[done] : undefined, invitations: invitations.length }) });
  });

  function newProjectPage(session: Session, values: ProjectFormView['values'] = {}, error?: ProjectFormView['error'], status = 200) {
    return dashboardPage({
      title: 'New project',
      session,
      current: 'projects',
      secure,
      status,
      body: h`<p class="crumbs"><a href="/dashboard">Projects</a></p><h1>New project</h1>${projectForm({ csrf: session.csrf, action: '/dashboard/projects', button: 'Create project', values, keyFixed: false, error, timezones: TIMEZONES })}`,
    });
  }

  app.get('/dashboard/projects/new', async (event) => {
    const session = await guard.session(event.req);
    return session instanceof Response ? session : newProjectPage(session);
  });

  app.post('/dashboard/projects', async (event) => {
    const post = await guard.post(event.req);
    if (post instanceof Response) return post;
    const values = fields(post.form);
    return attempt(async () => {
      const project = await createProject(writes, sessionActor(post.session), values);
      return redirectResponse(`/dashboard/p/${encodeURIComponent(project.key)}/sources?done=created`);
    }, (error) => newProjectPage(post.session, values, shownAs(error), 400));
  });

  /** The settings page: details and deletion for admins, brand terms for editors and admins, the members for all. */
  const settingsPage: SettingsPage = async (session, project, extra = {}, status = 200) => {
    const manage = allows('access.invite', project.role);
    const [members, invites] = await Promise.all([listProjectMembers(db, project.id), manage ? listOpenInvites(db, clock(), project.id) : []]);
    const base = `/dashboard/p/${encodeURIComponent(project.key)}`;
    const details = allows('project.edit', project.role)
      ? h`<h2>Project details</h2>${projectForm({ csrf: session.csrf, action: `${base}/settings`, button: 'Save changes', values: extra.values ?? project, keyFixed: true, error: extra.error, timezones: TIMEZONES })}`
      : h`${extra.error ? h`<p class="error" role="alert" id="form-error">${extra.error.message}</p>` : ''}<h2>Project details</h2><p>Domain <code>${project.domain}</code>, time zone ${project.timezone}, currency ${project.currency}. Only admins change them.</p>`;
    return dashboardPage({
      title: `${project.name} · Settings`,
      session,
      current: 'projects',
      secure,
      status,
      body: h`${projectHeader(project, 'settings')}${extra.notice ? h`<p class="notice" role="status">${extra.notice}</p>` : ''}
${details}
${allows('brand_terms.edit', project.role) ? brandTermsSection({ csrf: session.csrf, project, defaults: defaultBrandTerms(project.domain), ...extra.brand }) : ''}
${membersSection({ csrf: session.csrf, project, members, selfId: session.account.id, manage, invites, shared: extra.shared })}${allows('project.delete', project.role) ? deleteSection(session.csrf, project) : ''}`,
    });
  };

  app.get('/dashboard/p/:key/settings', async (event) => {
    const found = await guard.projectGet(event.req, event.context.params?.key);
    if (found instanceof Response) return found;
    const { session, project } = found;
    const done = new URL(event.req.url).searchParams.get('done');
    return settingsPage(session, project, { notice: done ? SETTINGS_NOTICES[done] : undefined });
  });

  app.post('/dashboard/p/:key/settings', async (event) => {
    const post = await guard.projectPost(event.req, event.context.params?.key, 'project.edit');
    if (post instanceof Response) return post;
    const values = fields(post.form);
    return attempt(async () => {
      await updateProject(writes, sessionActor(post.session), post.project, values);
      return redirectResponse(`/dashboard/p/${encodeURIComponent(post.project.key)}/settings?done=saved`);
    }, (error) => settingsPage(post.session, post.project, { values: { ...values, key: post.project.key }, error: shownAs(error) }, 400));
  });

  app.post('/dashboard/p/:key/brand-terms', async (event) => {
    const post = await guard.projectPost(event.req, event.context.params?.key, 'brand_terms.edit');
    if (post instanceof Response) return post;
    const text = post.form.get('brand_terms') ?? '';
    return attempt(async () => {
      // Through the store, so the write-watch drops cached answers that split queries by these terms.
      await setBrandTerms(writes, sessionActor(post.session), post.project, post.form.get('action') === 'default' ? null : text.split(/\r?\n/));
      return redirectResponse(`/dashboard/p/${encodeURIComponent(post.project.key)}/settings?done=brand-terms`);
    }, (error) => settingsPage(post.session, post.project, { brand: { text, error: error.message } }, 400));
  });

  app.post('/dashboard/p/:key/delete', async (event) => {
    const post = await guard.projectPost(event.req, event.context.params?.key, 'project.delete');
    if (post instanceof Response) return post;
    // Typing the key is this action's confirmation step.
    if ((post.form.get('confirm') ?? '').trim() !== post.project.key) {
      return settingsPage(post.session, post.project, { error: { message: `Nothing was deleted: type the key '${post.project.key}' exactly to confirm.` } }, 400);
    }
    // Connections in progress die with the project: their grants are revoked at Google first.
    await dropFlowsOfProject(db, deps.box, deps.google, post.project.id, deps.web.clock());
    await deleteProject(writes, sessionActor(post.session), post.project);
    return redirectResponse('/dashboard?done=deleted');
  });

  return settingsPage;
}
