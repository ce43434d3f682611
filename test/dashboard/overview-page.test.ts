// The overview's headline numbers read the summary's coverage: a comparison range the property's history does not
// reach shows as "no earlier data" with the API's own comparison_unavailable message, never as a change from 0.
import { describe, expect, it } from 'vitest';
import { overviewBody, type OverviewView, type SummaryBody } from '../../src/dashboard/overview-page.ts';

const META = { cache: 'miss', fetchedAt: '2026-11-26T10:00:00.000Z' };
const PROJECT = { id: 'p1', key: 'new-site', name: 'New site', domain: 'new.example', timezone: 'UTC', currency: 'EUR', createdAt: '2026-11-20T00:00:00.000Z' };

function render(summary: SummaryBody): string {
  const unread = { ok: false as const, error: { message: 'not read in this test' } };
  const view = { csrf: 'x', project: PROJECT, sources: [], googleConfigured: false, now: new Date('2026-11-26T10:05:00Z'), summary: { ok: true, body: summary }, search: unread, sessions: unread, clicks: unread, pages: unread, queries: unread, funnels: [] };
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

describe('overview top search queries', () => {
  // A search query is typed by anyone on the web: it reaches the page as stored text and must never become markup.
  it('escapes a query containing a script tag and quotes', () => {
    const unread = { ok: false as const, error: { message: 'not read in this test' } };
    const query = `<script>alert("x")</script>" onmouseover="y`;
    const queries = { ok: true, body: { rows: [{ query, clicks: 3, impressions: 9 }], meta: META } };
    const view = { csrf: 'x', project: PROJECT, sources: [], googleConfigured: false, now: new Date('2026-11-26T10:05:00Z'), summary: unread, search: unread, sessions: unread, clicks: unread, pages: unread, queries, funnels: [] };
    const html = overviewBody(view as unknown as OverviewView).value;
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('" onmouseover');
    expect(html).toContain('<td>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&quot; onmouseover=&quot;y</td>');
  });
});
