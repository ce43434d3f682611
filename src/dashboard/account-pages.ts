// Pages for joining Siteline in the browser: first-run setup (the owner, with the setup code from the server log),
// redeeming an invitation link (to the installation, or to a project with a role), open sign-up, and the team page:
// the owner sees every account, invites teammates by single-use link and recovers projects; everyone else sees the
// people they share a project with.
import { h, type SafeHtml } from '../account/html.ts';
import { MIN_PASSWORD_LENGTH } from '../auth/password.ts';
import type { AccountRecord } from '../store/accounts-repository.ts';
import type { InviteRecord, ProjectInvite } from '../store/invites-repository.ts';
import type { ProjectRecord } from '../store/projects-repository.ts';
import { csrfField } from './layout.ts';

export interface NewAccountForm {
  action: string;
  csrf: string;
  heading: string;
  intro: string | SafeHtml;
  button: string;
  name?: string;
  email?: string;
  /** An invitation fixes the email. */
  emailLocked?: boolean;
  token?: string;
  /** First-run setup asks for the code printed in the server log. */
  askCode?: boolean;
  error?: string;
}

export function newAccountForm(view: NewAccountForm): SafeHtml {
  return h`${view.error ? h`<p class="error" role="alert" id="form-error">${view.error}</p>` : ''}
<form method="post" action="${view.action}">${csrfField(view.csrf)}${view.token ? h`<input type="hidden" name="token" value="${view.token}">` : ''}
${view.askCode ? h`<label for="code">Setup code</label><input id="code" name="code" type="text" required autocomplete="off" spellcheck="false" aria-describedby="code-hint" placeholder="XXXX-XXXX-XXXX-XXXX">
<p class="hint" id="code-hint">Printed in the server's log when it started (the line that says “setup code”).</p>` : ''}
<label for="name">Your name</label><input id="name" name="name" type="text" autocomplete="name" required maxlength="100" value="${view.name ?? ''}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${view.email ?? ''}" ${view.emailLocked ? h`readonly` : ''}>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="new-password" required minlength="${MIN_PASSWORD_LENGTH}" aria-describedby="password-hint">
<p class="hint" id="password-hint">At least ${MIN_PASSWORD_LENGTH} characters.</p>
<div class="row"><button class="primary" type="submit">${view.button}</button></div></form>`;
}

export function newAccountBody(view: NewAccountForm): SafeHtml {
  return h`<div class="narrow"><h1>${view.heading}</h1><p>${view.intro}</p>${newAccountForm(view)}</div>`;
}

/**
 * An invitation to a project, opened from its link. The same page whether or not the email has an account: sign in
 * to accept, or (when sign-up is not closed) create the account here.
 */
export function projectInviteBody(view: {
  invite: ProjectInvite;
  token: string;
  /** The signed-in account, if any. */
  signedIn?: { email: string; csrf: string; matches: boolean };
  createForm?: NewAccountForm;
}): SafeHtml {
  const { invite } = view;
  const intro = h`<p>${invite.invitedByName} invited <strong>${invite.email}</strong> to the project <strong>${invite.projectName}</strong> (<code>${invite.projectKey}</code>) as <strong>${invite.role}</strong>.</p>`;
  if (view.signedIn?.matches) {
    return h`<div class="narrow"><h1>Join ${invite.projectName}</h1>${intro}
<form method="post" action="/dashboard/invitations/accept">${csrfField(view.signedIn.csrf)}<input type="hidden" name="digest" value="${invite.digest}">
<div class="row"><button class="primary" type="submit">Accept</button><a href="/dashboard/invitations">Decide later</a></div></form></div>`;
  }
  if (view.signedIn) {
    return h`<div class="narrow"><h1>Join ${invite.projectName}</h1>${intro}<p class="error" role="alert">You are signed in as ${view.signedIn.email}. This invitation is for ${invite.email}: <a href="/account/sign-out">sign out</a>, then open the link again.</p></div>`;
  }
  const returnTo = `/join?token=${view.token}`;
  return h`<div class="narrow"><h1>Join ${invite.projectName}</h1>${intro}
<p><a href="/account/sign-in?return_to=${encodeURIComponent(returnTo)}">Sign in as ${invite.email}</a> to accept it${view.createForm ? ', or create your account here.' : '.'}</p>
${view.createForm ? h`<h2>New to Siteline?</h2>${newAccountForm(view.createForm)}` : h`<p class="muted">New accounts are made by the operator of this Siteline; ask them for one.</p>`}</div>`;
}

export interface TeamView {
  csrf: string;
  isOwner: boolean;
  accounts: AccountRecord[];
  invites: InviteRecord[];
  signup: string;
  /** The owner's recovery list: every project with its admins. */
  projects?: { project: ProjectRecord; admins: { id: string; email: string; name: string }[] }[];
  selfId: string;
  /** A link just created: shown once. */
  link?: { email: string; url: string };
  notice?: string;
  error?: string;
}

const day = (iso: string) => iso.slice(0, 10);

function inviteSection(view: TeamView): SafeHtml | string {
  if (!view.isOwner) return h`<p class="muted">Only the owner of this Siteline invites new people; to share a project with someone, an admin of the project invites them from its Settings.</p>`;
  if (view.signup === 'closed') return h`<p class="muted">Sign-up is closed (setting <code>SIGNUP=closed</code>): accounts are created with <code>siteline accounts create</code>.</p>`;
  return h`<section aria-labelledby="invite-title"><h2 id="invite-title">Invite a teammate</h2>
${view.link ? h`<div class="secret" role="status"><p><strong>Send this link to ${view.link.email}.</strong> It works once and expires in 7 days; it is shown only now.</p><p><code id="invite-link">${view.link.url}</code></p></div>` : ''}
<form method="post" action="/dashboard/team/invites">${csrfField(view.csrf)}
<label for="invite-email">Email</label><input id="invite-email" name="email" type="email" required>
<div class="row"><button class="primary" type="submit">Create invitation link</button></div></form>
${view.invites.length === 0 ? '' : h`<h3>Open invitations</h3><div class="table-wrap"><table><thead><tr><th scope="col">Email</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead><tbody>${view.invites.map(
    (i) => h`<tr><td>${i.email}</td><td>${day(i.createdAt)}</td><td>${day(i.expiresAt)}</td><td><form class="inline" method="post" action="/dashboard/team/invites/delete">${csrfField(view.csrf)}<input type="hidden" name="digest" value="${i.digest}"><button class="danger" type="submit" aria-label="Withdraw the invitation for ${i.email}">Withdraw</button></form></td></tr>`,
  )}</tbody></table></div>`}</section>`;
}

/** The owner takes the admin role on any project back (a project whose admins left, or that shut the owner out). */
function recoverySection(view: TeamView): SafeHtml | string {
  if (!view.projects || view.projects.length === 0) return '';
  return h`<section aria-labelledby="recover-title"><h2 id="recover-title">Every project</h2>
<p class="muted">As the owner you can make yourself admin of any project, for example when its admins have left.</p>
<div class="table-wrap"><table><thead><tr><th scope="col">Project</th><th scope="col">Admins</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead><tbody>${view.projects.map(
    ({ project, admins }) => h`<tr><td>${project.name}<br><code>${project.key}</code></td><td>${admins.length === 0 ? h`<span class="status-error">none</span>` : admins.map((a) => a.email).join(', ')}</td><td>${
      admins.some((a) => a.id === view.selfId)
        ? h`<span class="muted">you are admin</span>`
        : h`<form class="inline" method="post" action="/dashboard/team/recover">${csrfField(view.csrf)}<input type="hidden" name="project" value="${project.key}"><button type="submit" aria-label="Become admin of ${project.name}">Become admin</button></form>`
    }</td></tr>`,
  )}</tbody></table></div></section>`;
}

export function teamBody(view: TeamView): SafeHtml {
  return h`<h1>Team</h1>
${view.notice ? h`<p class="notice" role="status">${view.notice}</p>` : ''}${view.error ? h`<p class="error" role="alert">${view.error}</p>` : ''}
<p class="muted">${view.isOwner ? 'Every account of this Siteline.' : 'You and the people you share a project with.'} Who sees which project, with which role, is set on each project's Settings page.</p>
<div class="table-wrap"><table><thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Since</th></tr></thead><tbody>${view.accounts.map(
    (a) => h`<tr><td>${a.name}${a.id === view.selfId ? h` <span class="muted">(you)</span>` : ''}</td><td>${a.email}</td><td>${day(a.createdAt)}</td></tr>`,
  )}</tbody></table></div>${inviteSection(view)}${recoverySection(view)}`;
}
