// Site URLs are stored as the search providers spell them, so a property typed loosely still matches.
import { describe, expect, it } from 'vitest';
import { normaliseSiteUrl } from '../../src/domain/site-url.ts';
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
