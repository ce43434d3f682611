// The dashboard's page frame: the account pages' layout and security headers (html.ts), plus a navigation bar
// and the few extra styles the dashboard needs (charts, cards, step rows), carried by a second nonce'd style.
import { confirmationBody, type Confirmation } from '../account/confirm-form.ts';
import { h, newNonce, pageResponse, raw, type SafeHtml } from '../account/html.ts';
import type { Session } from '../account/sessions.ts';

const STYLE = `
nav.top{display:flex;flex-wrap:wrap;gap:.25rem 1rem;align-items:center;border-bottom:1px solid var(--line);padding-bottom:.75rem;margin-bottom:1rem}
nav.top .brand{font-weight:700;margin-right:auto;color:var(--fg);text-decoration:none}nav.top form{margin:0}
nav a[aria-current=page]{font-weight:700;text-decoration:none;color:var(--fg)}
.crumbs{font-size:.9rem;margin:.25rem 0}.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(8.5rem,1fr));gap:.75rem;margin:.75rem 0}
.card{border:1px solid var(--line);border-radius:6px;padding:.6rem .75rem}.card .value{font-size:1.35rem;font-weight:700}.card .label{font-size:.85rem;color:var(--muted)}
.up{color:var(--ok)}.down{color:var(--danger)}.chart{width:100%;height:auto;display:block;border:1px solid var(--line);border-radius:6px}
.chart .axis{stroke:var(--line)}.chart .line{fill:none;stroke:var(--accent);stroke-width:2}.chart .area{fill:var(--accent);opacity:.12}.chart text{fill:var(--muted);font-size:11px}
td select{width:auto}.grid2{display:grid;grid-template-columns:repeat(auto-fit,minmax(18rem,1fr));gap:1rem}
fieldset.step{display:grid;grid-template-columns:1fr;gap:.25rem}fieldset.step label{display:block;font-weight:600;margin:.25rem 0 0}
@media (min-width:40rem){fieldset.step{grid-template-columns:8rem 10rem 1fr}fieldset.step .wide{grid-column:1/-1}}
figure{margin:0}.hint{font-size:.85rem;color:var(--muted)}.invalid{color:var(--danger);font-size:.85rem}.bar{background:var(--accent);height:.6rem;border-radius:3px;min-width:2px}
.num,.card .value{text-align:right;font-variant-numeric:tabular-nums}th.num{text-align:right}
.controls{display:flex;flex-wrap:wrap;gap:.25rem .5rem;align-items:center;margin:.5rem 0}.controls label{display:inline;margin:0 0 0 .25rem;font-weight:600}.controls select,.controls input{width:auto}
.chips{margin:.5rem 0}.chip{display:inline-block;border:1px solid var(--line);border-radius:1rem;padding:0 .5rem;margin:0 .25rem .25rem 0}.chip code{overflow-wrap:anywhere}
.status-line{font-size:.85rem;color:var(--muted)}.inline-title{display:inline;font-size:.85rem;margin:0 .5rem 0 0}.inline-list{display:inline;padding:0;margin:0}.inline-list li{display:inline;margin-right:.75rem}
.switch{display:flex;flex-wrap:wrap;gap:.25rem .75rem;list-style:none;padding:0;margin:.25rem 0}.switch a[aria-current]{font-weight:700;color:var(--fg);text-decoration:none}
.chart .previous{stroke:var(--muted);stroke-dasharray:5 4}.chart .hit{fill:transparent}.chart .hit:hover{fill:var(--accent);opacity:.1}
.panels{display:grid;grid-template-columns:repeat(auto-fit,minmax(17rem,1fr));gap:1rem;margin:1rem 0}.panels.wide{grid-template-columns:1fr}.panel h2{font-size:1.05rem;margin:.25rem 0}.panel table{width:100%}
td.name{max-width:0;width:100%}td.name a{display:block;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}code.path{white-space:nowrap}
.big{font-size:1.6rem;font-weight:700}li.realtime-page{display:flex;gap:.5rem;justify-content:space-between}.truncate{overflow:hidden;text-overflow:ellipsis;white-space:nowrap;min-width:0}table.projects td:first-child .muted{overflow-wrap:anywhere}@media (max-width:30rem){table.projects{font-size:.8rem}table.projects th,table.projects td{padding-left:.25rem;padding-right:.25rem}}.progress:has(+ .streamed){display:none}.panels>*,.grid2>*{min-width:0}h2 a.csv{font-size:.8rem;font-weight:400;margin-left:.5rem}form.inline{display:inline}
button.link{border:0;background:none;color:var(--accent);text-decoration:underline;padding:0}
input[type=url],input[type=number],textarea{width:100%;padding:.5rem;font:inherit;color:inherit;background:var(--bg);border:1px solid var(--line);border-radius:6px}
`;

