// What `npm start` prints once it listens: where the API is and, in the embedded default, how to call it.
import { DEMO_EMAIL, type DemoPassword } from './seed-demo.ts';
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
  if (running.runtime.setupCode) lines.push('', `First run: open ${base}/setup and enter the setup code ${running.runtime.setupCode} to create the owner account.`);
  if (demo) {
    lines.push(
      '',
      `Demo mode: providers are the sandbox at ${demo.sandboxUrl} (switches: ${demo.sandboxUrl}/__sandbox/faults)`,
      `  demo account  ${demoAccountLine(demo.seeded.password)}`,
      `  demo API key  ${demo.seeded.apiKey}   (also in ${demo.seeded.keyFile})`,
      `  projects      ${demo.seeded.projectKeys.join(', ')}`,
      '',
      `Try:  curl -H "Authorization: Bearer $(cat ${demo.seeded.keyFile})" ${base}/api/v1/projects/list`,
    );
  }
  out.write(`${lines.join('\n')}\n`);
}

/** The demo sign-in: the password when this instance knows it, else where to find it (or how to set a new one). */
function demoAccountLine(password: DemoPassword): string {
  if (password.known) return `${DEMO_EMAIL} / ${password.password}   (also in ${password.file})`;
  const where = password.seededBy === undefined ? 'the data folder of the instance that created it' : password.seededBy;
  return `${DEMO_EMAIL}: created by another instance; its password is in ${where} (or set one: siteline accounts set-password --email ${DEMO_EMAIL} --password-stdin)`;
}
