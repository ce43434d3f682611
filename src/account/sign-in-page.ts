// The sign-in, sign-out and error pages.
import { h, pageResponse, type SafeHtml } from './html.ts';

export interface SignInView {
  csrf: string;
  returnTo: string;
  email?: string;
  error?: string;
  notice?: string;
  /** The request is part of connecting an app (the consent screen follows). */
  forApp: boolean;
}

export function signInBody(view: SignInView): SafeHtml {
  return h`<div class="narrow">
<h1>Sign in to Siteline</h1>
${view.forApp ? h`<p class="muted">An app asked to connect to your Siteline account. Sign in to review its request.</p>` : ''}
${view.notice ? h`<p class="notice" role="status">${view.notice}</p>` : ''}
${view.error ? h`<p class="error" role="alert" id="sign-in-error">${view.error}</p>` : ''}
<form method="post" action="/account/sign-in" ${view.error ? h`aria-describedby="sign-in-error"` : ''}>
<input type="hidden" name="csrf" value="${view.csrf}">
<input type="hidden" name="return_to" value="${view.returnTo}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${view.email ?? ''}" ${view.email ? '' : h`autofocus`}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required ${view.email ? h`autofocus` : ''}>
<div class="row"><button class="primary" type="submit">Sign in</button></div>
</form>
<p class="muted">No account or forgot the password? An administrator can create one or set a new password with <code>siteline accounts create</code> / <code>siteline accounts set-password</code>.</p>
</div>`;
}

export function signOutBody(csrf: string, email: string): SafeHtml {
  return h`<div class="narrow"><h1>Sign out</h1><p>You are signed in as <strong>${email}</strong>.</p>
<form method="post" action="/account/sign-out"><input type="hidden" name="csrf" value="${csrf}">
<div class="row"><button class="primary" type="submit">Sign out</button><a href="/account">Back to account settings</a></div></form></div>`;
}

export function errorPage(options: { title: string; message: string; status: number; nonce: string; secure: boolean; headers?: Record<string, string> }): Response {
  return pageResponse({
    title: options.title,
    nonce: options.nonce,
    secure: options.secure,
    status: options.status,
    headers: options.headers,
    body: h`<div class="narrow"><h1>${options.title}</h1><p class="error" role="alert">${options.message}</p><p><a href="/account">Account settings</a></p></div>`,
  });
}
