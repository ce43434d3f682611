// Site URLs are stored as the search providers spell them, so a property typed loosely still matches.
import { describe, expect, it } from 'vitest';
import { normaliseSiteUrl, siteUrlCandidates } from '../../src/domain/site-url.ts';
import { expectAppError } from './expect-app-error.ts';

describe('normaliseSiteUrl', () => {
  it.each([
    ['engine1', 'https://example.com', 'https://example.com/'],
    ['engine1', ' HTTPS://WWW.Example.com/blog ', 'https://www.example.com/blog/'],
    ['engine1', 'https://example.com/?utm=x#top', 'https://example.com/'],
    ['engine1', 'SC-DOMAIN:Example.COM', 'sc-domain:example.com'],
    ['engine1', 'sc-domain:https://example.com/', 'sc-domain:example.com'],
    ['engine2', 'http://example.com:8080', 'http://example.com:8080/'],
  ] as const)('%s %s → %s', (source, input, expected) => {
    expect(normaliseSiteUrl(source, input)).toBe(expected);
  });

  it('refuses a bare host, suggesting both property forms', () => {
    expectAppError(() => normaliseSiteUrl('engine1', 'example.com'), { code: 'invalid_parameter', param: 'siteUrl', includes: ['https://example.com/ or sc-domain:example.com'] });
  });

  it('refuses a domain property for engine2', () => {
    expectAppError(() => normaliseSiteUrl('engine2', 'sc-domain:example.com'), { code: 'invalid_parameter', param: 'siteUrl' });
  });
});

describe('normaliseSiteUrl: the edges', () => {
  it.each([
    ['sc-domain: example.com.', 'sc-domain:example.com'],
    ['sc-domain:Example.com/path?x#y', 'sc-domain:example.com'],
    ['  sc-domain:shop.example  ', 'sc-domain:shop.example'],
  ])('engine1 %j → %s', (input, expected) => {
    expect(normaliseSiteUrl('engine1', input)).toBe(expected);
  });

  it.each(['sc-domain:exa mple.com', 'sc-domain:*.example.com', 'sc-domain:ex_ample.com', 'sc-domain:example.com:8080'])('refuses the domain property %j', (input) => {
    expectAppError(() => normaliseSiteUrl('engine1', input), { code: 'invalid_parameter', param: 'siteUrl', includes: ['is not a domain property (e.g. sc-domain:example.com)'] });
  });

  it('a domain property for engine2 is refused with the form engine2 takes', () => {
    expectAppError(() => normaliseSiteUrl('engine2', 'sc-domain:example.com'), { code: 'invalid_parameter', param: 'siteUrl', includes: ['engine2 takes the site URL (e.g. https://example.com/)'] });
  });

  it('a bare host for engine2 is pointed at the URL form only', () => {
    expectAppError(() => normaliseSiteUrl('engine2', 'example.com'), { code: 'invalid_parameter', param: 'siteUrl', includes: ["give the full property, e.g. https://example.com/."] });
  });

  it.each(['ftp://example.com/', 'mailto:site@example.com'])('refuses the non-http URL %j', (input) => {
    expectAppError(() => normaliseSiteUrl('engine1', input), { code: 'invalid_parameter', param: 'siteUrl', includes: ['is not an http(s) site URL'] });
  });

  it('text after a URL-looking prefix is not taken for a domain property', () => {
    expectAppError(() => normaliseSiteUrl('engine1', 'see sc-domain:example.com'), { code: 'invalid_parameter', param: 'siteUrl' });
  });
});

describe('siteUrlCandidates', () => {
  const ALL = ['sc-domain:example.com', 'https://example.com/', 'https://www.example.com/', 'http://example.com/', 'http://www.example.com/'];

  it('lists every spelling of the same site, from a domain property or a URL, with or without www', () => {
    expect(siteUrlCandidates('sc-domain:example.com')).toEqual(ALL);
    expect(siteUrlCandidates('https://www.example.com/blog/')).toEqual(ALL);
    expect(siteUrlCandidates('http://example.com/')).toEqual(ALL);
    expect(siteUrlCandidates('https://shop.www.example.com/')).toEqual(ALL.map((u) => u.replace('example.com', 'shop.www.example.com')));
  });

  it('has none for what is not a site URL', () => {
    expect(siteUrlCandidates('not a url')).toEqual([]);
    expect(siteUrlCandidates('sc-domain:')).toEqual([]);
  });
});
