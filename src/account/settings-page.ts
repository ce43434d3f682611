// The account settings page: API keys (create, rotate, revoke; a new key shown once with a copy button),
// connected apps (OAuth grants; disconnect), projects with their data-source status, and funnels.
import type { ApiKeyView } from '../auth/api-keys.ts';
import { SCOPES } from '../auth/scopes.ts';
import { SOURCE_DISPLAY_NAMES, SOURCES } from '../domain/sources.ts';
import type { AccountRecord } from '../store/accounts-repository.ts';
import type { DataSourceRecord } from '../store/data-sources-repository.ts';
import type { FunnelRecord } from '../store/funnels-repository.ts';
import type { GrantWithClient } from '../store/oauth-grants-repository.ts';
import type { ProjectRecord } from '../store/projects-repository.ts';
import { h, scrollBox, type SafeHtml } from './html.ts';

export interface SettingsView {
  account: AccountRecord;
  csrf: string;
  nonce: string;
  keys: ApiKeyView[];
  grants: GrantWithClient[];
  projects: ProjectRecord[];
  sources: DataSourceRecord[];
  funnels: FunnelRecord[];
  /** A key just created or rotated: the only time its plaintext is shown. */
  issued?: { key: string; name: string };
  notice?: string;
  error?: string;
}

const SCOPE_HELP: Record<(typeof SCOPES)[number], string> = {
  read: 'read data (REST, GraphQL, MCP)',
  raw: 'raw provider proxies',
  'mcp:write': 'create funnels via MCP',
};

const STATUS_WORDS = { ok: 'connected', error: 'error', pending: 'connected, not read yet', not_connected: 'not connected' } as const;

const day = (iso: string | null) => (iso === null ? '—' : iso.slice(0, 10));
const minute = (iso: string | null) => (iso === null ? 'never' : `${iso.slice(0, 16).replace('T', ' ')} UTC`);

function csrfField(csrf: string): SafeHtml {
  return h`<input type="hidden" name="csrf" value="${csrf}">`;
}

function issuedKey(view: SettingsView): SafeHtml | string {
  if (!view.issued) return '';
  return h`<section class="secret" aria-labelledby="new-key-title">
<h2 id="new-key-title">Your new key “${view.issued.name}”</h2>
<p><strong>Copy it now.</strong> It is shown only this once; Siteline stores only a digest of it.</p>
<p><code id="new-key">${view.issued.key}</code></p>
<div class="row"><button type="button" id="copy-key" data-target="new-key">Copy key</button><span id="copy-status" role="status" class="muted"></span></div>
<script nonce="${view.nonce}">
document.getElementById('copy-key').addEventListener('click', function () {
  var text = document.getElementById('new-key').textContent;
  var status = document.getElementById('copy-status');
  navigator.clipboard.writeText(text).then(function () { status.textContent = 'Copied.'; }, function () {
    var range = document.createRange(); range.selectNodeContents(document.getElementById('new-key'));
    var selection = window.getSelection(); selection.removeAllRanges(); selection.addRange(range);
    status.textContent = 'Selected: press Ctrl+C (or Cmd+C) to copy.';
  });
});
</script></section>`;
}

function keysSection(view: SettingsView): SafeHtml {
  const rows = view.keys.map(
    (k) => h`<tr data-key-id="${k.id}"><td>${k.name}</td><td><code>${k.prefix}…${k.last4}</code></td><td>${k.scopes.join(' ')}</td>
<td>${k.projectKeys === null ? 'all' : k.projectKeys.join(', ')}</td><td>${day(k.createdAt)}</td><td>${minute(k.lastUsedAt)}</td><td>${day(k.expiresAt)}</td><td>${k.status}</td>
<td>${
      k.status === 'active'
        ? h`<form class="inline" method="post" action="/account/keys/rotate">${csrfField(view.csrf)}<input type="hidden" name="key_id" value="${k.id}"><button type="submit" aria-label="Rotate ${k.name}">Rotate</button></form>
<form class="inline" method="post" action="/account/keys/revoke">${csrfField(view.csrf)}<input type="hidden" name="key_id" value="${k.id}"><button class="danger" type="submit" aria-label="Revoke ${k.name}">Revoke</button></form>`
        : ''
    }</td></tr>`,
  );
  return h`<section aria-labelledby="keys-title"><h2 id="keys-title">API keys</h2>
<p class="muted">Send a key as <code>Authorization: Bearer &lt;key&gt;</code> to the REST API, GraphQL or <code>/api/mcp</code>. Rotating issues a new key and lets the old one work for 24 more hours.</p>
${view.keys.length === 0 ? h`<p>No API keys yet.</p>` : scrollBox('Table of API keys', h`<table><thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Scopes</th><th scope="col">Projects</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Expires</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead><tbody>${rows}</tbody></table>`)}
<form method="post" action="/account/keys">${csrfField(view.csrf)}
<h3>Create a key</h3>
<label for="key-name">Name</label><input id="key-name" name="name" type="text" maxlength="100" required placeholder="e.g. Reporting script">
<fieldset><legend>Scopes</legend>${SCOPES.map((s) => h`<label><input type="checkbox" name="scope" value="${s}" ${s === 'read' ? h`checked` : ''}> <span><code>${s}</code> — ${SCOPE_HELP[s]}</span></label>`)}</fieldset>
<label for="key-expiry">Expires</label><select id="key-expiry" name="expires_days"><option value="">Never</option><option value="30">In 30 days</option><option value="90">In 90 days</option><option value="365">In a year</option></select>
<div class="row"><button class="primary" type="submit">Create key</button></div></form></section>`;
}

