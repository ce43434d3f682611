// Projects in the dashboard: the list (home), create (the creator gets access), edit, share with / remove
// teammates, and delete after typing the key (credentials, funnels and access rows go with it).
import type { H3 } from 'h3';
import { h, redirectResponse } from '../account/html.ts';
import type { Session } from '../account/sessions.ts';
import { defaultBrandTerms } from '../domain/brand-terms.ts';
import { isAppError, type AppError } from '../errors/app-error.ts';
import { findAccountByEmail } from '../store/accounts-repository.ts';
import { countAccounts } from '../store/account-roles-repository.ts';
import { listSourcesForProjects } from '../store/data-sources-repository.ts';
import { deleteProject, listProjectMembers, updateProject } from '../store/project-admin-repository.ts';
import { createProject, grantProjectAccess, listProjectsForAccount, revokeProjectAccess, updateProjectBrandTerms, type ProjectRecord } from '../store/projects-repository.ts';
import type { DashboardDeps } from './dashboard-deps.ts';
import { createGuard } from './guard.ts';
import { dashboardPage } from './layout.ts';
import { brandTermsSection, deleteSection, membersSection, projectForm, projectHeader, projectListBody, type ProjectFormView } from './project-pages.ts';

const TIMEZONES = Intl.supportedValuesOf('timeZone');
const NOTICES: Record<string, string> = {
  deleted: 'The project was deleted with its credentials and funnels.',
};
const SETTINGS_NOTICES: Record<string, string> = {
  saved: 'Saved.',
  'brand-terms': 'Brand terms saved.',
};

