// Pages for joining Siteline in the browser: first-run setup (the owner), accepting an invitation, open sign-up,
// and the team page where the owner invites teammates by single-use link.
import { h, type SafeHtml } from '../account/html.ts';
import { MIN_PASSWORD_LENGTH } from '../auth/password.ts';
import type { AccountRecord } from '../store/accounts-repository.ts';
import type { InviteRecord } from '../store/invites-repository.ts';
import { csrfField } from './layout.ts';

export interface NewAccountForm {
  action: string;
  csrf: string;
  heading: string;
  intro: string;
  button: string;
  name?: string;
  email?: string;
  /** An invitation fixes the email. */
  emailLocked?: boolean;
  token?: string;
  error?: string;
}

export function newAccountBody(view: NewAccountForm): SafeHtml {
  return h`<div class="narrow"><h1>${view.heading}</h1><p>${view.intro}</p>
${view.error ? h`<p class="error" role="alert" id="form-error">${view.error}</p>` : ''}
<form method="post" action="${view.action}">${csrfField(view.csrf)}${view.token ? h`<input type="hidden" name="token" value="${view.token}">` : ''}
<label for="name">Your name</label><input id="name" name="name" type="text" autocomplete="name" required maxlength="100" value="${view.name ?? ''}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${view.email ?? ''}" ${view.emailLocked ? h`readonly` : ''}>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="new-password" required minlength="${MIN_PASSWORD_LENGTH}" aria-describedby="password-hint">
<p class="hint" id="password-hint">At least ${MIN_PASSWORD_LENGTH} characters.</p>
<div class="row"><button class="primary" type="submit">${view.button}</button></div></form></div>`;
}

export interface TeamView {
  csrf: string;
  isOwner: boolean;
  accounts: AccountRecord[];
  invites: InviteRecord[];
  signup: string;
  /** A link just created: shown once. */
  link?: { email: string; url: string };
  notice?: string;
  error?: string;
}

const day = (iso: string) => iso.slice(0, 10);

function inviteSection(view: TeamView): SafeHtml | string {
  if (!view.isOwner) return h`<p class="muted">Only the owner of this Siteline can invite teammates.</p>`;
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

export function teamBody(view: TeamView): SafeHtml {
  return h`<h1>Team</h1>
${view.notice ? h`<p class="notice" role="status">${view.notice}</p>` : ''}${view.error ? h`<p class="error" role="alert">${view.error}</p>` : ''}
<p class="muted">Everyone here can sign in; who sees which project is set on each project's settings page.</p>
<div class="table-wrap"><table><thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Since</th></tr></thead><tbody>${view.accounts.map(
    (a) => h`<tr><td>${a.name}</td><td>${a.email}</td><td>${day(a.createdAt)}</td></tr>`,
  )}</tbody></table></div>${inviteSection(view)}`;
}
