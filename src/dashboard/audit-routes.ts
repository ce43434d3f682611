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
  if (entry.accountId === null) return entry.detail?.via === 'start' ? 'Siteline at start' : 'the operator (CLI)';
  return names.get(entry.accountId) ?? 'a deleted account';
}

/** A detail value in words: lists joined, objects as their values (never secrets: writes record none). */
function words(value: unknown): string {
  if (Array.isArray(value)) return value.map(words).join(', ');
  if (value !== null && typeof value === 'object') return Object.values(value).filter((v) => v !== undefined && v !== false).map(words).join(' ');
  return String(value);
}

/** The entry's detail as short `name: value` pairs. */
function details(entry: AuditEntry): string {
  const { via: _via, credential: _credential, ...rest } = entry.detail ?? {};
  return Object.entries(rest)
    .map(([name, value]) => `${name}: ${words(value)}`)
    .join('; ');
}

function auditBody(entries: AuditEntry[], names: Map<string, string>, next: string | undefined): SafeHtml {
  if (entries.length === 0) return h`<h2>Audit log</h2><p>Nothing was changed yet.</p>`;
  return h`<h2>Audit log</h2><p class="muted">Every change to this project, whoever made it and through whichever surface.</p>
<div class="table-wrap" tabindex="0" role="region" aria-label="Audit log entries"><table><thead><tr><th scope="col">When (UTC)</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">On</th><th scope="col">Through</th><th scope="col">Details</th></tr></thead><tbody>${entries.map(
    (e) => h`<tr><td>${e.at.slice(0, 19).replace('T', ' ')}</td><td>${who(e, names)}</td><td>${e.action}</td><td>${names.get(e.subject) ?? e.subject}</td><td>${String(e.detail?.via ?? '')}</td><td>${details(e)}</td></tr>`,
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
    // Entries name accounts by id (who acted, and whose role or access changed): shown by name and email.
    const ids = [...new Set(shown.flatMap((e) => [...(e.accountId ? [e.accountId] : []), ...(e.subject.startsWith('acct_') ? [e.subject] : [])]))];
    const accounts = ids.length ? await db.selectFrom('accounts').select(['id', 'name', 'email']).where('id', 'in', ids).execute() : [];
    const names = new Map(accounts.map((a) => [a.id, `${a.name} (${a.email})`]));
    const next = entries.length > PAGE ? `/dashboard/p/${encodeURIComponent(project.key)}/audit?before=${shown.at(-1)!.id}` : undefined;
    return dashboardPage({ title: `${project.name} · Audit log`, session, current: 'projects', secure: sessions.secure, body: h`${projectHeader(project, 'audit')}${auditBody(shown, names, next)}` });
  });
}
