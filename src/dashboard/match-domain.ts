// Which GA4 property and which Search Console / Bing site belong to a project's domain, to preselect them in the
// pickers (the user can always choose another).

/** `www.example.com` and `example.com` are the same site for matching; sub-domains are not. */
function bare(host: string): string {
  return host.toLowerCase().replace(/^www\./, '');
}

function hostOf(siteUrl: string): string | undefined {
  if (siteUrl.startsWith('sc-domain:')) return siteUrl.slice('sc-domain:'.length);
  try {
    return new URL(siteUrl).hostname;
  } catch {
    return undefined;
  }
}

/** The site URL for the domain: an exact host match first, then a domain property covering it. */
export function matchSite(domain: string, siteUrls: readonly string[]): string | undefined {
  const wanted = bare(domain);
  const exact = siteUrls.find((url) => !url.startsWith('sc-domain:') && bare(hostOf(url) ?? '') === wanted);
  if (exact) return exact;
  return siteUrls.find((url) => {
    const host = url.startsWith('sc-domain:') ? hostOf(url) : undefined;
    return host !== undefined && (wanted === bare(host) || wanted.endsWith(`.${bare(host)}`));
  });
}

/** The property whose display name mentions the domain or the project's name (property names rarely hold more). */
export function matchProperty<P extends { displayName: string }>(domain: string, projectName: string, properties: readonly P[]): P | undefined {
  if (properties.length === 1) return properties[0];
  const wanted = bare(domain);
  const name = projectName.trim().toLowerCase();
  return properties.find((p) => p.displayName.toLowerCase().includes(wanted)) ?? properties.find((p) => name !== '' && p.displayName.toLowerCase().includes(name));
}
