// The checks every dashboard route starts with: a signed-in session (else to sign-in and back), for POSTs a
// same-origin form with the session's CSRF token, and for project pages access to the project (else one 404 for
// unknown and invisible alike). Also the principal the session's reads run as.
import { h } from '../account/html.ts';
import { redirectResponse } from '../account/html.ts';
import type { Session } from '../account/sessions.ts';
import type { Principal } from '../auth/principal.ts';
import { readFormBody } from '../http/read-body.ts';
import { getProjectByKey, accountMaySeeProject, type ProjectRecord } from '../store/projects-repository.ts';
import type { DashboardDeps } from './dashboard-deps.ts';
import { problemPage } from './layout.ts';

export interface Guard {
  session(request: Request): Promise<Session | Response>;
  post(request: Request): Promise<{ session: Session; form: URLSearchParams } | Response>;
  project(session: Session, key: string | undefined): Promise<ProjectRecord | Response>;
  /** A project page: the session and the project it names. */
  projectGet(request: Request, key: string | undefined): Promise<{ session: Session; project: ProjectRecord } | Response>;
  /** A project form: the guarded form plus the project it names. */
  projectPost(request: Request, key: string | undefined): Promise<{ session: Session; form: URLSearchParams; project: ProjectRecord } | Response>;
  notFound(session: Session, what: string): Response;
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

  const guard: Guard = {
    async session(request) {
      return (await sessions.read(request)) ?? signIn(request);
    },
    async post(request) {
      const session = await sessions.read(request);
      if (!session) return signIn(request);
      const form = await readFormBody(request);
      if (!form || !sessions.sameOrigin(request) || !sessions.checkCsrf(session, form.get('csrf'))) {
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
    async project(session, key) {
      const project = key ? await getProjectByKey(deps.web.db, key) : undefined;
      if (!project || !(await accountMaySeeProject(deps.web.db, session.account.id, project.id))) return notFound(session, `The project '${key ?? ''}'`);
      return project;
    },
    async projectGet(request, key) {
      const session = await guard.session(request);
      if (session instanceof Response) return session;
      const project = await guard.project(session, key);
      return project instanceof Response ? project : { session, project };
    },
    async projectPost(request, key) {
      const post = await guard.post(request);
      if (post instanceof Response) return post;
      const project = await guard.project(post.session, key);
      return project instanceof Response ? project : { ...post, project };
    },
    notFound,
  };
  return guard;
}

/** A signed-in browser reads as its account with every project it may see (read scope only). */
export function sessionPrincipal(session: Session): Principal {
  return { kind: 'oauth', accountId: session.account.id, credentialId: `session:${session.digest.slice(0, 16)}`, scopes: new Set(['read']), projectKeys: null };
}
