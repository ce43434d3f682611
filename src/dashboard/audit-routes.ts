// A project's audit log, for its admins: every change made to the project through any surface (dashboard, MCP,
// CLI), newest first, 50 to a page.
import type { H3 } from 'h3';
import { h, type SafeHtml } from '../account/html.ts';
import { listAudit, type AuditEntry } from '../store/audit-repository.ts';
import type { DashboardDeps } from './dashboard-deps.ts';
import { createGuard } from './guard.ts';
import { dashboardPage } from './layout.ts';
import { projectHeader } from './project-pages.ts';

const PAGE = 50;

function who(entry: AuditEntry, names: Map<string, string>): string {
  if (entry.accountId === null) return 'the operator (CLI)';
  return names.get(entry.accountId) ?? 'a deleted account';
}

/** The entry's detail as short `name: value` pairs (never secrets: writes record none). */
function details(entry: AuditEntry): string {
  const { via: _via, credential: _credential, ...rest } = entry.detail ?? {};
  return Object.entries(rest)
    .map(([name, value]) => `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('; ');
}

function auditBody(entries: AuditEntry[], names: Map<string, string>, next: string | undefined): SafeHtml {
  if (entries.length === 0) return h`<h2>Audit log</h2><p>Nothing was changed yet.</p>`;
  return h`<h2>Audit log</h2><p class="muted">Every change to this project, whoever made it and through whichever surface.</p>
<div class="table-wrap"><table><thead><tr><th scope="col">When (UTC)</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">On</th><th scope="col">Through</th><th scope="col">Details</th></tr></thead><tbody>${entries.map(
    (e) => h`<tr><td>${e.at.slice(0, 19).replace('T', ' ')}</td><td>${who(e, names)}</td><td><code>${e.action}</code></td><td>${e.subject}</td><td>${String(e.detail?.via ?? '')}</td><td>${details(e)}</td></tr>`,
  )}</tbody></table></div>${next ? h`<p><a href="${next}">Older entries</a></p>` : ''}`;
}

export function mountAuditRoutes(app: H3, deps: DashboardDeps): void {
  const { db, sessions } = deps.web;
  const guard = createGuard(deps);

  app.get('/dashboard/p/:key/audit', async (event) => {
    const found = await guard.projectGet(event.req, event.context.params?.key, 'audit.read');
    if (found instanceof Response) return found;
    const { session, project } = found;
    const before = new URL(event.req.url).searchParams.get('before') ?? undefined;
    const entries = await listAudit(db, { projectId: project.id, limit: PAGE + 1, before: before && /^aud_[0-9A-Za-z]+$/.test(before) ? before : undefined });
    const shown = entries.slice(0, PAGE);
    const ids = [...new Set(shown.flatMap((e) => (e.accountId ? [e.accountId] : [])))];
    const accounts = ids.length ? await db.selectFrom('accounts').select(['id', 'name', 'email']).where('id', 'in', ids).execute() : [];
    const names = new Map(accounts.map((a) => [a.id, `${a.name} (${a.email})`]));
    const next = entries.length > PAGE ? `/dashboard/p/${encodeURIComponent(project.key)}/audit?before=${shown.at(-1)!.id}` : undefined;
    return dashboardPage({ title: `${project.name} · Audit log`, session, current: 'projects', secure: sessions.secure, body: h`${projectHeader(project, 'audit')}${auditBody(shown, names, next)}` });
  });
}
