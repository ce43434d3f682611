import { createSandboxRuntime } from './helpers/sandbox-runtime.ts';
const rt = await createSandboxRuntime();
for (const p of ['acme-shop', 'northwind-journal', 'tiny-saas']) {
  const list = await rt.get(`/api/v1/projects/${p}/funnels/list`);
  for (const f of list.body.funnels) {
    const r = await rt.get(`/api/v1/funnels/${f.key}/results`);
    console.log(f.key, r.status, JSON.stringify(r.body.steps?.map((s: any) => [s.name, s.users])));
  }
  const ev = await rt.get(`/api/v1/metrics/${p}/dimension?dimension=eventName&metrics=activeUsers&limit=20`);
  const pg = await rt.get(`/api/v1/metrics/${p}/dimension?dimension=pagePath&metrics=activeUsers&limit=6`);
  console.log(JSON.stringify(ev.body.rows.map((r: any) => [r.eventName, r.activeUsers])), JSON.stringify(pg.body.rows.map((r: any) => [r.pagePath, r.activeUsers])));
}
await rt.dispose();