export interface DashboardPage {
  title: string;
  body: SafeHtml;
  session?: Session;
  /** The nav entry to mark as current. */
  current?: 'projects' | 'team' | 'account';
  status?: number;
  /** Where forms may send the browser after a redirect (the Google consent origin). */
  formActions?: readonly string[];
  headers?: Record<string, string>;
  /** The page's own script (runs under the nonce). */
  script?: string;
  secure: boolean;
}

function nav(page: DashboardPage): SafeHtml | string {
  const session = page.session;
  if (!session) return '';
  const link = (href: string, label: string, key: DashboardPage['current']) => h`<a href="${href}" ${page.current === key ? raw('aria-current="page"') : ''}>${label}</a>`;
  return h`<nav class="top" aria-label="Main"><a class="brand" href="/dashboard">Siteline</a>${link('/dashboard', 'Projects', 'projects')}${link('/dashboard/team', 'Team', 'team')}${link('/account', 'API keys', 'account')}
<form method="post" action="/account/sign-out"><input type="hidden" name="csrf" value="${session.csrf}"><button class="link" type="submit">Sign out</button></form></nav>`;
}

export function dashboardPage(page: DashboardPage): Response {
  const nonce = newNonce();
  return pageResponse({
    title: page.title,
    nonce,
    secure: page.secure,
    status: page.status,
    headers: page.headers,
    formActions: page.formActions,
    body: h`<style nonce="${nonce}">${raw(STYLE)}</style>${nav(page)}${page.body}${page.script ? h`<script nonce="${nonce}">${raw(page.script)}</script>` : ''}`,
  });
}

const STREAM_MARK = '<!--siteline-stream-->';

/**
 * A page whose frame and first part are sent at once and whose main part follows when `rest` settles: a slow
 * cold read shows a progress note (`.progress`, hidden by CSS once the content after it has arrived) instead of
 * a blank page. `rest` must not reject: a failure belongs in the content it renders.
 */
export async function streamedDashboardPage(page: Omit<DashboardPage, 'body' | 'status'> & { first: SafeHtml; progress: string; rest: Promise<SafeHtml> }): Promise<Response> {
  const frame = dashboardPage({ ...page, body: h`${page.first}<p class="progress" role="status">${page.progress}</p>${raw(STREAM_MARK)}` });
  const [before, after] = (await frame.text()).split(STREAM_MARK) as [string, string];
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(encoder.encode(before));
      controller.enqueue(encoder.encode(`<div class="streamed">${(await page.rest).value}</div>${after}`));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: frame.headers });
}

/** A page that says what happened and what to do next (refused forms, failed connections). */
export function problemPage(options: { title: string; message: string; next: SafeHtml; status: number; session?: Session; secure: boolean }): Response {
  return dashboardPage({
    title: options.title,
    session: options.session,
    status: options.status,
    secure: options.secure,
    body: h`<div class="narrow"><h1>${options.title}</h1><p class="error" role="alert">${options.message}</p><p>${options.next}</p></div>`,
  });
}

export function csrfField(csrf: string): SafeHtml {
  return h`<input type="hidden" name="csrf" value="${csrf}">`;
}

/** The confirmation step of a destructive action (see confirm-form.ts). */
export function confirmationPage(session: Session, secure: boolean, view: Omit<Confirmation, 'csrf'>): Response {
  return dashboardPage({ title: view.title, session, current: 'projects', secure, body: confirmationBody({ ...view, csrf: session.csrf }) });
}
