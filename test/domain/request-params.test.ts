import { describe, expect, it } from 'vitest';
import { formatOrder, parseForce, parseLimit, parseOffset, parseOrder, parseSp, searchSourcesOf } from '../../src/domain/request-params.ts';
import { expectAppError } from './expect-app-error.ts';

describe('limit and offset', () => {
  it.each([
    [undefined, 50],
    ['', 50],
    ['1', 1],
    ['1000', 1000],
    ['007', 7],
  ])('limit %j → %i', (raw, expected) => {
    expect(parseLimit(raw)).toBe(expected);
  });

  it.each(['0', '1001', '-1', '1.5', '1e3', ' 5', 'ten', '99999999999999999999'])('limit %j is rejected', (raw) => {
    expectAppError(() => parseLimit(raw), { code: 'invalid_parameter', param: 'limit', includes: [JSON.stringify(raw), 'from 1 to 1000'] });
  });

  it.each([
    [undefined, 0],
    ['0', 0],
    ['250000', 250000],
  ])('offset %j → %i', (raw, expected) => {
    expect(parseOffset(raw)).toBe(expected);
  });

  it.each(['-1', '250001', 'x', '+1'])('offset %j is rejected', (raw) => {
    expectAppError(() => parseOffset(raw), { code: 'invalid_parameter', param: 'offset', includes: [JSON.stringify(raw)] });
  });
});

describe('order', () => {
  const metrics = ['activeUsers', 'sessions', 'screenPageViews'];

  it.each([
    [undefined, { metric: 'activeUsers', direction: 'desc' }],
    ['sessions', { metric: 'sessions', direction: 'asc' }],
    ['-sessions', { metric: 'sessions', direction: 'desc' }],
  ])('%j → %j', (raw, expected) => {
    const order = parseOrder(raw, metrics);
    expect(order).toEqual(expected);
    if (raw !== undefined) expect(formatOrder(order)).toBe(raw);
  });

  it.each([
    ['-sesions', ['"-sesions"', '"sesions"', 'Did you mean "sessions"']],
    ['bounceRate', ['"bounceRate"', 'activeUsers, sessions, screenPageViews']],
    ['--sessions', ['"--sessions"']],
    ['-', ['"-"']],
  ])('rejects %j', (raw, includes) => {
    expectAppError(() => parseOrder(raw, metrics), { code: 'invalid_parameter', param: 'order', includes });
  });
});

describe('force', () => {
  it.each([
    [undefined, false],
    ['0', false],
    ['1', true],
  ])('%j → %s', (raw, expected) => {
    expect(parseForce(raw)).toBe(expected);
  });

  it.each(['', 'true', 'yes', '2', ' 1'])('%j is rejected', (raw) => {
    expectAppError(() => parseForce(raw), { code: 'invalid_parameter', param: 'force', includes: [JSON.stringify(raw)] });
  });
});

describe('sp', () => {
  it.each([
    [undefined, 'all'],
    ['', 'all'],
    ['all', 'all'],
    ['engine1', 'engine1'],
    ['engine2', 'engine2'],
    ['google', 'engine1'],
    ['bing', 'engine2'],
  ])('%j → %s', (raw, expected) => {
    expect(parseSp(raw)).toBe(expected);
  });

  it.each([
    ['yahoo', []],
    ['Google', ['Did you mean "google"']],
    ['engine3', ['Did you mean "engine1"', '"engine2"']],
    ['constructor', []],
  ])('%j is rejected', (raw, includes) => {
    expectAppError(() => parseSp(raw), { code: 'invalid_parameter', param: 'sp', includes: [JSON.stringify(raw), ...includes] });
  });

  it('lists the engines of a choice', () => {
    expect(searchSourcesOf('all')).toEqual(['engine1', 'engine2']);
    expect(searchSourcesOf('engine2')).toEqual(['engine2']);
  });
});
