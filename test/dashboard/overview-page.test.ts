// The overview's headline numbers read the summary's coverage: a comparison range the property's history does not
// reach shows as "no earlier data" with the API's own comparison_unavailable message, never as a change from 0.
import { describe, expect, it } from 'vitest';
import { overviewBody, type OverviewView, type SummaryBody } from '../../src/dashboard/overview-page.ts';
import { readOverviewState } from '../../src/dashboard/overview-state.ts';

const META = { cache: 'miss', fetchedAt: '2026-11-26T10:00:00.000Z' };
const PROJECT = { id: 'p1', key: 'new-site', name: 'New site', domain: 'new.example', timezone: 'UTC', currency: 'EUR', createdAt: '2026-11-20T00:00:00.000Z' };

const unread = { ok: false as const, error: { message: 'not read in this test' } };

function render(summary: SummaryBody, more: Partial<Record<'cards' | 'state' | 'timeseries', unknown>> = {}): string {
  const view = { csrf: 'x', project: PROJECT, sources: [], googleConfigured: false, now: new Date('2026-11-26T10:05:00Z'), state: readOverviewState(new URLSearchParams()), summary: { ok: true, body: summary }, search: unread, timeseries: unread, cards: {}, funnels: [], ...more };
  return overviewBody(view as unknown as OverviewView).value;
}

const period = { name: '28days', start: '2026-10-29', end: '2026-11-25' };

describe('overview headline numbers', () => {
  it('an uncovered comparison says so with the API message', () => {
    const message = 'analytics has data from 2026-11-01 on, so the comparison range 2026-10-01 – 2026-10-28 is not covered: its comparison is null, not 0.';
    const html = render({ period, metrics: { sessions: { value: 120, previous: null, deltaPct: null } }, meta: { ...META, warnings: [{ code: 'comparison_unavailable', message }] } });
    expect(html).toContain('no earlier data');
    expect(html).toContain('data-warning="comparison_unavailable">analytics has data from 2026-11-01 on');
    expect(html).not.toContain('▲');
  });

  it('a covered comparison shows the change and no warning', () => {
    const html = render({ period, metrics: { sessions: { value: 120, previous: 100, deltaPct: 0.2 } }, meta: { ...META, warnings: [] } });
    expect(html).toContain('▲ 20.0%');
    expect(html).not.toContain('comparison_unavailable');
    expect(html).not.toContain('no earlier data');
  });
});

describe('overview cards', () => {
  const summary = { period, metrics: { sessions: 1 }, meta: { ...META } };
  const hostile = '<script>alert(1)</script>"><img src=x onerror=alert(2)>';

  it('escapes a search query in its cell, its filter link and its chip (stored XSS)', () => {
    const queries = { ok: true, body: { rows: [{ query: hostile, clicks: 3, impressions: 40, ctr: 0.075, position: 4.25 }], totalRows: 1 } };
    const state = readOverviewState(new URLSearchParams({ filter: `query==${hostile}` }));
    const html = render(summary, { cards: { queries }, state });
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('data-chip="query==&lt;script&gt;');
  });

  it('shows CTR and position for queries, right-aligned, and "more" while the API has more rows', () => {
    const queries = { ok: true, body: { rows: [{ query: 'red shoes', clicks: 1234, impressions: 20000, ctr: 0.0617, position: 3.14 }], totalRows: 60 } };
    const html = render(summary, { cards: { queries } });
    expect(html).toContain('<td class="num" data-raw="0.0617">6.2%</td><td class="num" data-raw="3.14">3.1</td>');
    expect(html).toContain('1 of 60 queries.');
    expect(html).toMatch(/href="\/dashboard\/p\/new-site\?queries=75#queries-title">Show more/);
  });

  it('makes every breakdown row a link adding its filter, keeping the view and the filters already set', () => {
    const countries = { ok: true, body: { rows: [{ country: 'Germany', sessions: 10, activeUsers: 8 }, { country: 'A;B,C', sessions: 2, activeUsers: 2 }] } };
    const state = readOverviewState(new URLSearchParams({ period: 'last_month', compare: 'year', filter: 'deviceCategory==mobile' }));
    const html = render(summary, { cards: { countries }, state });
    expect(html).toContain('href="/dashboard/p/new-site?period=last_month&amp;compare=year&amp;filter=deviceCategory%3D%3Dmobile&amp;filter=country%3D%3DGermany"');
    expect(html).toContain('data-filter="country==A\\;B\\,C"');
    // The chip removes its own filter and keeps the period and comparison.
    expect(html).toContain('href="/dashboard/p/new-site?period=last_month&amp;compare=year" aria-label="Remove filter deviceCategory==mobile"');
  });

  it('draws the comparison as a second line with hover values on each point', () => {
    const timeseries = { ok: true, body: { metric: 'sessions', period: { start: '2026-11-01', end: '2026-11-02' }, points: [{ date: '2026-11-01', value: { value: 10, previous: 8 } }, { date: '2026-11-02', value: { value: 12, previous: null } }], meta: META } };
    const html = render(summary, { timeseries });
    expect(html).toContain('class="line previous"');
    expect(html).toContain('<title>2026-11-01: 10 (previous period: 8)</title>');
    expect(html).toContain('<title>2026-11-02: 12</title>');
    expect(html).toContain('data-points="2"');
  });

  it('keeps fixed choices to their lists and turns the date inputs into a custom period', () => {
    expect(readOverviewState(new URLSearchParams({ compare: 'bogus', metric: '<x>', interval: 'year' }))).toMatchObject({ compare: 'previous', metric: 'sessions', interval: 'day' });
    expect(readOverviewState(new URLSearchParams({ period: 'custom', start: '2026-01-01', end: '2026-01-31' }))).toMatchObject({ period: 'custom_2026-01-01_2026-01-31', custom: { start: '2026-01-01', end: '2026-01-31' } });
  });
});
