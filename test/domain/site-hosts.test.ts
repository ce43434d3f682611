import { describe, expect, it } from 'vitest';
import { coversHost, hostOf, pathWithinSite, siteHostsOf } from '../../src/domain/site-hosts.ts';

describe('siteHostsOf', () => {
  it('takes the project domain, URL-prefix hosts and sc-domain domains, bare and lower case', () => {
    const site = siteHostsOf(' HTTPS://Shop.Example:443/ ', ['https://www.shop.example/', 'sc-domain:Shop.Example.', null, undefined, '', 'not a url']);
    expect([...site.hosts].sort()).toEqual(['shop.example', 'www.shop.example']);
    expect(site.domains).toEqual(['shop.example']);
  });

  it('with no search sites is the project domain alone', () => {
    expect(siteHostsOf('blog.example', [])).toEqual({ hosts: new Set(['blog.example']), domains: [] });
  });
});

describe('hostOf', () => {
  it('is the lower-case host without port of an absolute URL, else undefined', () => {
    expect(hostOf('https://WWW.Example.com:8080/a?b')).toBe('www.example.com');
    expect(hostOf('/relative/path')).toBeUndefined();
    expect(hostOf('mailto:someone')).toBeUndefined();
    expect(hostOf('')).toBeUndefined();
  });
});

describe('coversHost / pathWithinSite', () => {
  const site = siteHostsOf('shop.example', ['https://m.shop.example/', 'sc-domain:blog.example']);

  it('covers the exact hosts and every subdomain of a domain property, whatever the case', () => {
    expect(coversHost(site, 'SHOP.example')).toBe(true);
    expect(coversHost(site, 'm.shop.example')).toBe(true);
    expect(coversHost(site, 'www.shop.example')).toBe(false); // not a domain property: www is another host
    expect(coversHost(site, 'blog.example')).toBe(true);
    expect(coversHost(site, 'de.www.blog.example')).toBe(true);
    expect(coversHost(site, 'notblog.example')).toBe(false);
    expect(coversHost(site, 'blog.example.evil')).toBe(false);
  });

  it("is the path and query of a URL on the site's hosts, undefined elsewhere", () => {
    expect(pathWithinSite(site, 'https://shop.example/a/b?x=1#frag')).toBe('/a/b?x=1');
    expect(pathWithinSite(site, 'http://news.blog.example/')).toBe('/');
    expect(pathWithinSite(site, 'https://elsewhere.example/a')).toBeUndefined();
    expect(pathWithinSite(site, 'not a url')).toBeUndefined();
  });
});
