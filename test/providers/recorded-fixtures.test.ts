// The adapters and the sandbox against answers written in the providers' documented shapes
// (test/fixtures/providers, each naming the reference page it follows). The sandbox is the oracle most report
// tests check against, written by the same hands as the adapters; these fixtures are the outside check: the
// adapters must read the documented answer, and the sandbox must answer the same call in the same shape —
// every documented field present with the same JSON type, and no field the reference does not define.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { normalizeReport } from '../../src/providers/analytics/normalize.ts';
import type { NativeReport } from '../../src/providers/analytics/shapes.ts';
import { normalizeSearchRows } from '../../src/providers/engine1/normalize.ts';
import type { NativeSearchAnalytics } from '../../src/providers/engine1/shapes.ts';
import { rowsOf, toQueryRow } from '../../src/providers/engine2/normalize.ts';
import type { NativeQueryStats } from '../../src/providers/engine2/shapes.ts';
import type { Sandbox } from '../../src/sandbox/sandbox.ts';
import { accessToken, gaUrl, gscUrl, MEDIUM, SHOP_SITE, testSandbox, type Json } from '../sandbox/helpers.ts';

const ROOT = join(import.meta.dirname, '..', 'fixtures', 'providers');

interface Fixture {
  source: string;
  call: { method: string; verb?: string; body?: Json };
  status?: number;
  response: Json;
}

function fixture(path: string): Fixture {
  return JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as Fixture;
}

/** Every key path of a JSON value with its JSON type; array items share one path (`rows[].keys[]`). */
function pathsOf(value: unknown, prefix = '$', out = new Map<string, string>()): Map<string, string> {
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  out.set(prefix, type);
  if (Array.isArray(value)) for (const item of value) pathsOf(item, `${prefix}[]`, out);
  else if (type === 'object') for (const [key, child] of Object.entries(value as Json)) pathsOf(child, `${prefix}.${key}`, out);
  return out;
}

/** The fields each reference page defines (paths as pathsOf writes them), beyond those in the fixture itself. */
const DEFINED: Record<string, readonly string[]> = {
  'analytics/run-report.json': [
    '$.totals', '$.maximums', '$.minimums', '$.propertyQuota',
    '$.metadata.dataLossFromOtherRow', '$.metadata.schemaRestrictionResponse', '$.metadata.emptyReason',
    '$.metadata.subjectToThresholding', '$.metadata.samplingMetadatas',
  ],
  'engine1/search-analytics-by-date.json': ['$.metadata', '$.metadata.first_incomplete_date', '$.metadata.first_incomplete_hour'],
};

/** A path the sandbox answers is documented when it, or an ancestor, is in the fixture or the reference's list. */
function undocumented(sandboxPaths: Map<string, string>, name: string, documented: Map<string, string>): string[] {
  const defined = DEFINED[name] ?? [];
  return [...sandboxPaths.keys()].filter((path) => !documented.has(path) && !defined.some((d) => path === d || path.startsWith(`${d}.`) || path.startsWith(`${d}[]`)));
}

function expectSameShape(name: string, sandboxBody: Json, documentedBody: Json): void {
  const documented = pathsOf(documentedBody);
  const answered = pathsOf(sandboxBody);
  const missing = [...documented].filter(([path, type]) => answered.get(path) !== type).map(([path, type]) => `${path}: documented ${type}, sandbox ${answered.get(path) ?? 'absent'}`);
  expect(missing, `${name}: documented fields the sandbox answers differently`).toEqual([]);
  expect(undocumented(answered, name, documented), `${name}: sandbox fields no reference defines`).toEqual([]);
}

