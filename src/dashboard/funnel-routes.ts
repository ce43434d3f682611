// Funnels in the dashboard: list, create, edit (a new version), rename, delete, and the editor's preview — users
// per step for the last 28 days through the FunnelPreview stored operation, validated exactly as saving is.
// Funnels created here and through MCP's confirmed flow are the same rows, so each path sees the other's.
import type { H3 } from 'h3';
import { h, redirectResponse } from '../account/html.ts';
import type { Session } from '../account/sessions.ts';
import { isAppError, type AppError } from '../errors/app-error.ts';
import { JSON_TYPE } from '../http/responses.ts';
import type { FunnelRun } from '../reports/funnel-results.ts';
import { allows } from '../domain/access-policy.ts';
import { funnelVersion, funnelVersionsOf } from '../store/funnel-edits-repository.ts';
import { getFunnelByKey, listFunnelsForProject, validateFunnelSteps, type FunnelRecord, type FunnelStep } from '../store/funnels-repository.ts';
import { createFunnel, deleteFunnel, editFunnel, renameFunnel } from '../writes/funnel-writes.ts';
import type { ProjectRecord } from '../store/projects-repository.ts';
import type { DashboardDeps } from './dashboard-deps.ts';
import { FUNNEL_EDITOR_SCRIPT } from './funnel-editor-script.ts';
import { editorBody, funnelAdminBody, funnelListBody, type EditorView } from './funnel-pages.ts';
import { createGuard, sessionActor, writeDeps } from './guard.ts';
import { dashboardPage } from './layout.ts';
import { projectHeader } from './project-pages.ts';
import { readOperation } from './read-data.ts';

const PREVIEW_PERIOD = '28days';
const EMPTY_STEP: FunnelStep = { name: '', type: 'page', match: 'exact', value: '' };

interface Draft {
  name: string;
  steps: FunnelStep[];
  op: string;
}

function readDraft(form: URLSearchParams): Draft {
  const types = form.getAll('step_type');
  const matches = form.getAll('step_match');
  const values = form.getAll('step_value');
  const names = form.getAll('step_name');
  const steps = values.slice(0, 10).map((value, i) => ({ value, name: names[i] ?? '', type: types[i] ?? 'page', match: matches[i] ?? 'exact' }) as FunnelStep);
  return { name: form.get('name') ?? '', steps, op: form.get('op') ?? 'save' };
}

/** Field problems of an expected error, keyed by parameter (`steps[1].value`, `name`, `steps`). */
function errorsOf(error: AppError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const e of error.errors ?? []) errors[e.param] ??= e.message;
  if (Object.keys(errors).length === 0) errors[error.param ?? 'steps'] = error.message;
  return errors;
}

