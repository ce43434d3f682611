import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors/app-error.ts';
import { toRawAnalyticsPath } from '../../src/providers/analytics/raw-path.ts';
import { toRawEngine1Path } from '../../src/providers/engine1/raw-path.ts';
import { toRawEngine2Path } from '../../src/providers/engine2/raw-path.ts';

const code = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    return error instanceof AppError ? error.code : 'not-an-app-error';
  }
  return 'ok';
};

describe('raw analytics paths', () => {
  it('rebuilds allowed paths from constants', () => {
    expect(toRawAnalyticsPath('POST', 'properties/123:runReport', '123')).toEqual({
      method: 'POST',
      path: 'v1beta/properties/123:runReport',
      operation: 'runReport',
    });
    expect(toRawAnalyticsPath('get', 'properties/123/metadata', '123').path).toBe('v1beta/properties/123/metadata');
  });

  it.each([
    'properties/123:runFunnelReport',
    'properties/123:runReport/../../x',
    'properties/123/../456:runReport',
    'properties/%2e%2e:runReport',
    '//evil.example/properties/123:runReport',
    '\\\\evil\\properties/123:runReport',
    'properties/123:runReport?key=x',
    ' properties/123:runReport',
  ])('rejects %s', (path) => {
    expect(code(() => toRawAnalyticsPath('POST', path, '123'))).toBe('invalid_parameter');
  });

  it('answers not_found for another property and checks the method', () => {
    expect(code(() => toRawAnalyticsPath('POST', 'properties/999:runReport', '123'))).toBe('not_found');
    expect(code(() => toRawAnalyticsPath('GET', 'properties/123:runReport', '123'))).toBe('invalid_parameter');
  });
});

describe('raw engine1 paths', () => {
  const site = 'https://www.example.com/';
  it('accepts the site encoded or not and re-encodes it', () => {
    const expected = 'webmasters/v3/sites/https%3A%2F%2Fwww.example.com%2F/searchAnalytics/query';
    expect(toRawEngine1Path('POST', `sites/${site}/searchAnalytics/query`, site, {}).path).toBe(expected);
    expect(toRawEngine1Path('POST', `sites/${encodeURIComponent(site)}/searchAnalytics/query`, site, {}).path).toBe(expected);
    expect(toRawEngine1Path('GET', 'sites/sc-domain:example.com/sitemaps', 'sc-domain:example.com', undefined).path).toBe(
      'webmasters/v3/sites/sc-domain%3Aexample.com/sitemaps',
    );
  });

  it('rejects foreign sites, traversal and unknown paths', () => {
    expect(code(() => toRawEngine1Path('POST', 'sites/https://other.example/searchAnalytics/query', site, {}))).toBe('not_found');
    expect(code(() => toRawEngine1Path('POST', `sites/${site}../x/searchAnalytics/query`, site, {}))).toBe('not_found');
    expect(code(() => toRawEngine1Path('POST', `sites/${site}/searchAnalytics/query/..`, site, {}))).toBe('invalid_parameter');
    expect(code(() => toRawEngine1Path('DELETE', `sites/${site}/sitemaps`, site, {}))).toBe('invalid_parameter');
    expect(code(() => toRawEngine1Path('POST', 'urlInspection/index:inspect', site, { siteUrl: 'https://x/' }))).toBe('not_found');
    expect(toRawEngine1Path('POST', 'urlInspection/index:inspect', site, { siteUrl: site, inspectionUrl: `${site}shoes` }).path).toBe('v1/urlInspection/index:inspect');
  });

  it.each([
    ['https://www.example.com/', 'https://www.example.com/a/b?c=1', 'ok'],
    ['https://www.example.com/', 'HTTPS://WWW.EXAMPLE.COM/a', 'ok'],
    ['https://www.example.com/blog/', 'https://www.example.com/blog/post', 'ok'],
    ['sc-domain:example.com', 'https://example.com/', 'ok'],
    ['sc-domain:example.com', 'http://shop.example.com/x', 'ok'],
    ['https://www.example.com/', 'https://evil.example/', 'invalid_parameter'],
    ['https://www.example.com/', 'https://www.example.com.evil.example/', 'invalid_parameter'],
    ['https://www.example.com/', 'http://www.example.com/', 'invalid_parameter'],
    ['https://www.example.com/blog/', 'https://www.example.com/shop', 'invalid_parameter'],
    ['sc-domain:example.com', 'https://notexample.com/', 'invalid_parameter'],
    ['sc-domain:example.com', 'ftp://example.com/', 'invalid_parameter'],
    ['https://www.example.com/', 'not a url', 'invalid_parameter'],
    ['https://www.example.com/', undefined, 'invalid_parameter'],
    ['https://www.example.com/', 42, 'invalid_parameter'],
  ])('URL inspection on %s of %j → %s', (bound, inspectionUrl, expected) => {
    expect(code(() => toRawEngine1Path('POST', 'urlInspection/index:inspect', bound, { siteUrl: bound, inspectionUrl }))).toBe(expected);
  });
});

describe('raw engine2 paths', () => {
  const site = 'https://www.example.com/';
  it('allows read methods and forces the bound site', () => {
    expect(toRawEngine2Path('GET', 'GetQueryStats', site)).toEqual({ operation: 'GetQueryStats', params: { siteUrl: site } });
    expect(toRawEngine2Path('GET', 'GetQueryPageStats?query=shoes', site).params).toEqual({ siteUrl: site, query: 'shoes' });
  });

  it('rejects write methods, a caller key, foreign sites and missing parameters', () => {
    expect(code(() => toRawEngine2Path('GET', 'SubmitUrl', site))).toBe('invalid_parameter');
    expect(code(() => toRawEngine2Path('GET', 'GetQueryStats?apikey=x', site))).toBe('invalid_parameter');
    expect(code(() => toRawEngine2Path('GET', 'GetQueryStats?siteUrl=https%3A%2F%2Fother%2F', site))).toBe('not_found');
    expect(code(() => toRawEngine2Path('GET', 'GetQueryPageStats', site))).toBe('invalid_parameter');
    expect(code(() => toRawEngine2Path('POST', 'GetQueryStats', site))).toBe('invalid_parameter');
    expect(code(() => toRawEngine2Path('GET', 'constructor', site))).toBe('invalid_parameter');
  });
});