describe('recorded provider answers', () => {
  it('every fixture names the reference page it follows', () => {
    const names = readdirSync(ROOT, { recursive: true, encoding: 'utf8' }).filter((n) => n.endsWith('.json'));
    expect(names.length).toBeGreaterThanOrEqual(6);
    for (const name of names) expect(fixture(name).source, name).toMatch(/^https:\/\/(developers\.google\.com|learn\.microsoft\.com|cloud\.google\.com)\//);
  });

  describe('the adapters read the documented answers', () => {
    it('analytics: metric strings become numbers under their header names; currency and time zone from metadata', () => {
      const report = normalizeReport(fixture('analytics/run-report.json').response as NativeReport);
      expect(report.rows).toEqual([
        { dimensions: { country: 'Japan' }, metrics: { activeUsers: 1874 } },
        { dimensions: { country: 'France' }, metrics: { activeUsers: 23 } },
      ]);
      expect(report).toMatchObject({ rowCount: 2, currencyCode: 'USD', timeZone: 'America/Los_Angeles', warnings: [] });
    });

    it('engine1: keys become the requested dimensions; ctr stays a fraction', async () => {
      const rows = await normalizeSearchRows(fixture('engine1/search-analytics-by-date.json').response as NativeSearchAnalytics, ['date']);
      expect(rows[0]).toEqual({ keys: { date: '2026-03-01' }, clicks: 412, impressions: 10530, ctr: 0.039126, position: 8.27 });
      expect(rows).toHaveLength(2);
    });

    it('engine2: a WCF date at Pacific midnight is that calendar day; -1 click position is no click position', () => {
      const rows = rowsOf(fixture('engine2/get-query-stats.json').response.d as NativeQueryStats[], toQueryRow);
      expect(rows).toEqual([
        { date: '2026-03-06', query: 'trail running shoes', clicks: 14, impressions: 310, position: 3, clickPosition: 2 },
        { date: '2026-03-06', query: 'waterproof hiking boots', clicks: 0, impressions: 42, position: 11, clickPosition: null },
      ]);
    });
  });

  describe('the sandbox answers the same calls in the documented shapes', () => {
    let sandbox: Sandbox;
    let token: string;
    beforeAll(async () => {
      sandbox = await testSandbox();
      token = await accessToken(sandbox);
    });
    const send = async (url: string, init: RequestInit = {}) => {
      const res = await sandbox.fetch(new Request(url, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers } }));
      return { status: res.status, body: (await res.json()) as Json };
    };
    const bing = (method: string) => send(`https://ssl.bing.com/webmaster/api.svc/json/${method}?${new URLSearchParams({ apikey: sandbox.credentials.bingApiKey, siteUrl: SHOP_SITE })}`);

    for (const name of ['analytics/run-report.json', 'analytics/invalid-metric.json']) {
      it(name, async () => {
        const f = fixture(name);
        const answer = await send(gaUrl(MEDIUM, f.call.verb!), { method: 'POST', body: JSON.stringify(f.call.body) });
        expect(answer.status).toBe(f.status ?? 200);
        expectSameShape(name, answer.body, f.response);
        if (f.status !== undefined) expect(answer.body).toEqual(f.response);
      });
    }

    it('engine1/search-analytics-by-date.json', async () => {
      const f = fixture('engine1/search-analytics-by-date.json');
      const answer = await send(gscUrl(SHOP_SITE), { method: 'POST', body: JSON.stringify(f.call.body) });
      expect(answer.status).toBe(200);
      expectSameShape('engine1/search-analytics-by-date.json', answer.body, f.response);
      expect(answer.body.rows.map((r: Json) => r.keys[0])).toEqual(['2026-03-01', '2026-03-02']);
    });

    it('engine1/sites-list.json', async () => {
      const answer = await send('https://searchconsole.googleapis.com/webmasters/v3/sites');
      expect(answer.status).toBe(200);
      expectSameShape('engine1/sites-list.json', answer.body, fixture('engine1/sites-list.json').response);
      const levels = new Set(['siteOwner', 'siteFullUser', 'siteRestrictedUser', 'siteUnverifiedUser']);
      for (const entry of answer.body.siteEntry) expect(levels, entry.permissionLevel).toContain(entry.permissionLevel);
    });

    for (const [name, method] of [['engine2/get-query-stats.json', 'GetQueryStats'], ['engine2/get-user-sites.json', 'GetUserSites']] as const) {
      it(name, async () => {
        const answer = await bing(method);
        expect(answer.status).toBe(200);
        expectSameShape(name, answer.body, fixture(name).response);
        const type = fixture(name).response.d[0].__type;
        for (const item of answer.body.d) expect(item.__type).toBe(type);
      });
    }
  });
});