function appsSection(view: SettingsView): SafeHtml {
  const projectsOf = (g: GrantWithClient) => (g.projectKeys === null ? 'all' : g.projectKeys.join(', '));
  return h`<section aria-labelledby="apps-title"><h2 id="apps-title">Connected apps</h2>
${
  view.grants.length === 0
    ? h`<p class="muted">No apps are connected. Apps such as Claude, ChatGPT, Cursor or VS Code connect by URL and ask you here for access.</p>`
    : scrollBox('Table of connected apps', h`<table><thead><tr><th scope="col">App</th><th scope="col">Access</th><th scope="col">Projects</th><th scope="col">Connected</th><th scope="col">Last refreshed</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead><tbody>${view.grants.map(
        (g) => h`<tr><td>${g.clientName}</td><td>${g.scope}</td><td>${projectsOf(g)}</td><td>${day(g.createdAt)}</td><td>${minute(g.lastUsedAt)}</td>
<td><form class="inline" method="post" action="/account/apps/revoke">${csrfField(view.csrf)}<input type="hidden" name="grant_id" value="${g.id}"><button class="danger" type="submit" aria-label="Disconnect ${g.clientName}">Disconnect</button></form></td></tr>`,
      )}</tbody></table>`)
}</section>`;
}

function projectsSection(view: SettingsView): SafeHtml {
  if (view.projects.length === 0) return h`<section aria-labelledby="projects-title"><h2 id="projects-title">Projects</h2><p>No projects are shared with this account yet.</p></section>`;
  const sourceCell = (project: ProjectRecord, source: (typeof SOURCES)[number]) => {
    const record = view.sources.find((s) => s.projectId === project.id && s.source === source);
    const status = record?.status ?? 'not_connected';
    return h`<td><span class="status-${status}">${STATUS_WORDS[status]}</span>${record?.propertyId ? h`<br><span class="muted">${record.propertyId}</span>` : ''}${record?.siteUrl ? h`<br><span class="muted">${record.siteUrl}</span>` : ''}${record?.statusMessage && status === 'error' ? h`<br><span class="muted">${record.statusMessage}</span>` : ''}</td>`;
  };
  return h`<section aria-labelledby="projects-title"><h2 id="projects-title">Projects</h2>
${scrollBox('Table of projects', h`<table><thead><tr><th scope="col">Project</th><th scope="col">Domain</th>${SOURCES.map((s) => h`<th scope="col">${SOURCE_DISPLAY_NAMES[s]}</th>`)}</tr></thead>
<tbody>${view.projects.map((p) => h`<tr><td><strong>${p.name}</strong><br><code>${p.key}</code></td><td>${p.domain}<br><span class="muted">${p.timezone}</span></td>${SOURCES.map((s) => sourceCell(p, s))}</tr>`)}</tbody></table>`)}</section>`;
}

function funnelsSection(view: SettingsView): SafeHtml {
  const projectKey = (id: string) => view.projects.find((p) => p.id === id)?.key ?? '';
  return h`<section aria-labelledby="funnels-title"><h2 id="funnels-title">Funnels</h2>
${
  view.funnels.length === 0
    ? h`<p class="muted">No funnels yet. Create them with <code>siteline funnels create</code> or ask an MCP client to use <code>create_funnel</code>.</p>`
    : scrollBox('Table of funnels', h`<table><thead><tr><th scope="col">Funnel</th><th scope="col">Project</th><th scope="col">Steps</th><th scope="col">Created</th></tr></thead><tbody>${view.funnels.map(
        (f) => h`<tr><td><strong>${f.name}</strong><br><code>${f.key}</code></td><td><code>${projectKey(f.projectId)}</code></td><td>${f.steps.map((s) => s.name).join(' → ')}</td><td>${day(f.createdAt)} via ${f.createdVia}</td></tr>`,
      )}</tbody></table>`)
}</section>`;
}

export function settingsBody(view: SettingsView): SafeHtml {
  return h`<p><a href="/dashboard">← Dashboard</a></p><header class="top"><div><h1>Account settings</h1><span class="muted">${view.account.name} · ${view.account.email}</span></div>
<form method="post" action="/account/sign-out">${csrfField(view.csrf)}<button type="submit">Sign out</button></form></header>
${view.notice ? h`<p class="notice" role="status">${view.notice}</p>` : ''}
${view.error ? h`<p class="error" role="alert">${view.error}</p>` : ''}
${issuedKey(view)}${keysSection(view)}${appsSection(view)}${projectsSection(view)}${funnelsSection(view)}`;
}
