// A day's row is the same whatever date range it is asked within, as on the real providers: a day asked alone
// and the same day inside a longer range give the same figures (engine1's position, analytics' split of a day
// by dimension). The variation between days is seeded by the day itself, not by how many days were asked.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/sandbox.ts';
import { accessToken, gaUrl, gscUrl, JOURNAL_SITE, MEDIUM, post, testSandbox, type Json } from './helpers.ts';

let sandbox: Sandbox;
let token: string;
beforeAll(async () => {
  sandbox = await testSandbox();
  token = await accessToken(sandbox);
});

const DAY = '2026-05-20';

describe('a day asked alone or within a range', () => {
  it('engine1: the date row has the same clicks, impressions and position', async () => {
    const rowOf = async (startDate: string, endDate: string) => {
      const res = await post(sandbox, token, gscUrl(JOURNAL_SITE), { startDate, endDate, dimensions: ['date'], rowLimit: 1000 });
      expect(res.status).toBe(200);
      return (res.body.rows as Json[]).find((r) => r.keys[0] === DAY);
    };
    const alone = await rowOf(DAY, DAY);
    expect(alone).toBeDefined();
    expect(await rowOf('2026-05-14', '2026-05-27')).toEqual(alone);
    expect(await rowOf(DAY, '2026-05-21')).toEqual(alone);
  });

  it('analytics: the day split by country is the same', async () => {
    const rowsOf = async (startDate: string, endDate: string) => {
      const res = await post(sandbox, token, gaUrl(MEDIUM, 'runReport'), {
        dateRanges: [{ startDate, endDate }],
        dimensions: [{ name: 'date' }, { name: 'country' }],
        metrics: [{ name: 'sessions' }],
        limit: 100000,
      });
      expect(res.status).toBe(200);
      return (res.body.rows as Json[]).filter((r) => r.dimensionValues[0].value === DAY.replaceAll('-', '')).map((r) => [r.dimensionValues[1].value, r.metricValues[0].value]).sort();
    };
    const alone = await rowsOf(DAY, DAY);
    expect(alone.length).toBeGreaterThan(3);
    expect(await rowsOf('2026-05-14', '2026-05-27')).toEqual(alone);
  });
});
