// The checks every dashboard route starts with: a signed-in session (else to sign-in and back), for POSTs a
// same-origin form with the session's CSRF token, and for project pages the account's role on the project (one 404
// for unknown and unshared alike; 403 saying which role is needed when the role does not allow the page's action,
// decided by the policy table in src/domain/access-policy.ts). Also the principal and actor the session acts as.
import { h } from '../account/html.ts';
import { redirectResponse } from '../account/html.ts';
import type { Session } from '../account/sessions.ts';
import type { Principal } from '../auth/principal.ts';
import { allows, type ProjectAction } from '../domain/access-policy.ts';
import { roleRefusal } from '../domain/access-refusal.ts';
import { readFormBody } from '../http/read-body.ts';
import { roleOnProject } from '../store/project-roles-repository.ts';
import { getProjectByKey, type ProjectRecord } from '../store/projects-repository.ts';
import { accountActor, type Actor } from '../writes/actor.ts';
import type { WriteDeps } from '../writes/write-deps.ts';
import type { DashboardDeps } from './dashboard-deps.ts';
import { problemPage } from './layout.ts';

/** A project as its page sees it: with the signed-in account's role on it. */
export type RoledProject = ProjectRecord & Required<Pick<ProjectRecord, 'role'>>;

export interface Guard {
  session(request: Request): Promise<Session | Response>;
  post(request: Request): Promise<{ session: Session; form: URLSearchParams } | Response>;
  project(session: Session, key: string | undefined, action: ProjectAction): Promise<RoledProject | Response>;
  /** A project page: the session and the project it names, when the account's role allows `action` (default: reading). */
  projectGet(request: Request, key: string | undefined, action?: ProjectAction): Promise<{ session: Session; project: RoledProject } | Response>;
  /** A project form: the guarded form plus the project it names, when the account's role allows `action`. */
  projectPost(request: Request, key: string | undefined, action: ProjectAction): Promise<{ session: Session; form: URLSearchParams; project: RoledProject } | Response>;
  notFound(session: Session, what: string): Response;
  /** The page for a refused action (a role that does not allow it). */
  refused(session: Session, message: string): Response;
}

export function createGuard(deps: DashboardDeps): Guard {
  const { sessions } = deps.web;
  const secure = sessions.secure;
  const signIn = (request: Request) => {
    const url = new URL(request.url);
    return redirectResponse(`/account/sign-in?return_to=${encodeURIComponent(`${url.pathname}${url.search}`)}`, {}, request.method === 'GET' ? 302 : 303);
  };
  const notFound = (session: Session, what: string) =>
    problemPage({ title: 'Not found', message: `${what} does not exist or is not shared with you.`, next: h`<a href="/dashboard">Back to your projects</a>`, status: 404, session, secure });
  const refused = (session: Session, message: string) =>
    problemPage({ title: 'Not allowed', message: `${message} Nothing was changed.`, next: h`Ask an admin of the project for another role, or <a href="/dashboard">go back to your projects</a>.`, status: 403, session, secure });

  const guard: Guard = {
    async session(request) {
      return (await sessions.read(request)) ?? signIn(request);
    },
    async post(request) {
      const session = await sessions.read(request);
      if (!session) return signIn(request);
      const form = await readFormBody(request);
      if (!form) return refusedForm(session, secure);
      if (!sessions.sameOrigin(request) || !sessions.checkCsrf(session, form.get('csrf'))) {
        return problemPage({
          title: 'Request refused',
          message: 'The form expired or came from another site, so nothing was changed.',
          next: h`Go back, reload the page and try again.`,
          status: 403,
          session,
          secure,
        });
      }
      return { session, form };
    },
    async project(session, key, action) {
      const project = key ? await getProjectByKey(deps.web.db, key) : undefined;
      const role = project && (await roleOnProject(deps.web.db, session.account.id, project.id));
      if (!project || !role) return notFound(session, `The project '${key ?? ''}'`);
      if (!allows(action, role)) return refused(session, roleRefusal(action, role, project.key).message);
      return { ...project, role };
    },
    async projectGet(request, key, action = 'project.read') {
      const session = await guard.session(request);
      if (session instanceof Response) return session;
      const project = await guard.project(session, key, action);
      return project instanceof Response ? project : { session, project };
    },
    async projectPost(request, key, action) {
      const post = await guard.post(request);
      if (post instanceof Response) return post;
      const project = await guard.project(post.session, key, action);
      return project instanceof Response ? project : { ...post, project };
    },
    notFound,
    refused,
  };
  return guard;
}

/**
 * A body that is not a form at all: nothing was read or changed. (A form past its cap never gets here: the reader
 * throws `payload_too_large`, answered as a page by the dashboard's error page or, outside /dashboard, the app's.)
 */
export function refusedForm(session: Session | undefined, secure: boolean): Response {
  return problemPage({ title: 'Request refused', message: 'This address takes a form sent by its page, so nothing was changed.', next: h`Go back, reload the page and try again.`, status: 415, session, secure });
}

/** A signed-in browser reads as its account with every project it may see (read scope only). */
export function sessionPrincipal(session: Session): Principal {
  return { kind: 'oauth', accountId: session.account.id, credentialId: `session:${session.digest.slice(0, 16)}`, scopes: new Set(['read']), projectKeys: null };
}

/** The session's account, writing through the dashboard. */
export function sessionActor(session: Session): Actor {
  return accountActor(session.account.id, 'dashboard');
}

export function writeDeps(deps: DashboardDeps): WriteDeps {
  return { db: deps.web.db, clock: deps.web.clock };
}
