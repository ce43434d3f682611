// Site URLs as the search providers spell them: Search Console URL-prefix properties always end in a slash and
// domain properties are `sc-domain:<host>`; a URL typed without its slash never matches, so it is normalised.
import { invalidParameter } from '../errors/app-error.ts';

export function normaliseSiteUrl(source: 'engine1' | 'engine2', input: string): string {
  const value = input.trim();
  const domain = /^sc-domain:\s*(.+)$/i.exec(value);
  if (domain) {
    if (source !== 'engine1') throw invalidParameter('siteUrl', `'${input}' is a Search Console domain property; engine2 takes the site URL (e.g. https://example.com/).`);
    const host = domain[1]!.toLowerCase().replace(/^[a-z]+:\/\//, '').replace(/[/?#].*$/, '').replace(/\.$/, '');
    if (!/^[a-z0-9.-]+$/.test(host)) throw invalidParameter('siteUrl', `'${input}' is not a domain property (e.g. sc-domain:example.com).`);
    return `sc-domain:${host}`;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    const hint = source === 'engine1' ? `https://${value}/ or sc-domain:${value}` : `https://${value}/`;
    throw invalidParameter('siteUrl', `'${input}' is not a site URL; give the full property, e.g. ${hint}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalidParameter('siteUrl', `'${input}' is not an http(s) site URL.`);
  const path = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  return `${url.protocol}//${url.host}${path}`;
}

/** Other spellings of the same site a user may have meant (scheme, www, domain property). */
export function siteUrlCandidates(siteUrl: string): string[] {
  const host = siteUrl.startsWith('sc-domain:') ? siteUrl.slice('sc-domain:'.length) : (() => {
    try {
      return new URL(siteUrl).hostname;
    } catch {
      return '';
    }
  })();
  if (host === '') return [];
  const apex = host.replace(/^www\./, '');
  return [`sc-domain:${apex}`, `https://${apex}/`, `https://www.${apex}/`, `http://${apex}/`, `http://www.${apex}/`];
}
