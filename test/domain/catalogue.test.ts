import { describe, expect, it } from 'vitest';
import {
  ANALYTICS_DIMENSION_NAMES,
  ANALYTICS_METRIC_NAMES,
  ANALYTICS_METRICS,
  analyticsMetricInfo,
  isCustomDimensionName,
  isCustomMetricName,
  parseNameList,
  parseRequiredName,
  requireAvailableName,
  SEARCH_DIMENSION_SOURCES,
  searchSourcesFor,
  SUMMARY_METRICS,
} from '../../src/domain/catalogue.ts';
import { closeMatches, didYouMean, editDistance } from '../../src/domain/close-matches.ts';
import { expectAppError } from './expect-app-error.ts';

describe('editDistance (Damerau–Levenshtein, OSA)', () => {
  it.each([
    ['', '', 0],
    ['abc', '', 3],
    ['sessions', 'sessions', 0],
    ['sesions', 'sessions', 1],
    ['sessoins', 'sessions', 1],
    ['kitten', 'sitting', 3],
    ['ca', 'abc', 3],
  ])('%j vs %j = %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
});

describe('closeMatches', () => {
  it.each([
    ['sesions', ['sessions']],
    ['Sessions', ['sessions']],
    ['activeuser', ['activeUsers']],
    ['users', ['newUsers', 'totalUsers', 'activeUsers']],
    ['pageviews', ['screenPageViews', 'screenPageViewsPerUser', 'screenPageViewsPerSession']],
    ['zzzzzz', []],
  ])('%j → %j', (input, expected) => {
    expect(closeMatches(input, ANALYTICS_METRIC_NAMES)).toEqual(expected);
  });

  it('returns at most 3, closest first', () => {
    expect(closeMatches('a', ['b', 'c', 'd', 'e', 'a1'])).toHaveLength(3);
    expect(didYouMean('sesions', ['sessions'])).toBe(' Did you mean "sessions"?');
    expect(didYouMean('ab', ['abc', 'abd'])).toBe(' Did you mean "abc" or "abd"?');
    expect(didYouMean('qqqqqqq', ['abc'])).toBe('');
  });
});

describe('catalogue', () => {
  it('has every summary metric with a type', () => {
    for (const name of SUMMARY_METRICS) expect(analyticsMetricInfo(name), name).toBeDefined();
  });

  it('has unique names', () => {
    expect(new Set(ANALYTICS_METRIC_NAMES).size).toBe(ANALYTICS_METRICS.length);
    expect(new Set(ANALYTICS_DIMENSION_NAMES).size).toBe(ANALYTICS_DIMENSION_NAMES.length);
  });

  it.each([
    ['sessions', 'integer', true],
    ['activeUsers', 'integer', false],
    ['engagementRate', 'fraction', false],
    ['averageSessionDuration', 'seconds', false],
    ['purchaseRevenue', 'currency', true],
  ])('%s is %s, additive %s', (name, type, additive) => {
    expect(analyticsMetricInfo(name)).toMatchObject({ type, additive });
  });

  it.each([
    ['customEvent:plan', true, true],
    ['customUser:tier', true, false],
    ['averageCustomEvent:price', false, true],
    ['customEvent:', false, false],
    ['custom:plan', false, false],
  ])('%s: custom dimension %s, custom metric %s', (name, dim, met) => {
    expect(isCustomDimensionName(name)).toBe(dim);
    expect(isCustomMetricName(name)).toBe(met);
  });

  it('search dimensions: engine2 serves query and page only', () => {
    expect(SEARCH_DIMENSION_SOURCES.query).toEqual(['engine1', 'engine2']);
    expect(searchSourcesFor('country', ['engine1', 'engine2'])).toEqual(['engine1']);
    expect(searchSourcesFor('device', ['engine2'])).toEqual([]);
  });
});

describe('name validation against the provider metadata', () => {
  const available = [...ANALYTICS_METRIC_NAMES, 'customEvent:plan_value'];

  it('accepts standard and custom names', () => {
    expect(requireAvailableName('metric', 'metric', 'sessions', available)).toBe('sessions');
    expect(requireAvailableName('metric', 'metric', 'customEvent:plan_value', available)).toBe('customEvent:plan_value');
  });

  it('rejects unknown names with up to 3 close matches', () => {
    expectAppError(() => requireAvailableName('metric', 'metric', 'sesions', available), {
      code: 'invalid_parameter',
      param: 'metric',
      includes: ['Unknown metric "sesions" in metric', 'Did you mean "sessions"?', 'metadata endpoint'],
    });
    const error = expectAppError(() => requireAvailableName('metrics', 'metric', 'users', available), { code: 'invalid_parameter', param: 'metrics' });
    expect(error.message.match(/"[A-Za-z0-9]+Users"/g)).toHaveLength(3);
  });

  it.each([
    [undefined, ['activeUsers', 'sessions', 'screenPageViews']],
    ['', ['activeUsers', 'sessions', 'screenPageViews']],
    ['sessions', ['sessions']],
    ['sessions,bounceRate', ['sessions', 'bounceRate']],
  ])('parseNameList(%j)', (raw, expected) => {
    expect(parseNameList(raw, { param: 'metrics', kind: 'metric', available, fallback: ['activeUsers', 'sessions', 'screenPageViews'], max: 10 })).toEqual(expected);
  });

  it.each([
    ['sessions,,bounceRate', 'Empty metric name'],
    ['sessions,sessions', 'appears twice'],
    ['sessions,sesions', 'Unknown metric "sesions"'],
    [ANALYTICS_METRIC_NAMES.slice(0, 11).join(','), 'at most 10'],
  ])('parseNameList rejects %j', (raw, problem) => {
    expectAppError(() => parseNameList(raw, { param: 'metrics', kind: 'metric', available, fallback: [], max: 10 }), {
      code: 'invalid_parameter',
      param: 'metrics',
      includes: [problem],
    });
  });

  it('parseRequiredName', () => {
    expect(parseRequiredName('country', 'dimension', 'dimension', ANALYTICS_DIMENSION_NAMES)).toBe('country');
    expectAppError(() => parseRequiredName(undefined, 'dimension', 'dimension', ANALYTICS_DIMENSION_NAMES), {
      code: 'invalid_parameter',
      param: 'dimension',
      includes: ['Missing dimension'],
    });
    expectAppError(() => parseRequiredName('contry', 'dimension', 'dimension', ANALYTICS_DIMENSION_NAMES), {
      code: 'invalid_parameter',
      param: 'dimension',
      includes: ['"contry"', '"country"'],
    });
  });
});

describe('name lists and names: the messages a caller reads', () => {
  const available = ['sessions', 'activeUsers', 'newUsers'];
  const list = (raw: string | undefined, max = 3) => parseNameList(raw, { param: 'metrics', kind: 'metric', available, fallback: ['sessions'], max });

  it('says which name is empty, in the list as given', () => {
    expectAppError(() => list('sessions,,newUsers'), { code: 'invalid_parameter', param: 'metrics', includes: ['Empty metric name in metrics "sessions,,newUsers".'] });
    expectAppError(() => requireAvailableName('metric', 'metric', '', available), { code: 'invalid_parameter', param: 'metric', includes: ['Empty metric name in metric.'] });
  });

  it('allows exactly `max` names and counts the ones given beyond it', () => {
    expect(list('sessions,activeUsers,newUsers')).toEqual(['sessions', 'activeUsers', 'newUsers']);
    expectAppError(() => list('sessions,activeUsers', 1), { code: 'invalid_parameter', param: 'metrics', includes: ['at most 1 are allowed, got 2'] });
    expect(list(undefined)).toEqual(['sessions']);
    expect(list('')).toEqual(['sessions']);
  });

  it('a missing required name is named with an example, or the kind when nothing is available', () => {
    expectAppError(() => parseRequiredName(undefined, 'dimension', 'dimension', ['country', 'city']), { code: 'invalid_parameter', param: 'dimension', includes: ['Missing dimension: give one dimension name, e.g. "country".'] });
    expectAppError(() => parseRequiredName('', 'dimension', 'dimension', []), { code: 'invalid_parameter', param: 'dimension', includes: ['e.g. "dimension".'] });
    expect(parseRequiredName('city', 'dimension', 'dimension', ['country', 'city'])).toBe('city');
  });
});
