// Who has access to a project, as its settings page shows it: members with their roles (admins change roles and
// remove access), the share form (an email and a role: an invitation, answered the same whether the email has an
// account or not), open invitations; and the invitee's side: the invitations waiting for an account.
import { h, type SafeHtml } from '../account/html.ts';
import { PROJECT_ROLES, ROLE_DESCRIPTIONS, type ProjectRole } from '../domain/access-policy.ts';
import type { InviteRecord, ProjectInvite } from '../store/invites-repository.ts';
import type { ProjectMember } from '../store/project-roles-repository.ts';
import type { ProjectRecord } from '../store/projects-repository.ts';
import { csrfField } from './layout.ts';

export interface MembersView {
  csrf: string;
  project: ProjectRecord;
  members: ProjectMember[];
  selfId: string;
  /** Whether the viewer administers the project (changes roles, removes access, shares). */
  manage: boolean;
  invites: InviteRecord[];
  /** A link just created: shown once. */
  shared?: { email: string; role: ProjectRole; url: string };
}

const day = (iso: string) => iso.slice(0, 10);

function roleSelect(id: string, label: string, selected: ProjectRole): SafeHtml {
  return h`<label class="visually-hidden" for="${id}">${label}</label><select id="${id}" name="role">${PROJECT_ROLES.map(
    (r) => h`<option value="${r}" ${r === selected ? h`selected` : ''}>${r}</option>`,
  )}</select>`;
}

function memberRow(view: MembersView, base: string, m: ProjectMember): SafeHtml {
  const self = m.id === view.selfId;
  if (!view.manage || self) return h`<tr><td>${m.name}</td><td>${m.email}</td><td>${m.role}</td><td>${self ? h`<span class="muted">you</span>` : ''}</td></tr>`;
  return h`<tr><td>${m.name}</td><td>${m.email}</td><td><form class="inline" method="post" action="${base}/access/role">${csrfField(view.csrf)}<input type="hidden" name="account_id" value="${m.id}">${roleSelect(`role-${m.id}`, `Role of ${m.email}`, m.role)} <button type="submit" aria-label="Change the role of ${m.email}">Change</button></form></td>
<td><form class="inline" method="post" action="${base}/access/revoke">${csrfField(view.csrf)}<input type="hidden" name="account_id" value="${m.id}"><button class="danger" type="submit" aria-label="Remove access for ${m.email}">Remove</button></form></td></tr>`;
}

function shareForm(view: MembersView, base: string): SafeHtml {
  return h`<h3>Share with someone</h3>
${view.shared ? h`<div class="secret" role="status"><p><strong>${view.shared.email} is invited as ${view.shared.role}.</strong> If they already have an account here, they find the invitation on their Projects page when they sign in. You can also send them this link: it works once, expires in 7 days and is shown only now.</p><p><code id="share-link">${view.shared.url}</code></p></div>` : ''}
<form method="post" action="${base}/access/invite">${csrfField(view.csrf)}<label for="share-email">Their email</label><input id="share-email" name="email" type="email" required>
<label for="share-role">Role</label><select id="share-role" name="role" aria-describedby="share-role-hint">${PROJECT_ROLES.map((r) => h`<option value="${r}" ${r === 'viewer' ? h`selected` : ''}>${r}</option>`)}</select>
<p class="hint" id="share-role-hint">${PROJECT_ROLES.map((r, i) => h`${i > 0 ? '; ' : ''}<strong>${r}</strong> ${ROLE_DESCRIPTIONS[r]}`)}.</p>
<div class="row"><button type="submit">Invite</button></div></form>
${view.invites.length === 0 ? '' : h`<h3>Open invitations</h3><div class="table-wrap"><table><thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Expires</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead><tbody>${view.invites.map(
    (i) => h`<tr><td>${i.email}</td><td>${i.role ?? ''}</td><td>${day(i.expiresAt)}</td><td><form class="inline" method="post" action="${base}/access/withdraw">${csrfField(view.csrf)}<input type="hidden" name="digest" value="${i.digest}"><button class="danger" type="submit" aria-label="Withdraw the invitation for ${i.email}">Withdraw</button></form></td></tr>`,
  )}</tbody></table></div>`}`;
}

export function membersSection(view: MembersView): SafeHtml {
  const base = `/dashboard/p/${encodeURIComponent(view.project.key)}`;
  return h`<section aria-labelledby="members-title"><h2 id="members-title">Who can see this project</h2>
<div class="table-wrap"><table><thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead><tbody>${view.members.map((m) => memberRow(view, base, m))}</tbody></table></div>
${view.manage ? shareForm(view, base) : h`<p class="muted">Only the project's admins share it and change roles.</p>`}</section>`;
}

export function invitationsBody(view: { csrf: string; invites: ProjectInvite[]; notice?: string }): SafeHtml {
  return h`<h1>Invitations</h1>${view.notice ? h`<p class="notice" role="status">${view.notice}</p>` : ''}
${
  view.invites.length === 0
    ? h`<p>No invitation is waiting for you. <a href="/dashboard">Your projects</a></p>`
    : h`<p>Accepting adds the project to your list with the role offered.</p><div class="table-wrap"><table><thead><tr><th scope="col">Project</th><th scope="col">Role</th><th scope="col">From</th><th scope="col">Expires</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead><tbody>${view.invites.map(
        (i) => h`<tr><td>${i.projectName}<br><code>${i.projectKey}</code></td><td>${i.role}</td><td>${i.invitedByName}</td><td>${day(i.expiresAt)}</td><td><form class="inline" method="post" action="/dashboard/invitations/accept">${csrfField(view.csrf)}<input type="hidden" name="digest" value="${i.digest}"><button class="primary" type="submit" aria-label="Accept the invitation to ${i.projectName}">Accept</button></form> <form class="inline" method="post" action="/dashboard/invitations/decline">${csrfField(view.csrf)}<input type="hidden" name="digest" value="${i.digest}"><button type="submit" aria-label="Decline the invitation to ${i.projectName}">Decline</button></form></td></tr>`,
      )}</tbody></table></div>`
}`;
}
