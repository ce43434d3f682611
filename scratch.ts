import { openLane } from './scripts/insights-eval/lane.ts';
const lane = await openLane();
for (const p of ['changes?period=custom_2026-10-20_2026-11-02&compare=previous&metric=sessions', 'anomalies?period=custom_2026-08-22_2026-11-19&metric=sessions', 'search-opportunities?period=custom_2026-10-20_2026-11-02'])
  console.log(JSON.stringify(await lane.get(`/api/v1/metrics/acme-shop/insights/${p}`).catch((e) => e.message)).slice(0, 1500));
await lane.dispose();
