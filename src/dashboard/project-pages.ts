// Project pages' markup: the project list, the create / edit form, brand terms, delete confirmation, and the
// sub-navigation every project page shares (who has access: access-pages.ts).
import { h, raw, type SafeHtml } from '../account/html.ts';
import { allows } from '../domain/access-policy.ts';
import { SOURCE_DISPLAY_NAMES, SOURCES, type Source } from '../domain/sources.ts';
import type { DataSourceRecord } from '../store/data-sources-repository.ts';
import type { ProjectRecord } from '../store/projects-repository.ts';
import { csrfField } from './layout.ts';

export type ProjectTab = 'overview' | 'sources' | 'funnels' | 'settings' | 'audit';

/** The project's sub-navigation; the audit log tab only for those whose role may read it (admins). */
export function projectHeader(project: ProjectRecord, tab: ProjectTab): SafeHtml {
  const base = `/dashboard/p/${encodeURIComponent(project.key)}`;
  const tabs: [ProjectTab, string, string][] = [['overview', 'Overview', base], ['sources', 'Data sources', `${base}/sources`], ['funnels', 'Funnels', `${base}/funnels`], ['settings', 'Settings', `${base}/settings`]];
  if (project.role && allows('audit.read', project.role)) tabs.push(['audit', 'Audit log', `${base}/audit`]);
  return h`<p class="crumbs"><a href="/dashboard">Projects</a> / <code>${project.key}</code>${project.role ? h` <span class="badge" title="Your role on this project">${project.role}</span>` : ''}</p><h1>${project.name}</h1>
<nav aria-label="Project" class="row">${tabs.map(([key, label, href]) => h`<a href="${href}" ${key === tab ? raw('aria-current="page"') : ''}>${label}</a>`)}</nav>`;
}

const STATUS_WORDS = { ok: 'OK', error: 'Error', pending: 'Not read yet', not_connected: 'Not connected' } as const;

export function statusOf(sources: readonly DataSourceRecord[], projectId: string, source: Source): { word: string; status: keyof typeof STATUS_WORDS; record?: DataSourceRecord } {
  const record = sources.find((s) => s.projectId === projectId && s.source === source);
  const status = record?.status ?? 'not_connected';
  return { word: STATUS_WORDS[status], status, record };
}

export function projectListBody(view: { projects: ProjectRecord[]; sources: DataSourceRecord[]; notice?: string; invitations: number }): SafeHtml {
  return h`<h1>Projects</h1>${view.notice ? h`<p class="notice" role="status">${view.notice}</p>` : ''}
${view.invitations > 0 ? h`<p class="notice" role="status"><a href="/dashboard/invitations">${view.invitations === 1 ? 'An invitation to a project is' : `${view.invitations} invitations to projects are`} waiting for you</a>.</p>` : ''}
<p><a href="/dashboard/projects/new">Create a project</a></p>
${
  view.projects.length === 0
    ? h`<p>No projects yet. Create one for your site, then connect Google Analytics, Search Console and Bing.</p>`
    : h`<div class="table-wrap"><table class="projects"><thead><tr><th scope="col">Project</th>${SOURCES.map((s) => h`<th scope="col">${SOURCE_DISPLAY_NAMES[s]}</th>`)}</tr></thead><tbody>${view.projects.map(
        (p) => h`<tr><td><a href="/dashboard/p/${encodeURIComponent(p.key)}"><strong>${p.name}</strong></a><br><span class="muted">${p.domain}${p.role ? ` · ${p.role}` : ''}</span></td>${SOURCES.map((s) => {
          const st = statusOf(view.sources, p.id, s);
          return h`<td><span class="status-${st.status}">${st.word}</span></td>`;
        })}</tr>`,
      )}</tbody></table></div>`
}`;
}

export interface ProjectFormView {
  csrf: string;
  action: string;
  button: string;
  values: { key?: string; name?: string; domain?: string; timezone?: string; currency?: string };
  /** Editing: the key is fixed. */
  keyFixed: boolean;
  error?: { param?: string; message: string };
  timezones: readonly string[];
}