export function mountFunnelRoutes(app: H3, deps: DashboardDeps): void {
  const { db, sessions } = deps.web;
  const secure = sessions.secure;
  const guard = createGuard(deps);
  const writes = writeDeps(deps);
  const base = (project: ProjectRecord) => `/dashboard/p/${encodeURIComponent(project.key)}/funnels`;

  async function suggestions(session: Session, project: ProjectRecord): Promise<{ events: string[]; pages: string[] }> {
    const variables = { project: project.key, period: PREVIEW_PERIOD, limit: '200' };
    const [events, pages] = await Promise.all([
      readOperation<{ rows: { eventName: string }[] }>(deps, session, 'ObservedEvents', 'observedEvents', variables),
      readOperation<{ rows: { pagePath: string }[] }>(deps, session, 'ObservedPages', 'observedPages', variables),
    ]);
    return { events: events.ok ? events.body.rows.map((r) => r.eventName) : [], pages: pages.ok ? pages.body.rows.map((r) => r.pagePath) : [] };
  }

  /** Validation problems and, when the steps are valid, the preview. */
  async function preview(session: Session, project: ProjectRecord, draft: Draft): Promise<Pick<EditorView, 'errors' | 'preview'>> {
    try {
      validateFunnelSteps(draft.steps);
    } catch (error) {
      if (isAppError(error)) return { errors: errorsOf(error) };
      throw error;
    }
    const read = await readOperation<FunnelRun>(deps, session, 'FunnelPreview', 'funnelPreview', { project: project.key, steps: draft.steps, period: PREVIEW_PERIOD });
    if (!read.ok) return { errors: {}, preview: { error: `${read.error.message}` } };
    return { errors: {}, preview: { steps: read.body.steps, period: `Last 28 days: ${read.body.period.start} to ${read.body.period.end}` } };
  }

  async function editorPage(session: Session, project: ProjectRecord, view: { title: string; action: string; button: string; draft: Draft; extra?: Partial<EditorView>; funnel?: FunnelRecord & { version: number }; status?: number }) {
    const found = await suggestions(session, project);
    const body = editorBody({ csrf: session.csrf, action: view.action, previewUrl: `${base(project)}/preview`, name: view.draft.name, steps: view.draft.steps, ...found, errors: {}, button: view.button, ...view.extra });
    const admin = view.funnel ? funnelAdminBody({ csrf: session.csrf, base: `${base(project)}/${encodeURIComponent(view.funnel.key)}`, funnel: view.funnel }) : '';
    return dashboardPage({ title: `${project.name} · ${view.title}`, session, current: 'projects', secure, status: view.status, script: FUNNEL_EDITOR_SCRIPT, body: h`${projectHeader(project, 'funnels')}<h2>${view.title}</h2>${body}${admin}` });
  }

  /** The editor's buttons: add or remove a step and preview re-render; save runs `store` (create or new version). */
  async function submit(session: Session, project: ProjectRecord, draft: Draft, page: { title: string; action: string; button: string; funnel?: FunnelRecord & { version: number } }, store: () => Promise<string>) {
    const show = (extra: Partial<EditorView>, status = 200) => editorPage(session, project, { ...page, draft, extra, status });
    if (draft.op === 'add' && draft.steps.length < 10) return editorPage(session, project, { ...page, draft: { ...draft, steps: [...draft.steps, EMPTY_STEP] } });
    if (draft.op.startsWith('remove:')) {
      const index = Number(draft.op.slice('remove:'.length));
      return editorPage(session, project, { ...page, draft: { ...draft, steps: draft.steps.filter((_, i) => i !== index) } });
    }
    if (draft.op === 'preview') return show(await preview(session, project, draft));
    try {
      return redirectResponse(await store());
    } catch (error) {
      if (isAppError(error) && error.status < 500) return show({ errors: errorsOf(error) }, 400);
      throw error;
    }
  }

  async function funnelOf(session: Session, project: ProjectRecord, key: string | undefined): Promise<(FunnelRecord & { version: number }) | Response> {
    const funnel = key ? await getFunnelByKey(db, key) : undefined;
    if (!funnel || funnel.projectId !== project.id) return guard.notFound(session, `The funnel '${key ?? ''}'`);
    return { ...funnel, version: await funnelVersion(db, funnel.id) };
  }

  app.get('/dashboard/p/:key/funnels', async (event) => {
    const found = await guard.projectGet(event.req, event.context.params?.key);
    if (found instanceof Response) return found;
    const { session, project } = found;
    const [funnels, versions] = await Promise.all([listFunnelsForProject(db, project.id), funnelVersionsOf(db, project.id)]);
    const done = new URL(event.req.url).searchParams.get('done');
    const notice = done === 'saved' ? 'Funnel saved.' : done === 'deleted' ? 'Funnel deleted.' : undefined;
    const listed = funnels.map((f) => ({ ...f, version: versions.get(f.id) ?? 1 }));
    const canEdit = allows('funnel.edit', project.role);
    return dashboardPage({ title: `${project.name} · Funnels`, session, current: 'projects', secure, body: h`${projectHeader(project, 'funnels')}${funnelListBody({ csrf: session.csrf, projectKey: project.key, funnels: listed, notice, canEdit })}` });
  });

  const NEW = (project: ProjectRecord) => ({ title: 'New funnel', action: base(project), button: 'Save funnel' });

  app.get('/dashboard/p/:key/funnels/new', async (event) => {
    const found = await guard.projectGet(event.req, event.context.params?.key, 'funnel.create');
    if (found instanceof Response) return found;
    return editorPage(found.session, found.project, { ...NEW(found.project), draft: { name: '', steps: [EMPTY_STEP, EMPTY_STEP], op: '' } });
  });

  app.post('/dashboard/p/:key/funnels', async (event) => {
    const found = await guard.projectPost(event.req, event.context.params?.key, 'funnel.create');
    if (found instanceof Response) return found;
    const { session, project, form } = found;
    const draft = readDraft(form);
    return submit(session, project, draft, NEW(project), async () => {
      await createFunnel(writes, sessionActor(session), project, { name: draft.name, steps: draft.steps, createdVia: 'dashboard' });
      return `${base(project)}?done=saved`;
    });
  });

  app.post('/dashboard/p/:key/funnels/preview', async (event) => {
    const found = await guard.projectPost(event.req, event.context.params?.key, 'funnel.create');
    if (found instanceof Response) return new Response(JSON.stringify({ errors: { steps: 'Reload the page: the session or form expired.' } }), { status: 403, headers: { 'content-type': JSON_TYPE } });
    const answer = await preview(found.session, found.project, readDraft(found.form));
    return new Response(JSON.stringify(answer), { headers: { 'content-type': JSON_TYPE, 'cache-control': 'no-store' } });
  });

  app.get('/dashboard/p/:key/funnels/:funnel', async (event) => {
    const found = await guard.projectGet(event.req, event.context.params?.key, 'funnel.edit');
    if (found instanceof Response) return found;
    const funnel = await funnelOf(found.session, found.project, event.context.params?.funnel);
    if (funnel instanceof Response) return funnel;
    const page = { title: `Edit “${funnel.name}” (version ${funnel.version})`, action: `${base(found.project)}/${encodeURIComponent(funnel.key)}`, button: 'Save as new version', funnel };
    return editorPage(found.session, found.project, { ...page, draft: { name: funnel.name, steps: funnel.steps, op: '' } });
  });

  app.post('/dashboard/p/:key/funnels/:funnel', async (event) => {
    const found = await guard.projectPost(event.req, event.context.params?.key, 'funnel.edit');
    if (found instanceof Response) return found;
    const { session, project, form } = found;
    const funnel = await funnelOf(session, project, event.context.params?.funnel);
    if (funnel instanceof Response) return funnel;
    const draft = readDraft(form);
    const page = { title: `Edit “${funnel.name}” (version ${funnel.version})`, action: `${base(project)}/${encodeURIComponent(funnel.key)}`, button: 'Save as new version', funnel };
    return submit(session, project, draft, page, async () => {
      await editFunnel(writes, sessionActor(session), project, funnel, { name: draft.name, steps: draft.steps });
      return `${base(project)}?done=saved`;
    });
  });

  app.post('/dashboard/p/:key/funnels/:funnel/rename', async (event) => {
    const found = await guard.projectPost(event.req, event.context.params?.key, 'funnel.edit');
    if (found instanceof Response) return found;
    const funnel = await funnelOf(found.session, found.project, event.context.params?.funnel);
    if (funnel instanceof Response) return funnel;
    try {
      await renameFunnel(writes, sessionActor(found.session), found.project, funnel, found.form.get('name') ?? '');
    } catch (error) {
      if (!isAppError(error)) throw error;
      return editorPage(found.session, found.project, { title: `Edit “${funnel.name}”`, action: `${base(found.project)}/${encodeURIComponent(funnel.key)}`, button: 'Save as new version', funnel, draft: { name: funnel.name, steps: funnel.steps, op: '' }, extra: { errors: { steps: error.message } }, status: 400 });
    }
    return redirectResponse(`${base(found.project)}?done=saved`);
  });

  app.post('/dashboard/p/:key/funnels/:funnel/delete', async (event) => {
    const found = await guard.projectPost(event.req, event.context.params?.key, 'funnel.delete');
    if (found instanceof Response) return found;
    const funnel = await funnelOf(found.session, found.project, event.context.params?.funnel);
    if (funnel instanceof Response) return funnel;
    if (found.form.get('confirm') !== 'yes') return redirectResponse(`${base(found.project)}/${encodeURIComponent(funnel.key)}`);
    await deleteFunnel(writes, sessionActor(found.session), found.project, funnel, funnel.key);
    return redirectResponse(`${base(found.project)}?done=deleted`);
  });
}
