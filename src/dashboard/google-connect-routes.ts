// "Connect Google": POST starts Google's web-server flow for a project (state bound to this browser session,
// PKCE verifier kept sealed server-side), the callback exchanges the code, and the picker stores the refresh
// token with the chosen GA4 property and Search Console site in one transaction (through the write service, which
// checks the role and audits), each with what one call with that token found (OK only when it succeeded). Cancel,
// a foreign, stale or replayed state, and a failed exchange end on a page that says so; nothing reaches the project
// before the picker. Google's consent screen lets the user tick either permission: what was granted is connected,
// and the picker says how to add the other. The connection is stored against the Google account that consented (one
// grant per account, store/google-grants-repository.ts): revoking at Google would cut every project on that account,
// so Cancel never revokes, an unfinished flow's tokens are revoked only when nothing else uses the account, and
// Disconnect says beforehand which other projects keep the access (google-flow-tokens.ts).
import type { H3 } from 'h3';
import { newSecret } from '../auth/oauth/secrets.ts';
import { h, redirectResponse, type SafeHtml } from '../account/html.ts';
import type { Session } from '../account/sessions.ts';
import { googleErrorCode, type GoogleTokens } from '../providers/google-web/google-web-flow.ts';
import { isConfirmed } from '../account/confirm-form.ts';
import { probeConnection } from '../connections/connect-data-source.ts';
import { deleteFlow, expireFlow, findFlow, findFlowByState, saveFlowTokens, startFlow, type ConnectFlow } from '../store/google-connect-flows-repository.ts';
import { grantsOfProject, releaseGoogleSubjects, type GrantRelease } from '../store/google-grants-repository.ts';
import { getProjectByKey, type ProjectRecord } from '../store/projects-repository.ts';
import type { DashboardDeps } from './dashboard-deps.ts';
import { connectSources, disconnectSources } from '../writes/source-writes.ts';
import { dropFlow, revokeFlowTokens, starterMayConnect } from './google-flow-tokens.ts';
import { createGuard, sessionActor, writeDeps } from './guard.ts';
import { confirmationPage, csrfField, dashboardPage, problemPage } from './layout.ts';
import { matchProperty, matchSite } from './match-domain.ts';
import { projectHeader } from './project-pages.ts';
import { choiceGroup } from './source-pages.ts';

const CALLBACK = '/dashboard/connect/google/callback';
const ANALYTICS_SCOPE = 'analytics.readonly';
const SEARCH_CONSOLE_SCOPE = 'webmasters.readonly';

/** Which of the two read permissions the user ticked on Google's consent screen. */
function grantedOf(tokens: GoogleTokens): { analytics: boolean; searchConsole: boolean } {
  const scopes = tokens.scope.split(/\s+/);
  return { analytics: scopes.some((s) => s.endsWith(ANALYTICS_SCOPE)), searchConsole: scopes.some((s) => s.endsWith(SEARCH_CONSOLE_SCOPE)) };
}

/** What Disconnect does to the Google account's access, said before it is done. */
function releaseSentence(releases: readonly GrantRelease[]): string {
  if (releases.length === 0) return 'Its access at Google is not revoked (it was connected before Siteline tracked Google accounts): remove Siteline at myaccount.google.com → Security → Third-party access if no other project uses that account.';
  return releases
    .map((r) => {
      const account = r.email ?? 'the Google account';
      if (r.keptFor.length === 0) return `No other project uses ${account}, so Siteline revokes its access at Google.`;
      return `${account} stays connected for ${r.keptFor.map((p) => p.name).join(', ')}, so its access at Google is kept and those projects keep working.`;
    })
    .join(' ');
}

