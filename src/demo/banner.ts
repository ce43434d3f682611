// What `npm start` prints once it listens: where the API and the dashboard are and, in the embedded default, how to
// sign in, how to call it, and where the sandbox's Bing key is (the dashboard asks for one when connecting Bing).
import { DEMO_EMAIL, type DemoPassword } from './seed-demo.ts';
import type { RunningServer } from '../server.ts';

export function printBanner(out: { write(chunk: string): unknown }, running: RunningServer): void {
  const base = running.url.replace(/\/+$/, '');
  const demo = running.runtime.demo;
  const metrics = running.metricsUrl ? `${running.metricsUrl.replace(/\/+$/, '')}/metrics` : running.runtime.metrics ? `${base}/metrics` : 'off';
  const row = (label: string, value: string) => `  ${label.padEnd(10)}${value}`;
  const lines = [
    `Siteline listening on ${base}`,
    row('REST', `${base}/api/v1   (docs: ${base}/api/v1/docs, OpenAPI: ${base}/api/v1/openapi.json)`),
    row('MCP', `${base}/api/mcp`),
    row('GraphQL', `${base}/api/graphql`),
    row('dashboard', `${base}/dashboard   (projects, data sources, funnels; API keys at ${base}/account)`),
    row('metrics', metrics),
  ];
  if (running.runtime.setupCode) lines.push('', `First run: open ${base}/setup and enter the setup code ${running.runtime.setupCode} to create the owner account.`);
  if (demo) {
    lines.push(
      '',
      `Demo mode: providers are the sandbox at ${demo.sandboxUrl} (switches: ${demo.sandboxUrl}/__sandbox/faults)`,
      `  demo account  ${demoAccountLine(demo.seeded.password)}`,
      `                sign in at ${base}/dashboard`,
      `  demo API key  ${demo.seeded.apiKey}   (also in ${demo.seeded.keyFile})`,
      `  Bing key      ${demo.bingKeyFile}   (the sandbox's; paste it under Data sources → Bing; Connect Google opens the sandbox's consent page)`,
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
