// The data-sources page and Bing: a pasted key is checked with GetUserSites before anything is stored, then the
// user picks one of the key's sites (the key travels back in the picker form, never into the database, until
// then), which is probed as the CLI does and stored only when the key lists it verified; disconnecting deletes
// the stored key.
import type { H3 } from 'h3';
import { h, redirectResponse } from '../account/html.ts';
import type { Session } from '../account/sessions.ts';
import { connectDataSource } from '../connections/connect-data-source.ts';
import { isAppError, type AppError } from '../errors/app-error.ts';
import { isConfirmed } from '../account/confirm-form.ts';
import { listSources } from '../store/data-sources-repository.ts';
import type { ProjectRecord } from '../store/projects-repository.ts';
import type { DashboardDeps } from './dashboard-deps.ts';
import { disconnectSources } from '../writes/source-writes.ts';
import { createGuard, sessionActor, writeDeps } from './guard.ts';
import { confirmationPage, csrfField, dashboardPage, problemPage } from './layout.ts';
import { matchSite } from './match-domain.ts';
import { projectHeader } from './project-pages.ts';
import { choiceGroup, sourcesBody } from './source-pages.ts';

const NOTICES: Record<string, string> = {
  created: 'Project created. Connect its data sources next.',
  google: 'Google is connected.',
  'google-unread': 'Google is connected, but reading a source with it failed; the reason is shown below.',
  'google-disconnected': 'Google was disconnected and the access revoked.',
  'google-unrevoked': 'Google was disconnected here. It was connected before Siteline tracked Google accounts, so its access at Google was not revoked: remove Siteline at myaccount.google.com → Security → Third-party access if no other project uses that account.',
  'google-shared': 'Google was disconnected here. Other projects use the same Google account, so its access at Google was kept for them.',
  'google-kept': 'Google was disconnected here; Google could not be reached to revoke the access, so remove Siteline at myaccount.google.com → Security → Third-party access.',
  engine2: 'Bing is connected.',
  'engine2-disconnected': 'Bing was disconnected; its key is deleted.',
};

/** Bing ignores siteUrl for GetUserSites, but the client needs one for its circuit-breaker target. */
const ANY_SITE = 'https://user-sites.invalid/';

