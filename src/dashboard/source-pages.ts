// Data-source markup: the status of each provider with its connect / reconnect / disconnect actions, and the
// pickers shown after Google consent and after a Bing key was checked.
import { h, raw, type SafeHtml } from '../account/html.ts';
import { SOURCE_DISPLAY_NAMES, type Source } from '../domain/sources.ts';
import type { DataSourceRecord } from '../store/data-sources-repository.ts';
import type { ProjectRecord } from '../store/projects-repository.ts';
import { csrfField } from './layout.ts';
import { statusOf } from './project-pages.ts';

export interface SourcesView {
  csrf: string;
  project: ProjectRecord;
  sources: DataSourceRecord[];
  googleConfigured: boolean;
  /** The demo sandbox's Bing key file, named under the key field. */
  demoBingKeyFile?: string;
  notice?: string;
  error?: string;
}

function statusLine(view: SourcesView, source: Source): SafeHtml {
  const st = statusOf(view.sources, view.project.id, source);
  const target = st.record?.propertyId ? `property ${st.record.propertyId}` : (st.record?.siteUrl ?? '');
  return h`<li><strong>${SOURCE_DISPLAY_NAMES[source]}</strong>: <span class="status-${st.status}">${st.word}</span>${target ? h` · <code>${target}</code>` : ''}${
    st.status === 'error' && st.record?.statusMessage ? h`<br><span class="muted">${st.record.statusMessage}</span>` : ''
  }</li>`;
}

export function sourcesBody(view: SourcesView): SafeHtml {
  const base = `/dashboard/p/${encodeURIComponent(view.project.key)}`;
  const google = ['analytics', 'engine1'].map((s) => statusOf(view.sources, view.project.id, s as Source));
  const googleConnected = google.some((g) => g.status !== 'not_connected');
  const googleBroken = google.some((g) => g.status === 'error');
  const bing = statusOf(view.sources, view.project.id, 'engine2');
  return h`${view.notice ? h`<p class="notice" role="status">${view.notice}</p>` : ''}${view.error ? h`<p class="error" role="alert">${view.error}</p>` : ''}
<section aria-labelledby="google-title"><h2 id="google-title">Google Analytics and Search Console</h2><ul>${statusLine(view, 'analytics')}${statusLine(view, 'engine1')}</ul>
${
  view.googleConfigured
    ? h`${googleBroken ? h`<p class="error" role="alert">A Google source has an error (the reason is under it). If Google stopped accepting the stored access (revoked or expired), connect Google again to restore it.</p>` : ''}
<form method="post" action="${base}/connect/google">${csrfField(view.csrf)}<div class="row"><button class="primary" type="submit">${googleConnected ? 'Reconnect Google' : 'Connect Google'}</button>
<span class="hint">You sign in with Google, allow read-only access, then pick the property and site.</span></div>
<p class="hint">Google shows two boxes, unticked: tick “See and download your Google Analytics data” for traffic and conversions, and “View Search Console data for your verified sites” for search. Tick one and Siteline connects that one; connect again later to add the other.</p></form>`
    : h`<p class="muted">Connecting Google in the browser needs the operator's OAuth client (settings <code>GOOGLE_OAUTH_CLIENT_ID</code> and <code>GOOGLE_OAUTH_CLIENT_SECRET</code>). Scripts can still connect with <code>siteline projects connect</code>.</p>`
}
${googleConnected ? h`<form method="post" action="${base}/disconnect/google">${csrfField(view.csrf)}<div class="row"><button class="danger" type="submit">Disconnect Google</button><span class="hint">Removes the stored access here; the next page says whether Google’s access is revoked or kept for other projects using the same Google account.</span></div></form>` : ''}</section>
<section aria-labelledby="bing-title"><h2 id="bing-title">Bing Webmaster Tools</h2><ul>${statusLine(view, 'engine2')}</ul>
<form method="post" action="${base}/connect/engine2">${csrfField(view.csrf)}
<label for="bing-key">${bing.status === 'not_connected' ? 'Bing Webmaster API key' : 'Replace the API key'}</label><input id="bing-key" name="api_key" type="password" autocomplete="off" required aria-describedby="bing-hint">
<p class="hint" id="bing-hint">In Bing Webmaster Tools: Settings → API access → API key. Siteline checks it and lists your sites.${view.demoBingKeyFile ? h` Demo: the sandbox’s key is in <code>${view.demoBingKeyFile}</code>.` : ''}</p>
<div class="row"><button type="submit">Check key</button></div></form>
${bing.status !== 'not_connected' ? h`<form method="post" action="${base}/disconnect/engine2">${csrfField(view.csrf)}<div class="row"><button class="danger" type="submit">Disconnect Bing</button></div></form>` : ''}</section>`;
}

export interface Choice {
  value: string;
  label: string;
}

/** A radio group (works without JS, every option reachable by keyboard); `none` adds a "do not connect" choice. */
export function choiceGroup(options: { name: string; legend: string; choices: Choice[]; selected?: string; none?: string }): SafeHtml {
  const id = (i: number) => `${options.name}-${i}`;
  const checked = (value: string) => (value === (options.selected ?? '') ? raw('checked') : '');
  return h`<fieldset><legend>${options.legend}</legend>${options.choices.map(
    (c, i) => h`<label for="${id(i)}"><input type="radio" id="${id(i)}" name="${options.name}" value="${c.value}" ${checked(c.value)} required> <span>${c.label}</span></label>`,
  )}${options.none ? h`<label for="${id(-1)}"><input type="radio" id="${id(-1)}" name="${options.name}" value="" ${checked('')}> <span>${options.none}</span></label>` : ''}</fieldset>`;
}
