// Server-rendered HTML for the account pages: an escaping template tag, one page layout with inline styles
// (no external assets, works offline), and the security headers every page carries — a strict CSP whose only
// script/style allowance is a per-response nonce, no framing, no caching, and no referrer to other sites
// (`same-origin`, not `no-referrer`: with no-referrer Chromium sends `Origin: null` on our own form posts).
import { randomBytes } from 'node:crypto';

export class SafeHtml {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

/** Trusted markup, not escaped again. */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

/**
 * A wide table on a narrow screen scrolls inside its own box (a 390 px phone never scrolls the page sideways); the box
 * is a named, focusable region so keyboard users can scroll it too.
 */
export function scrollBox(label: string, content: SafeHtml): SafeHtml {
  return h`<div class="table-wrap" role="region" aria-label="${label}" tabindex="0">${content}</div>`;
}

type Interpolation = SafeHtml | string | number | null | undefined | false | readonly Interpolation[];

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map((v: Interpolation) => render(v)).join('');
  return escapeHtml(String(value));
}

/** Template tag: every interpolated value is escaped unless it is SafeHtml (or a list of them). */
export function h(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

export interface PageOptions {
  title: string;
  body: SafeHtml;
  /** Per-response nonce for the page's inline style and scripts. */
  nonce: string;
  status?: number;
  headers?: Record<string, string>;
  /** Extra CSP form-action sources (the consent form redirects to the client afterwards). */
  formActions?: readonly string[];
  /** Whether PUBLIC_URL is https (adds HSTS). */
  secure: boolean;
}

export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

const STYLE = `
:root{color-scheme:light dark;--fg:#1b1f24;--bg:#fff;--muted:#57606a;--line:#d0d7de;--accent:#0b5cad;--danger:#b42318;--ok:#1a7f37;--warn:#9a6700}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--bg:#0d1117;--muted:#9198a1;--line:#30363d;--accent:#4493f8;--danger:#f85149;--ok:#3fb950;--warn:#d29922}}
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:60rem;margin:0 auto;padding:1.5rem 1rem 3rem}header.top{display:flex;justify-content:space-between;align-items:center;gap:1rem;border-bottom:1px solid var(--line);padding-bottom:.75rem;margin-bottom:1.5rem}
h1{font-size:1.5rem;margin:.2rem 0}h2{font-size:1.2rem;margin:2rem 0 .5rem}a{color:var(--accent)}
.narrow{max-width:32rem;margin:0 auto}label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input[type=email],input[type=password],input[type=text],select{width:100%;padding:.5rem;font:inherit;color:inherit;background:var(--bg);border:1px solid var(--line);border-radius:6px}
fieldset{border:1px solid var(--line);border-radius:6px;margin:.75rem 0;padding:.5rem 1rem}legend{font-weight:600}
fieldset label{font-weight:400;display:flex;gap:.5rem;align-items:baseline;margin:.35rem 0}
button{font:inherit;padding:.45rem 1rem;border-radius:6px;border:1px solid var(--line);background:var(--bg);color:var(--fg);cursor:pointer}
button.primary{background:var(--accent);border-color:var(--accent);color:#fff}button.danger{color:var(--danger)}
button:focus-visible,input:focus-visible,a:focus-visible,select:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.row{display:flex;gap:.75rem;flex-wrap:wrap;align-items:center;margin-top:1rem}form.inline{display:inline}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:.85rem;color:var(--muted);font-weight:600}code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em;word-break:break-all}
.muted{color:var(--muted)}.error{border:1px solid var(--danger);color:var(--danger);padding:.6rem .8rem;border-radius:6px}
.notice{border:1px solid var(--ok);padding:.6rem .8rem;border-radius:6px}.secret{border:2px solid var(--warn);padding:.8rem;border-radius:6px;margin:1rem 0}
.status-ok{color:var(--ok)}.status-error{color:var(--danger)}.status-not_connected,.status-pending{color:var(--muted)}
.badge{display:inline-block;font-size:.75rem;font-weight:600;vertical-align:middle;color:var(--warn);border:1px solid var(--warn);border-radius:999px;padding:.05rem .5rem}
.table-wrap{overflow-x:auto;position:relative}ul.scopes{padding-left:1.2rem}.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
`;

function securityHeaders(nonce: string, secure: boolean, formActions: readonly string[]): Record<string, string> {
  const csp = [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "connect-src 'self'",
    `form-action 'self'${formActions.map((s) => ` ${s}`).join('')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'same-origin',
    'cross-origin-opener-policy': 'same-origin',
    'cache-control': 'no-store',
    ...(secure ? { 'strict-transport-security': 'max-age=31536000' } : {}),
  };
}

export function pageResponse(options: PageOptions): Response {
  const document = h`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · Siteline</title><meta name="robots" content="noindex">
<style nonce="${options.nonce}">${raw(STYLE)}</style></head>
<body><main>${options.body}</main></body></html>`;
  return new Response(document.value, {
    status: options.status ?? 200,
    headers: { ...securityHeaders(options.nonce, options.secure, options.formActions ?? []), ...options.headers },
  });
}

/** 303 See Other (after a form POST) or 302, never cached. */
export function redirectResponse(location: string, headers: Record<string, string> = {}, status = 303): Response {
  return new Response(null, { status, headers: { location, 'cache-control': 'no-store', 'referrer-policy': 'same-origin', ...headers } });
}
