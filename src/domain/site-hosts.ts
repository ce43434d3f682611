// Which hosts belong to a project's site, for joining analytics paths with search page URLs: the project domain,
// the host of a URL-prefix search property, every host a domain property (`sc-domain:`) covers (apex, www and
// any other subdomain, http and https), and the engine2 site's host.

export interface SiteHosts {
  /** Exact hosts (lower case, no port). */
  hosts: ReadonlySet<string>;
  /** Domains whose every subdomain belongs to the site (from `sc-domain:` properties). */
  domains: readonly string[];
}

export function siteHostsOf(projectDomain: string, siteUrls: readonly (string | null | undefined)[]): SiteHosts {
  const hosts = new Set<string>([bareHost(projectDomain)]);
  const domains: string[] = [];
  for (const siteUrl of siteUrls) {
    if (!siteUrl) continue;
    if (/^sc-domain:/i.test(siteUrl)) domains.push(bareHost(siteUrl.slice('sc-domain:'.length)));
    else {
      const host = hostOf(siteUrl);
      if (host) hosts.add(host);
    }
  }
  return { hosts, domains };
}

/** The host of an absolute URL, lower case without port; undefined for anything else. */
export function hostOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.hostname === '' ? undefined : parsed.hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

export function coversHost(site: SiteHosts, host: string): boolean {
  const h = host.toLowerCase();
  return site.hosts.has(h) || site.domains.some((d) => h === d || h.endsWith(`.${d}`));
}

/** Path and query of `url` when its host belongs to the site, else undefined. */
export function pathWithinSite(site: SiteHosts, url: string): string | undefined {
  const host = hostOf(url);
  if (host === undefined || !coversHost(site, host)) return undefined;
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

function bareHost(value: string): string {
  return value.trim().toLowerCase().replace(/^[a-z]+:\/\//, '').replace(/[/:].*$/, '').replace(/\.$/, '');
}