export function mountSourceRoutes(app: H3, deps: DashboardDeps): void {
  const { db, sessions } = deps.web;
  const secure = sessions.secure;
  const guard = createGuard(deps);

  async function sourcesPage(session: Session, project: ProjectRecord, extra: { notice?: string; error?: string } = {}, status = 200) {
    const sources = await listSources(db, project.id);
    return dashboardPage({
      title: `${project.name} · Data sources`,
      session,
      current: 'projects',
      secure,
      status,
      formActions: deps.google ? [deps.google.flow.authOrigin] : [],
      body: h`${projectHeader(project, 'sources')}${sourcesBody({ csrf: session.csrf, project, sources, googleConfigured: deps.google !== undefined, ...(deps.demo ? { demoBingKeyFile: deps.demo.bingKeyFile } : {}), ...extra })}`,
    });
  }

  app.get('/dashboard/p/:key/sources', async (event) => {
    const found = await guard.projectGet(event.req, event.context.params?.key);
    if (found instanceof Response) return found;
    const { session, project } = found;
    const done = new URL(event.req.url).searchParams.get('done');
    return sourcesPage(session, project, { notice: done ? NOTICES[done] : undefined });
  });

  /** Bing refused the key or could not be reached: say which, that nothing was saved, and where a key comes from. */
  function bingProblem(session: Session, project: ProjectRecord, error: AppError): Response {
    const refused = error.code === 'upstream_credential_invalid';
    const demoKey = deps.demo ? h` In this demo the sandbox’s key is in <code>${deps.demo.bingKeyFile}</code>; any other key is checked with the real Bing.` : '';
    return problemPage({
      title: refused ? 'Bing refused the key' : 'Bing could not be reached',
      message: refused ? 'Bing Webmaster Tools did not accept this API key (it is mistyped, was regenerated, or belongs to no account). Nothing was saved.' : `Checking the key failed: ${error.message} Nothing was saved.`,
      next: h`Copy the key again from Bing Webmaster Tools (Settings → API access) and <a href="/dashboard/p/${encodeURIComponent(project.key)}/sources">paste it on the Data sources page</a>.${demoKey}`,
      status: refused ? 400 : 502,
      session,
      secure,
    });
  }

  app.post('/dashboard/p/:key/connect/engine2', async (event) => {
    const post = await guard.projectPost(event.req, event.context.params?.key, 'source.connect');
    if (post instanceof Response) return post;
    const { session, project, form } = post;
    const base = `/dashboard/p/${encodeURIComponent(project.key)}`;
    const apiKey = (form.get('api_key') ?? '').trim();
    if (!apiKey || /\s/.test(apiKey) || apiKey.length > 200) return sourcesPage(session, project, { error: 'Paste the Bing API key: one word, without spaces. Nothing was saved.' }, 400);
    const wanted = form.get('site_url');
    if (wanted !== null) {
      // The same probe as the CLI's: the key lists the site, verified; only then is it stored, as OK.
      // A refusal of the write itself (the role changed meanwhile) goes on to the dashboard's error page.
      const credential = { kind: 'api_key' as const, secret: apiKey };
      const connected = await connectDataSource({ ...writeDeps(deps), box: deps.box, providers: deps.providers }, sessionActor(session), project, 'engine2', { siteUrl: wanted, credential, check: true, force: false }).catch((error: unknown) => {
        if (isAppError(error) && (error.provider !== undefined || error.status === 400)) return error;
        throw error;
      });
      if (!isAppError(connected)) return redirectResponse(`${base}/sources?done=engine2`);
      if (connected.status === 400 || connected.code === 'upstream_permission_denied') return sourcesPage(session, project, { error: `${connected.message} Nothing was saved.` }, 400);
      return bingProblem(session, project, connected);
    }
    let sites: { url: string; verified: boolean }[];
    try {
      sites = await deps.providers.engine2(apiKey, ANY_SITE).getUserSites();
    } catch (error) {
      if (!isAppError(error)) throw error;
      return bingProblem(session, project, error);
    }
    if (sites.length === 0) return sourcesPage(session, project, { error: 'The key works, but no site is verified for it in Bing Webmaster Tools. Add and verify your site there first.' }, 400);
    const preselected = matchSite(project.domain, sites.map((s) => s.url));
    return dashboardPage({
      title: `${project.name} · Pick a Bing site`,
      session,
      current: 'projects',
      secure,
      body: h`${projectHeader(project, 'sources')}<h2>Pick the Bing site</h2><p>The key works. Which of its sites is <strong>${project.domain}</strong>?</p>
<form method="post" action="${base}/connect/engine2">${csrfField(session.csrf)}<input type="hidden" name="api_key" value="${apiKey}">
${choiceGroup({ name: 'site_url', legend: 'Bing sites', choices: sites.map((s) => ({ value: s.url, label: `${s.url}${s.verified ? '' : ' (not verified)'}` })), selected: preselected })}
<div class="row"><button class="primary" type="submit">Connect Bing</button><a href="${base}/sources">Cancel</a></div></form>`,
    });
  });

  app.post('/dashboard/p/:key/disconnect/engine2', async (event) => {
    const post = await guard.projectPost(event.req, event.context.params?.key, 'source.disconnect');
    if (post instanceof Response) return post;
    const sources = `/dashboard/p/${encodeURIComponent(post.project.key)}/sources`;
    if (!isConfirmed(post.form)) {
      const message = `Siteline forgets the Bing key of ${post.project.name}: its search numbers from Bing stop until someone connects Bing again.`;
      return confirmationPage(post.session, secure, { title: 'Disconnect Bing?', message, action: `/dashboard/p/${encodeURIComponent(post.project.key)}/disconnect/engine2`, fields: {}, button: 'Disconnect Bing', back: sources });
    }
    await disconnectSources(writeDeps(deps), sessionActor(post.session), post.project, ['engine2']);
    return redirectResponse(`/dashboard/p/${encodeURIComponent(post.project.key)}/sources?done=engine2-disconnected`);
  });
}
