// /account and its forms: create, rotate and revoke API keys, disconnect apps (through the write service, which
// audits; revoking and disconnecting ask for confirmation first). Every POST needs the session, its CSRF token and a
// same-origin request. A created or rotated key is rendered into the POST's own response (never stored, never
// redirected through a URL), so it is shown exactly once.
import type { H3 } from 'h3';
import { isAppError } from '../errors/app-error.ts';
import { readFormBody } from '../http/read-body.ts';
import { listSourcesForProjects } from '../store/data-sources-repository.ts';
import { listFunnelsForProjects } from '../store/funnels-repository.ts';
import { listProjectsForAccount } from '../store/projects-repository.ts';
import { isScope, type Scope } from '../auth/scopes.ts';
import { accountActor } from '../writes/actor.ts';
import { createKey, revokeApp, revokeKey, rotateKey } from '../writes/key-writes.ts';
import { confirmationBody, isConfirmed, type Confirmation } from './confirm-form.ts';
import { newNonce, pageResponse, redirectResponse } from './html.ts';
import type { Session } from './sessions.ts';
import { settingsBody, type SettingsView } from './settings-page.ts';
import { errorPage } from './sign-in-page.ts';
import type { WebDeps } from './web-deps.ts';

const NOTICES: Record<string, string> = {
  'key-revoked': 'The key was revoked. Requests with it are refused from now on.',
  'app-revoked': 'The app was disconnected. Its tokens stop working now.',
};

export function mountSettingsRoutes(app: H3, deps: WebDeps): void {
  const { sessions } = deps;
  const secure = sessions.secure;

  async function render(session: Session, extra: Pick<SettingsView, 'issued' | 'notice' | 'error'> = {}, status = 200): Promise<Response> {
    const accountId = session.account.id;
    const projects = await listProjectsForAccount(deps.db, accountId);
    const projectIds = projects.map((p) => p.id);
    const [keys, grants, sources, funnels] = await Promise.all([
      deps.apiKeys.list(accountId),
      deps.oauth.listGrants(accountId),
      listSourcesForProjects(deps.db, projectIds),
      listFunnelsForProjects(deps.db, projectIds),
    ]);
    const nonce = newNonce();
    return pageResponse({
      title: 'Account settings',
      nonce,
      secure,
      status,
      body: settingsBody({ account: session.account, csrf: session.csrf, nonce, keys, grants, projects, sources, funnels, ...extra }),
    });
  }

  /** The session and form of a settings POST, or the response refusing it. */
  async function authorizePost(request: Request): Promise<{ session: Session; form: URLSearchParams } | Response> {
    const session = await sessions.read(request);
    if (!session) return redirectResponse('/account/sign-in?return_to=%2Faccount');
    const form = await readFormBody(request);
    if (!form || !sessions.sameOrigin(request) || !sessions.checkCsrf(session, form.get('csrf'))) {
      return errorPage({ title: 'Request refused', message: 'The form expired or came from another site. Reload the page and try again.', status: 403, nonce: newNonce(), secure });
    }
    return { session, form };
  }

  /** Runs a key action; expected errors (bad name, unknown key) re-render the page with the message. */
  async function attempt(session: Session, action: () => Promise<Response>): Promise<Response> {
    try {
      return await action();
    } catch (error) {
      if (isAppError(error) && error.status < 500) return render(session, { error: error.message }, error.status);
      throw error;
    }
  }

  const writes = { db: deps.db, clock: deps.clock };
  const keyWrites = { ...writes, apiKeys: deps.apiKeys };
  const actor = (session: Session) => accountActor(session.account.id, 'dashboard');

  /** The confirmation step of revoking a key or disconnecting an app. */
  function confirm(session: Session, view: Omit<Confirmation, 'csrf' | 'back'>): Response {
    return pageResponse({ title: view.title, nonce: newNonce(), secure, body: confirmationBody({ ...view, csrf: session.csrf, back: '/account' }) });
  }

  app.get('/account', async (event) => {
    const session = await sessions.read(event.req);
    if (!session) return redirectResponse('/account/sign-in?return_to=%2Faccount', {}, 302);
    const done = new URL(event.req.url).searchParams.get('done');
    return render(session, { notice: done ? NOTICES[done] : undefined });
  });

  app.post('/account/keys', async (event) => {
    const post = await authorizePost(event.req);
    if (post instanceof Response) return post;
    const { session, form } = post;
    return attempt(session, async () => {
      const scopes = form.getAll('scope').filter(isScope) as Scope[];
      const days = Number(form.get('expires_days') || 0);
      const expiresAt = Number.isInteger(days) && days > 0 && days <= 3650 ? new Date(deps.clock().getTime() + days * 86_400_000) : undefined;
      const issued = await createKey(keyWrites, actor(session), session.account.id, { name: form.get('name') ?? '', scopes: scopes.length ? scopes : ['read'], expiresAt });
      return render(session, { issued: { key: issued.key, name: issued.record.name } }, 201);
    });
  });

  app.post('/account/keys/rotate', async (event) => {
    const post = await authorizePost(event.req);
    if (post instanceof Response) return post;
    const { session, form } = post;
    return attempt(session, async () => {
      const rotated = await rotateKey(keyWrites, actor(session), session.account.id, form.get('key_id') ?? '');
      return render(session, { issued: { key: rotated.key, name: rotated.record.name }, notice: 'The old key keeps working for 24 hours, then expires.' }, 201);
    });
  });

  app.post('/account/keys/revoke', async (event) => {
    const post = await authorizePost(event.req);
    if (post instanceof Response) return post;
    const { session, form } = post;
    const keyId = form.get('key_id') ?? '';
    if (!isConfirmed(form)) {
      const key = (await deps.apiKeys.list(session.account.id)).find((k) => k.id === keyId);
      const named = key ? `“${key.name}” (${key.prefix}…${key.last4})` : 'this key';
      const message = `Requests with ${named} are refused at once, on every server. Programs and MCP clients using it need a new key.`;
      return confirm(session, { title: 'Revoke this key?', message, action: '/account/keys/revoke', fields: { key_id: keyId }, button: 'Revoke key' });
    }
    return attempt(session, async () => {
      await revokeKey(keyWrites, actor(session), session.account.id, keyId);
      return redirectResponse('/account?done=key-revoked');
    });
  });

  app.post('/account/apps/revoke', async (event) => {
    const post = await authorizePost(event.req);
    if (post instanceof Response) return post;
    const { session, form } = post;
    const grantId = form.get('grant_id') ?? '';
    if (!isConfirmed(form)) {
      const grant = (await deps.oauth.listGrants(session.account.id)).find((g) => g.id === grantId);
      const message = `${grant ? `“${grant.clientName}”` : 'This app'} loses its access to your projects at once; it has to ask you again to reconnect.`;
      return confirm(session, { title: 'Disconnect this app?', message, action: '/account/apps/revoke', fields: { grant_id: grantId }, button: 'Disconnect app' });
    }
    return attempt(session, async () => {
      await revokeApp(writes, actor(session), session.account.id, grantId);
      return redirectResponse('/account?done=app-revoked');
    });
  });
}