export function mountProjectRoutes(app: H3, deps: DashboardDeps): void {
  const { db, clock, sessions } = deps.web;
  const secure = sessions.secure;
  const guard = createGuard(deps);
  const fields = (form: URLSearchParams) => ({
    key: (form.get('key') ?? '').trim(),
    name: form.get('name') ?? '',
    domain: form.get('domain') ?? '',
    timezone: (form.get('timezone') ?? '').trim() || 'UTC',
    currency: form.get('currency') ?? '',
  });
  const problem = (error: unknown): { param?: string; message: string } | undefined =>
    isAppError(error) && error.status < 500 ? { param: (error as AppError).param, message: error.message } : undefined;

  app.get('/dashboard', async (event) => {
    if ((await countAccounts(db)) === 0) return redirectResponse('/setup', {}, 302);
    const session = await guard.session(event.req);
    if (session instanceof Response) return session;
    const projects = await listProjectsForAccount(db, session.account.id);
    const sources = await listSourcesForProjects(db, projects.map((p) => p.id));
    const done = new URL(event.req.url).searchParams.get('done');
    return dashboardPage({ title: 'Projects', session, current: 'projects', secure, body: projectListBody({ projects, sources, notice: done ? NOTICES[done] : undefined }) });
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
    try {
      const project = await db.transaction().execute(async (trx) => {
        const created = await createProject(trx, { ...values, now: clock() });
        await grantProjectAccess(trx, post.session.account.id, created.id, clock());
        return created;
      });
      return redirectResponse(`/dashboard/p/${encodeURIComponent(project.key)}/sources?done=created`);
    } catch (error) {
      const shown = problem(error);
      if (shown) return newProjectPage(post.session, values, shown, 400);
      throw error;
    }
  });

  async function settingsPage(
    session: Session,
    project: ProjectRecord,
    extra: { values?: ProjectFormView['values']; error?: ProjectFormView['error']; notice?: string; brand?: { text: string; error: string } } = {},
    status = 200,
  ) {
    const members = await listProjectMembers(db, project.id);
    const base = `/dashboard/p/${encodeURIComponent(project.key)}`;
    return dashboardPage({
      title: `${project.name} · Settings`,
      session,
      current: 'projects',
      secure,
      status,
      body: h`${projectHeader(project, 'settings')}${extra.notice ? h`<p class="notice" role="status">${extra.notice}</p>` : ''}
<h2>Project details</h2>${projectForm({ csrf: session.csrf, action: `${base}/settings`, button: 'Save changes', values: extra.values ?? project, keyFixed: true, error: extra.error, timezones: TIMEZONES })}
${brandTermsSection({ csrf: session.csrf, project, defaults: defaultBrandTerms(project.domain), ...extra.brand })}
${membersSection({ csrf: session.csrf, project, members, selfId: session.account.id })}${deleteSection(session.csrf, project)}`,
    });
  }

  app.get('/dashboard/p/:key/settings', async (event) => {
    const found = await guard.projectGet(event.req, event.context.params?.key);
    if (found instanceof Response) return found;
    const { session, project } = found;
    const done = new URL(event.req.url).searchParams.get('done');
    return settingsPage(session, project, { notice: done ? SETTINGS_NOTICES[done] : undefined });
  });

  app.post('/dashboard/p/:key/settings', async (event) => {
    const post = await guard.projectPost(event.req, event.context.params?.key);
    if (post instanceof Response) return post;
    const values = fields(post.form);
    try {
      await updateProject(db, post.project, values);
      return redirectResponse(`/dashboard/p/${encodeURIComponent(post.project.key)}/settings?done=saved`);
    } catch (error) {
      const shown = problem(error);
      if (shown) return settingsPage(post.session, post.project, { values: { ...values, key: post.project.key }, error: shown }, 400);
      throw error;
    }
  });

  app.post('/dashboard/p/:key/brand-terms', async (event) => {
    const post = await guard.projectPost(event.req, event.context.params?.key);
    if (post instanceof Response) return post;
    const text = post.form.get('brand_terms') ?? '';
    try {
      // Through the store, so the write-watch drops cached answers that split queries by these terms.
      await updateProjectBrandTerms(db, post.project.id, post.form.get('action') === 'default' ? null : text.split(/\r?\n/));
      return redirectResponse(`/dashboard/p/${encodeURIComponent(post.project.key)}/settings?done=brand-terms`);
    } catch (error) {
      const shown = problem(error);
      if (shown) return settingsPage(post.session, post.project, { brand: { text, error: shown.message } }, 400);
      throw error;
    }
  });

  app.post('/dashboard/p/:key/access/grant', async (event) => {
    const post = await guard.projectPost(event.req, event.context.params?.key);
    if (post instanceof Response) return post;
    const email = (post.form.get('email') ?? '').trim();
    const account = email ? await findAccountByEmail(db, email) : undefined;
    if (!account) return settingsPage(post.session, post.project, { error: { message: `No account uses '${email}'. Invite them on the Team page first.` } }, 404);
    await grantProjectAccess(db, account.id, post.project.id, clock());
    return settingsPage(post.session, post.project, { notice: `${account.email} can now see this project.` });
  });

  app.post('/dashboard/p/:key/access/revoke', async (event) => {
    const post = await guard.projectPost(event.req, event.context.params?.key);
    if (post instanceof Response) return post;
    const accountId = post.form.get('account_id') ?? '';
    if (accountId === post.session.account.id) return settingsPage(post.session, post.project, { error: { message: 'You cannot remove your own access; ask a teammate to.' } }, 400);
    const removed = await revokeProjectAccess(db, accountId, post.project.id);
    return settingsPage(post.session, post.project, removed ? { notice: 'Access removed.' } : { error: { message: 'That account had no access.' } }, removed ? 200 : 404);
  });

  app.post('/dashboard/p/:key/delete', async (event) => {
    const post = await guard.projectPost(event.req, event.context.params?.key);
    if (post instanceof Response) return post;
    if ((post.form.get('confirm') ?? '').trim() !== post.project.key) {
      return settingsPage(post.session, post.project, { error: { message: `Nothing was deleted: type the key '${post.project.key}' exactly to confirm.` } }, 400);
    }
    await deleteProject(db, post.project.id);
    return redirectResponse('/dashboard?done=deleted');
  });
}