export function mountGoogleConnectRoutes(app: H3, deps: DashboardDeps): void {
  const { db, sessions, clock } = deps.web;
  const secure = sessions.secure;
  const guard = createGuard(deps);
  // Back to the host the browser is on (its session cookie lives there): localhost or 127.0.0.1 in the demo.
  const redirectUriOf = (request: Request) => `${sessions.originOf(request)}${CALLBACK}`;
  const sourcesUrl = (project: { key: string }) => `/dashboard/p/${encodeURIComponent(project.key)}/sources`;

  const failed = (session: Session, title: string, message: string, next: SafeHtml, status = 400) => problemPage({ title, message, next, status, session, secure });
  const notConfigured = (session: Session) =>
    failed(session, 'Google is not configured', 'This Siteline has no Google OAuth client (GOOGLE_OAUTH_CLIENT_ID / GOOGLE_OAUTH_CLIENT_SECRET).', h`Ask the operator to configure one, or <a href="/dashboard">go back</a>.`, 503);

  async function projectOf(flow: ConnectFlow): Promise<ProjectRecord | undefined> {
    const row = await db.selectFrom('projects').select('key').where('id', '=', flow.projectId).executeTakeFirst();
    return row && getProjectByKey(db, row.key);
  }

  /** The page for a flow whose starter lost the right to connect sources: the flow is gone, its tokens revoked. */
  const starterRefused = async (session: Session, flow: ConnectFlow) => {
    await dropFlow(db, deps.google, flow, clock());
    return failed(session, 'Google was not connected', 'The account that started this connection may no longer connect data sources to the project, so the connection was cancelled.', h`<a href="/dashboard">Back to your projects</a>`, 403);
  };

  app.post('/dashboard/p/:key/connect/google', async (event) => {
    const post = await guard.projectPost(event.req, event.context.params?.key, 'source.connect');
    if (post instanceof Response) return post;
    const { project } = post;
    if (!deps.google) return notConfigured(post.session);
    const state = newSecret();
    const started = await deps.google.flow.start({ state, redirectUri: redirectUriOf(event.req), loginHint: post.session.account.email });
    await startFlow(db, deps.box, { state, accountId: post.session.account.id, projectId: project.id, sessionDigest: post.session.digest, verifier: started.verifier, now: clock() });
    return redirectResponse(started.url);
  });

  app.get(CALLBACK, async (event) => {
    const session = await guard.session(event.req);
    if (session instanceof Response) return session;
    if (!deps.google) return notConfigured(session);
    const params = new URL(event.req.url).searchParams;
    const flow = await findFlowByState(db, deps.box, params.get('state') ?? '', clock());
    if (!flow || flow.sessionDigest !== session.digest) {
      return failed(session, 'Google sign-in not recognised', 'This answer from Google does not belong to a “Connect Google” started in this browser session (unknown or expired state), so it was ignored and nothing was saved.', h`Open the project’s Data sources page and choose Connect Google again. <a href="/dashboard">Your projects</a>`);
    }
    if (!(await starterMayConnect(db, flow))) return starterRefused(session, flow);
    const project = await projectOf(flow);
    const back = project ? h`<a href="${sourcesUrl(project)}">Back to Data sources</a> to try again.` : h`<a href="/dashboard">Back to your projects</a>.`;
    if (flow.tokens !== null) {
      // Google answers each consent once: a second answer for this state is a replay (or a reload); the grant the
      // first one brought is revoked rather than left behind.
      await dropFlow(db, deps.google, flow, clock());
      return failed(session, 'Google was not connected', 'Google’s answer for this connection arrived twice, so the connection was cancelled. Nothing was saved.', back, 409);
    }
    const error = params.get('error');
    if (error !== null || !params.get('code')) {
      await deleteFlow(db, flow.id);
      if (error === 'access_denied') return failed(session, 'Google was not connected', 'You cancelled on Google’s consent screen, so Siteline got no access and nothing was saved.', back, 200);
      return failed(session, 'Google was not connected', `Google answered with the error “${error ?? 'no code'}”. Nothing was saved.`, back);
    }
    let tokens: GoogleTokens;
    try {
      tokens = await deps.google.flow.exchange({ code: params.get('code')!, verifier: flow.verifier, redirectUri: redirectUriOf(event.req) });
    } catch (thrown) {
      await deleteFlow(db, flow.id);
      return failed(session, 'Google was not connected', `Exchanging Google’s answer failed (${googleErrorCode(thrown) ?? 'no answer'}). Nothing was saved.`, back, 502);
    }
    const granted = grantedOf(tokens);
    if (!granted.analytics && !granted.searchConsole) {
      await deleteFlow(db, flow.id);
      await revokeFlowTokens(db, deps.google, { id: flow.id, tokens: JSON.stringify(tokens), subject: tokens.subject ?? null }, clock());
      return failed(session, 'Google was not connected', 'Neither box was ticked on Google’s screen, so Siteline may read nothing. Nothing was saved. Next time tick “See and download your Google Analytics data”, “View Search Console data for your verified sites”, or both.', back);
    }
    await saveFlowTokens(db, deps.box, flow.id, JSON.stringify(tokens), tokens.subject ?? null);
    return redirectResponse(`/dashboard/connect/google/${flow.id}`, {}, 302);
  });

  /** The session's flow that has tokens, with its project; or the page explaining why not. */
  async function pendingFlow(session: Session, id: string | undefined): Promise<{ flow: ConnectFlow; tokens: GoogleTokens; project: ProjectRecord } | Response> {
    const flow = id ? await findFlow(db, deps.box, id, clock()) : undefined;
    const project = flow && (await projectOf(flow));
    if (!flow || !flow.tokens || flow.sessionDigest !== session.digest || !project) {
      return failed(session, 'Connection expired', 'This Google connection is not waiting for a choice any more (finished, cancelled, expired after an hour, or started in another browser session).', h`<a href="/dashboard">Back to your projects</a>`, 410);
    }
    if (!(await starterMayConnect(db, flow))) return starterRefused(session, flow);
    return { flow, tokens: JSON.parse(flow.tokens) as GoogleTokens, project };
  }

  /** The lists for the permissions granted (a list not granted is empty). */
  async function lists(tokens: GoogleTokens) {
    const granted = grantedOf(tokens);
    const [properties, sites] = await Promise.all([granted.analytics ? deps.google!.flow.listProperties(tokens) : [], granted.searchConsole ? deps.google!.flow.listSites(tokens) : []]);
    return { properties, sites, granted };
  }

  app.get('/dashboard/connect/google/:flow', async (event) => {
    const session = await guard.session(event.req);
    if (session instanceof Response) return session;
    if (!deps.google) return notConfigured(session);
    const pending = await pendingFlow(session, event.context.params?.flow);
    if (pending instanceof Response) return pending;
    const { project, tokens, flow } = pending;
    let found: Awaited<ReturnType<typeof lists>>;
    try {
      found = await lists(tokens);
    } catch (thrown) {
      return failed(session, 'Google lists unavailable', `Listing your Analytics properties and Search Console sites failed (${googleErrorCode(thrown) ?? 'no answer'}).`, h`Reload this page to try again, or <a href="${sourcesUrl(project)}">start over</a>.`, 502);
    }
    const property = matchProperty(project.domain, project.name, found.properties);
    const site = matchSite(project.domain, found.sites.map((s) => s.siteUrl));
    const action = `/dashboard/connect/google/${flow.id}`;
    const missing = !found.granted.analytics ? 'Google Analytics' : !found.granted.searchConsole ? 'Search Console' : undefined;
    const addLater = missing
      ? h`<p class="hint" role="note">You did not allow ${missing}, so only ${missing === 'Search Console' ? 'Google Analytics' : 'Search Console'} is connected now. To add ${missing} later, choose Reconnect Google on the Data sources page and tick its box on Google’s screen.</p>`
      : '';
    return dashboardPage({
      title: `${project.name} · Pick property and site`,
      session,
      current: 'projects',
      secure,
      body: h`${projectHeader(project, 'sources')}<h2>Pick what belongs to ${project.domain}</h2>
<p>Google granted read-only access${tokens.email ? h` as ${tokens.email}` : ''}. Choose what belongs to this project.</p>${addLater}
${found.granted.analytics && found.properties.length === 0 ? h`<p class="error" role="alert">This Google account cannot read any GA4 property.</p>` : ''}
<form method="post" action="${action}">${csrfField(session.csrf)}
${found.granted.analytics ? choiceGroup({ name: 'property_id', legend: 'Google Analytics 4 property', choices: found.properties.map((p) => ({ value: p.propertyId, label: `${p.displayName} (${p.propertyId})${p.accountName ? ` · ${p.accountName}` : ''}` })), selected: property?.propertyId }) : ''}
${found.granted.searchConsole ? choiceGroup({ name: 'site_url', legend: 'Search Console site', choices: found.sites.map((s) => ({ value: s.siteUrl, label: s.siteUrl })), selected: site, none: found.granted.analytics ? 'Do not connect Search Console' : undefined }) : ''}
<div class="row"><button class="primary" type="submit" name="decision" value="save">Connect</button><button type="submit" name="decision" value="cancel" formnovalidate>Cancel</button></div></form>`,
    });
  });

  app.post('/dashboard/connect/google/:flow', async (event) => {
    const post = await guard.post(event.req);
    if (post instanceof Response) return post;
    const { session, form } = post;
    if (!deps.google) return notConfigured(session);
    const pending = await pendingFlow(session, event.context.params?.flow);
    if (pending instanceof Response) return pending;
    const { flow, tokens, project } = pending;
    if (form.get('decision') === 'cancel') {
      // Never revoked here: the token may belong to a Google account other projects use. The sweep decides.
      await expireFlow(db, flow.id, clock());
      return redirectResponse(sourcesUrl(project));
    }
    const found = await lists(tokens).catch(() => undefined);
    const propertyId = form.get('property_id') ?? '';
    const siteUrl = form.get('site_url') ?? '';
    const propertyOk = found && (found.granted.analytics ? found.properties.some((p) => p.propertyId === propertyId) : propertyId === '');
    const siteOk = found && (siteUrl === '' ? found.granted.analytics : found.sites.some((s) => s.siteUrl === siteUrl));
    if (!found || !propertyOk || !siteOk) {
      return failed(session, 'Choose again', 'The property or site is not one this Google account can read. Nothing was saved.', h`<a href="/dashboard/connect/google/${flow.id}">Back to the choice</a>`);
    }
    const secret = JSON.stringify({ client_id: deps.google.clientId, client_secret: deps.google.clientSecret, refresh_token: tokens.refreshToken });
    const credential = { kind: 'oauth_refresh_token' as const, secret };
    // One call per source with the stored credential, as the provider clients will make it: OK only once one worked.
    const probed = await Promise.all([
      ...(propertyId ? [probeConnection(deps.providers, 'analytics', { propertyId, credential, check: true })] : []),
      ...(siteUrl ? [probeConnection(deps.providers, 'engine1', { siteUrl, credential, check: true })] : []),
    ]);
    const googleGrant = tokens.subject ? { clientId: deps.google.clientId, subject: tokens.subject, email: tokens.email ?? null, scopes: tokens.scope, refreshToken: tokens.refreshToken } : undefined;
    const disconnect = !siteUrl && found.granted.searchConsole ? (['engine1'] as const) : [];
    const connected = await connectSources({ ...writeDeps(deps), box: deps.box }, sessionActor(session), project, probed, { disconnect, flowId: flow.id, ...(googleGrant ? { googleGrant } : {}) });
    await revokeReleased(connected.released);
    const unread = probed.some((connection) => connection.check?.ok === false);
    return redirectResponse(`${sourcesUrl(project)}?done=${unread ? 'google-unread' : 'google'}`);
  });

  /** Revokes at Google the grants nothing uses any more; false when Google could not be told. */
  async function revokeReleased(releases: readonly GrantRelease[]): Promise<boolean> {
    let revoked = true;
    for (const { revokeToken } of releases) {
      if (!revokeToken) continue;
      // invalid_token: already revoked at Google, which is what we want.
      await deps.google!.flow.revoke(revokeToken).catch((thrown: unknown) => {
        if (googleErrorCode(thrown) !== 'invalid_token') revoked = false;
      });
    }
    return revoked;
  }

  app.post('/dashboard/p/:key/disconnect/google', async (event) => {
    const post = await guard.projectPost(event.req, event.context.params?.key, 'source.disconnect');
    if (post instanceof Response) return post;
    const { project } = post;
    const grants = await grantsOfProject(db, project.id, ['analytics', 'engine1']);
    if (!isConfirmed(post.form)) {
      const preview = await releaseGoogleSubjects(db, deps.box, grants, clock(), { preview: { leavingProjectId: project.id } });
      const message = `Siteline forgets the Analytics and Search Console connections of ${project.name}; their numbers stop until someone connects Google again. ${releaseSentence(preview)}`;
      return confirmationPage(post.session, secure, { title: 'Disconnect Google?', message, action: `/dashboard/p/${encodeURIComponent(project.key)}/disconnect/google`, fields: {}, button: 'Disconnect Google', back: sourcesUrl(project) });
    }
    const { released } = await disconnectSources({ ...writeDeps(deps), box: deps.box }, sessionActor(post.session), project, ['analytics', 'engine1']);
    const revoked = deps.google ? await revokeReleased(released) : false;
    const outcome = released.length === 0 ? 'google-unrevoked' : !revoked ? 'google-kept' : released.some((r) => r.revokeToken) ? 'google-disconnected' : 'google-shared';
    return redirectResponse(`${sourcesUrl(project)}?done=${outcome}`);
  });
}