export function projectForm(view: ProjectFormView): SafeHtml {
  const v = view.values;
  const invalid = (param: string) => (view.error?.param === param ? h`aria-invalid="true" aria-describedby="form-error"` : '');
  return h`${view.error ? h`<p class="error" role="alert" id="form-error">${view.error.message}</p>` : ''}
<form method="post" action="${view.action}">${csrfField(view.csrf)}
<label for="p-name">Name</label><input id="p-name" name="name" type="text" required maxlength="100" value="${v.name ?? ''}" ${invalid('name')}>
${
  view.keyFixed
    ? h`<p class="hint">Key: <code>${v.key ?? ''}</code> (used in API URLs; it cannot change).</p>`
    : h`<label for="p-key">Key</label><input id="p-key" name="key" type="text" required pattern="[a-z0-9][a-z0-9\\-]{1,62}" value="${v.key ?? ''}" aria-describedby="key-hint" ${invalid('key')}>
<p class="hint" id="key-hint">Lower-case letters, digits and dashes; appears in API URLs, e.g. <code>/api/v1/metrics/my-shop/summary</code>.</p>`
}
<label for="p-domain">Domain</label><input id="p-domain" name="domain" type="text" required placeholder="www.example.com" value="${v.domain ?? ''}" ${invalid('domain')}>
<label for="p-tz">Time zone</label><input id="p-tz" name="timezone" type="text" required list="timezones" value="${v.timezone ?? 'UTC'}" ${invalid('timezone')}>
<datalist id="timezones">${view.timezones.map((tz) => h`<option value="${tz}"></option>`)}</datalist>
<label for="p-currency">Currency</label><input id="p-currency" name="currency" type="text" required maxlength="3" pattern="[A-Za-z]{3}" value="${v.currency ?? 'USD'}" ${invalid('currency')}>
<div class="row"><button class="primary" type="submit">${view.button}</button></div></form>`;
}

export interface BrandTermsView {
  csrf: string;
  project: ProjectRecord;
  /** What null stands for: the terms derived from the project's domain. */
  defaults: readonly string[];
  /** The text as submitted, when it was refused. */
  text?: string;
  error?: string;
}

/** One term per line; saving an empty box means no query is a brand query; "Use the default" goes back to the domain's. */
export function brandTermsSection(view: BrandTermsView): SafeHtml {
  const stored = view.project.brandTerms ?? null;
  const text = view.text ?? (stored ?? []).join('\n');
  const current = stored === null
    ? h`Derived from the domain: ${view.defaults.map((t, i) => h`${i > 0 ? ', ' : ''}<code>${t}</code>`)}.`
    : stored.length === 0 ? h`None: no query counts as a brand query.` : h`Set by hand: ${stored.map((t, i) => h`${i > 0 ? ', ' : ''}<code>${t}</code>`)}.`;
  return h`<section aria-labelledby="brand-title"><h2 id="brand-title">Brand terms</h2>
<p>Search insights split queries into brand and non-brand: a query containing one of these terms is a brand query.</p>
<p id="brand-current" data-default="${stored === null ? 'true' : 'false'}">${current}</p>
${view.error ? h`<p class="error" role="alert" id="brand-error">${view.error}</p>` : ''}
<form method="post" action="/dashboard/p/${encodeURIComponent(view.project.key)}/brand-terms">${csrfField(view.csrf)}
<label for="brand-terms">Brand terms, one per line</label><textarea id="brand-terms" name="brand_terms" rows="4" aria-describedby="brand-hint${view.error ? ' brand-error' : ''}">${text}</textarea>
<p class="hint" id="brand-hint">Case does not matter. Leave empty and save if no query should count as a brand query.</p>
<div class="row"><button type="submit" name="action" value="save">Save brand terms</button><button type="submit" name="action" value="default">Use the default</button></div></form></section>`;
}

export function deleteSection(csrf: string, project: ProjectRecord): SafeHtml {
  return h`<section aria-labelledby="delete-title"><h2 id="delete-title">Delete this project</h2>
<p>Deletes the project, its stored credentials and its funnels. API keys keep working for your other projects.</p>
<form method="post" action="/dashboard/p/${encodeURIComponent(project.key)}/delete">${csrfField(csrf)}
<label for="confirm-key">Type the project key <code>${project.key}</code> to confirm</label><input id="confirm-key" name="confirm" type="text" required autocomplete="off">
<div class="row"><button class="danger" type="submit">Delete project</button></div></form></section>`;
}
