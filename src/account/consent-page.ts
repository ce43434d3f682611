// The OAuth consent screen: which app (and where it sends the user back), what it may do in plain words,
// which projects it will see (all by default, narrowable), approve or deny.
import type { AuthorizationRequest } from '../auth/oauth/authorization-request.ts';
import { AUTHORIZATION_PARAMS } from '../auth/oauth/authorization-request.ts';
import type { OAuthScope } from '../auth/oauth/oauth-config.ts';
import { redirectTargetLabel } from '../auth/oauth/redirect-uris.ts';
import type { ProjectRecord } from '../store/projects-repository.ts';
import { h, type SafeHtml } from './html.ts';

export const SCOPE_WORDS: Record<OAuthScope, string> = {
  read: 'Read the analytics, search and funnel data of the projects selected below.',
  'mcp:write': 'Create funnels in those projects (the app shows each funnel and asks you to confirm it first).',
  offline_access: 'Stay connected without asking you again.',
};

export interface ConsentView {
  request: AuthorizationRequest;
  /** The raw parameters, carried back by the form and checked again. */
  params: URLSearchParams;
  email: string;
  csrf: string;
  projects: ProjectRecord[];
  /** Keys ticked in a re-rendered form; undefined = all. */
  selected?: ReadonlySet<string>;
  error?: string;
}

export function consentBody(view: ConsentView): SafeHtml {
  const { request } = view;
  const scopes = request.scopes.filter((s) => s !== 'offline_access');
  const hidden = AUTHORIZATION_PARAMS.map((name) => {
    const value = view.params.get(name);
    return value === null ? '' : h`<input type="hidden" name="${name}" value="${value}">`;
  });
  const projects =
    view.projects.length === 0
      ? h`<p class="muted">Your account has no projects yet, so the app will not see any data until a project is shared with you.</p>`
      : h`<fieldset><legend>Projects it will see</legend>
${view.projects.map(
  (p) => h`<label><input type="checkbox" name="project" value="${p.key}" ${view.selected === undefined || view.selected.has(p.key) ? h`checked` : ''}> <span><strong>${p.name}</strong> <span class="muted">${p.key} · ${p.domain}</span></span></label>`,
)}
<p class="muted">With every project ticked, projects added to your account later are included too.</p></fieldset>`;
  return h`<div class="narrow">
<p class="muted">Signed in as ${view.email} · <a href="/account/sign-out">not you?</a></p>
<h1><span id="client-name">${request.client.name}</span> <span class="badge" id="client-unverified">unverified</span> wants to access your Siteline account</h1>
<p class="muted">The app chose this name itself when it registered; Siteline has not verified who made it.</p>
<p>After you decide, you go back to <strong>${redirectTargetLabel(request.redirectUri)}</strong>. Only continue if you started this connection there.</p>
${view.error ? h`<p class="error" role="alert">${view.error}</p>` : ''}
<form method="post" action="/oauth/authorize">
<input type="hidden" name="csrf" value="${view.csrf}">${hidden}
<h2>It will be able to</h2>
<ul class="scopes">${scopes.map((s) => h`<li>${SCOPE_WORDS[s]} <span class="muted">(${s})</span>${request.beyondRegistration.includes(s) ? h` <span class="badge">more than the app registered for</span>` : ''}</li>`)}</ul>
<p class="muted">The connection stays active until you disconnect it under Account settings → Connected apps.</p>
${projects}
<div class="row"><button class="primary" type="submit" name="decision" value="approve">Allow access</button>
<button type="submit" name="decision" value="deny">Deny</button></div>
</form></div>`;
}
