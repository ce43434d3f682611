// What `npm start` prints once it listens: where the API is and, in the embedded default, how to call it.
import { readFileSync } from 'node:fs';
import type { RunningServer } from '../server.ts';

export function printBanner(out: { write(chunk: string): unknown }, running: RunningServer): void {
  const base = running.url.replace(/\/+$/, '');
  const demo = running.runtime.demo;
  const metrics = running.metricsUrl ? `${running.metricsUrl.replace(/\/+$/, '')}/metrics` : running.runtime.metrics ? `${base}/metrics` : 'off';
  const lines = [
    `Siteline listening on ${base}`,
    `  REST     ${base}/api/v1   (docs: ${base}/api/v1/docs, OpenAPI: ${base}/api/v1/openapi.json)`,
    `  MCP      ${base}/api/mcp`,
    `  GraphQL  ${base}/api/graphql`,
    `  account  ${base}/account`,
    `  metrics  ${metrics}`,
  ];
  if (demo) {
    const password = readFileSync(demo.seeded.passwordFile, 'utf8').trim();
    lines.push(
      '',
      `Demo mode: providers are the sandbox at ${demo.sandboxUrl} (switches: ${demo.sandboxUrl}/__sandbox/faults)`,
      `  demo account  demo@siteline.example / ${password}`,
      `  demo API key  ${demo.seeded.apiKey}   (also in ${demo.seeded.keyFile})`,
      `  projects      ${demo.seeded.projectKeys.join(', ')}`,
      '',
      `Try:  curl -H "Authorization: Bearer $(cat ${demo.seeded.keyFile})" ${base}/api/v1/projects/list`,
    );
  }
  out.write(`${lines.join('\n')}\n`);
}
