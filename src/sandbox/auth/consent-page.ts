// The sandbox's stand-in for Google's consent screen (GET /o/oauth2/v2/auth): checks the client and the request
// the way Google does (unknown client or a bad request is an error page, never a redirect), lists the scopes,
// and on Allow / Cancel (POST) sends the browser back to redirect_uri with a code or `error=access_denied`. The
// Google account that consents is typed in (prefilled from login_hint), so a test can connect several accounts.
import type { SandboxCredentials } from './credentials.ts';
import type { WebGrants } from './web-grants.ts';

const SCOPE_TEXT: Record<string, string> = {
  'https://www.googleapis.com/auth/analytics.readonly': 'See and download your Google Analytics data',
  'https://www.googleapis.com/auth/webmasters.readonly': 'View Search Console data for your verified sites',
};

/** The account the consent page proposes when the app gives no login_hint. */
export const DEFAULT_SANDBOX_ACCOUNT = 'owner@sandbox.example';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string, status = 200): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} – Sandbox Google Accounts</title><style>
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f1f3f4;color:#202124}main{max-width:28rem;margin:2rem auto;background:#fff;border:1px solid #dadce0;border-radius:8px;padding:1.5rem}
h1{font-size:1.4rem;margin:.2rem 0 1rem}ul{padding-left:1.2rem}.row{display:flex;gap:.75rem;justify-content:flex-end;margin-top:1.5rem}
button{font:inherit;padding:.5rem 1.2rem;border-radius:4px;border:1px solid #1a73e8;cursor:pointer}button.allow{background:#1a73e8;color:#fff}button.cancel{background:#fff;color:#1a73e8}
button:focus-visible{outline:3px solid #174ea6;outline-offset:2px}p.small{font-size:.875rem;color:#5f6368}.err{color:#b3261e}</style></head>
<body><main>${body}</main></body></html>`;
  return new Response(html, { status, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'x-frame-options': 'DENY' } });
}

function errorPage(code: string, detail: string): Response {
  return page('Error', `<h1>Access blocked: this app's request is invalid</h1><p class="err">Error 400: ${escape(code)}</p><p>${escape(detail)}</p>`, 400);
}

interface AuthRequest {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  state: string | null;
  codeChallenge: string | null;
}

function parseAuthRequest(params: URLSearchParams, creds: SandboxCredentials): AuthRequest | Response {
  const clientId = params.get('client_id') ?? '';
  if (clientId !== creds.oauthClient.client_id) return errorPage('invalid_client', 'The OAuth client was not found.');
  const redirectUri = params.get('redirect_uri') ?? '';
  let redirect: URL;
  try {
    redirect = new URL(redirectUri);
  } catch {
    return errorPage('redirect_uri_mismatch', 'The redirect URI in the request is missing or not a URL.');
  }
  if (redirect.protocol !== 'http:' && redirect.protocol !== 'https:') return errorPage('redirect_uri_mismatch', 'The redirect URI must be http(s).');
  if (params.get('response_type') !== 'code') return errorPage('invalid_request', 'response_type must be code.');
  const scopes = (params.get('scope') ?? '').split(/\s+/).filter(Boolean);
  if (scopes.length === 0) return errorPage('invalid_request', 'Missing required parameter: scope');
  const codeChallenge = params.get('code_challenge');
  if (codeChallenge !== null && params.get('code_challenge_method') !== 'S256') return errorPage('invalid_request', 'code_challenge_method must be S256.');
  return { clientId, redirectUri, scopes, state: params.get('state'), codeChallenge };
}

function back(request: AuthRequest, result: Record<string, string>): Response {
  const url = new URL(request.redirectUri);
  for (const [key, value] of Object.entries(result)) url.searchParams.set(key, value);
  if (request.state !== null) url.searchParams.set('state', request.state);
  return new Response(null, { status: 302, headers: { location: url.href, 'cache-control': 'no-store' } });
}

export async function handleConsent(request: Request, url: URL, creds: SandboxCredentials, grants: WebGrants, now: Date): Promise<Response> {
  if (request.method === 'GET') {
    const parsed = parseAuthRequest(url.searchParams, creds);
    if (parsed instanceof Response) return parsed;
    const hidden = [...url.searchParams].filter(([k]) => k !== 'account').map(([k, v]) => `<input type="hidden" name="${escape(k)}" value="${escape(v)}">`).join('');
    const scopes = parsed.scopes.map((s) => `<li>${escape(SCOPE_TEXT[s] ?? s)}</li>`).join('');
    return page('Sign in', `<h1>Siteline wants to access your Google Account</h1>
<p>This will allow Siteline to:</p><ul>${scopes}</ul>
<p class="small">Sandbox: no real Google account is involved. Redirects to ${escape(new URL(parsed.redirectUri).origin)}.</p>
<form method="post" action="/o/oauth2/v2/auth">${hidden}
<p><label>Google account <input name="account" type="email" required value="${escape(url.searchParams.get('login_hint') ?? DEFAULT_SANDBOX_ACCOUNT)}"></label></p><div class="row">
<button class="cancel" type="submit" name="decision" value="cancel">Cancel</button>
<button class="allow" type="submit" name="decision" value="allow">Allow</button></div></form>`);
  }
  if (request.method !== 'POST') return errorPage('invalid_request', 'Only GET and POST are supported.');
  const form = new URLSearchParams(await request.text());
  const parsed = parseAuthRequest(form, creds);
  if (parsed instanceof Response) return parsed;
  if (form.get('decision') !== 'allow') return back(parsed, { error: 'access_denied' });
  const code = grants.issueCode({ clientId: parsed.clientId, redirectUri: parsed.redirectUri, codeChallenge: parsed.codeChallenge, scopes: parsed.scopes, account: (form.get('account') ?? '').trim() || DEFAULT_SANDBOX_ACCOUNT }, now.getTime());
  return back(parsed, { code, scope: parsed.scopes.join(' ') });
}
