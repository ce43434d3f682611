// A tiny browser stand-in for in-process page tests: a cookie jar, same-origin form posts carrying the page's
// CSRF token, and no redirect following (tests assert where they go).
import type { TestRuntime } from '../helpers/test-runtime.ts';

export interface WebClient {
  get(path: string): Promise<{ status: number; html: string; location: string | null }>;
  /** Posts `fields` (plus the CSRF token of the last page seen, unless given). */
  post(path: string, fields: Record<string, string | string[]>): Promise<{ status: number; html: string; location: string | null }>;
  lastHtml(): string;
}

export function webClient(rt: Pick<TestRuntime, 'request'>, origin = 'http://siteline.test'): WebClient {
  const jar = new Map<string, string>();
  let last = '';
  async function send(path: string, init: RequestInit) {
    const headers = new Headers(init.headers);
    if (jar.size) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await rt.request(path, { ...init, headers, redirect: 'manual' });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, value] = pair!.split('=');
      if (value) jar.set(name!, value);
      else jar.delete(name!);
    }
    const html = await res.text();
    if (res.headers.get('content-type')?.includes('text/html')) last = html;
    return { status: res.status, html, location: res.headers.get('location') };
  }
  return {
    get: (path) => send(path, {}),
    post(path, fields) {
      const body = new URLSearchParams();
      const csrf = /name="csrf" value="([^"]+)"/.exec(last)?.[1] ?? '';
      if (!('csrf' in fields)) body.set('csrf', csrf);
      for (const [key, value] of Object.entries(fields)) for (const v of [value].flat()) body.append(key, v);
      return send(path, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded', origin } });
    },
    lastHtml: () => last,
  };
}
