// How fast the sandbox generates a 365-day report of the large demo property, through its fetch handler
// (auth, engine, JSON): cold (models rebuilt before each run) and warm, p50/p99. Target: ≤ 50 ms.
import { clearSiteModels } from '../../src/sandbox/data/site-model.ts';
import { createSandbox, DEMO_SITES } from '../../src/sandbox/sandbox.ts';
import { percentile, type Measurement, type SuiteResult } from '../suite.ts';

const LARGE = DEMO_SITES.find((s) => s.size === 'large')!;
const DATE_RANGES = [{ startDate: '365daysAgo', endDate: 'yesterday' }];
const METRICS = [{ name: 'activeUsers' }, { name: 'sessions' }, { name: 'screenPageViews' }];
const REPORTS: Record<string, unknown> = {
  'date × country': { dateRanges: DATE_RANGES, dimensions: [{ name: 'date' }, { name: 'country' }], metrics: METRICS, limit: 1000 },
  pagePath: { dateRanges: DATE_RANGES, dimensions: [{ name: 'pagePath' }], metrics: METRICS, limit: 1000 },
  date: { dateRanges: DATE_RANGES, dimensions: [{ name: 'date' }], metrics: METRICS },
};
const WARM_RUNS = 40;
const COLD_RUNS = 8;

export default async function sandboxSuite(): Promise<SuiteResult> {
  const sandbox = await createSandbox({ credentialsDir: null, env: {} });
  const c = sandbox.credentials.oauthClient;
  const tokenRes = await sandbox.fetch(new Request('https://oauth2.googleapis.com/token', {
    method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token', client_id: c.client_id, client_secret: c.client_secret, refresh_token: c.refresh_token }),
  }));
  const { access_token: token } = (await tokenRes.json()) as { access_token: string };
  const run = async (body: unknown): Promise<number> => {
    const started = performance.now();
    const res = await sandbox.fetch(new Request(`https://analyticsdata.googleapis.com/v1beta/properties/${LARGE.analytics.propertyId}:runReport`, {
      method: 'POST', headers: { authorization: `Bearer ${token}` }, body: JSON.stringify(body),
    }));
    await res.text();
    if (res.status !== 200) throw new Error(`runReport answered ${res.status}`);
    return performance.now() - started;
  };
  const measurements: Measurement[] = [];
  for (const [name, body] of Object.entries(REPORTS)) {
    const cold: number[] = [];
    for (let i = 0; i < COLD_RUNS; i++) {
      clearSiteModels();
      cold.push(await run(body));
    }
    const warm: number[] = [];
    for (let i = 0; i < WARM_RUNS; i++) warm.push(await run(body));
    const target = { op: '<=' as const, value: 50 };
    measurements.push(
      { name: `${name}, cold p50`, value: percentile(cold, 50), unit: 'ms', target, notes: 'site model rebuilt before each run' },
      { name: `${name}, warm p50`, value: percentile(warm, 50), unit: 'ms', target },
      { name: `${name}, warm p99`, value: percentile(warm, 99), unit: 'ms', target },
    );
  }
  return {
    suite: 'sandbox',
    description: `365-day runReport of the large demo property (${LARGE.key}) through the sandbox fetch handler: ${COLD_RUNS} cold and ${WARM_RUNS} warm runs per report.`,
    measurements,
  };
}
