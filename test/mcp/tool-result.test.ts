// The text copy of a tool result stays under the limit and is valid JSON: a long result is cut at a row boundary
// with a note on how to page; structuredContent always holds the whole result.
import { describe, expect, it } from 'vitest';
import { TEXT_LIMIT, toolResult, toolResultFromText } from '../../src/mcp/tools/tool-result.ts';

const row = (i: number) => ({ pagePath: `/products/item-${i}/${'x'.repeat(60)}`, activeUsers: 1000 - i, sessions: 2000 - i, screenPageViews: 3000 - i });
const breakdown = (n: number) => ({ project: 'acme-shop', dimension: 'pagePath', rows: Array.from({ length: n }, (_, i) => row(i)), totalRows: 5000, limit: n, offset: 200, meta: { cache: 'miss' } });

describe('tool result text', () => {
  it('is the whole JSON when it fits', () => {
    const body = breakdown(10);
    const result = toolResult(body);
    expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(body) }]);
  });

  it.each([
    ['from a body', (body: object) => toolResult(body)],
    ['from cached text', (body: object) => toolResultFromText(JSON.stringify(body))],
  ])('cuts a long result at a row boundary into valid JSON, with a paging note (%s)', (_how, make) => {
    const body = breakdown(1000);
    expect(JSON.stringify(body).length).toBeGreaterThan(TEXT_LIMIT);
    const result = make(body);
    const [first, note] = result.content as { type: string; text: string }[];
    expect(first!.text.length).toBeLessThanOrEqual(TEXT_LIMIT);
    const cut = JSON.parse(first!.text) as ReturnType<typeof breakdown>;
    const shown = cut.rows.length;
    expect(shown).toBeGreaterThan(100);
    expect(shown).toBeLessThan(1000);
    expect(cut).toEqual({ ...body, rows: body.rows.slice(0, shown) });
    // One more row would not have fitted.
    expect(JSON.stringify({ ...body, rows: body.rows.slice(0, shown + 1) }).length).toBeGreaterThan(TEXT_LIMIT);
    expect(note!.text).toContain(`first ${shown} of the 1000 rows`);
    expect(note!.text).toContain(`limit=${shown}, offset=${200 + shown}`);
    expect(result.structuredContent).toEqual(body);
  });

  it('without a list to cut, says so instead of sending broken JSON', () => {
    const result = toolResult({ blob: 'y'.repeat(TEXT_LIMIT + 10) });
    expect(result.content).toHaveLength(1);
    expect((result.content[0] as { text: string }).text).toMatch(/^\[The result is \d+ characters, too long/);
  });
});
