// `siteline sandbox`: serves the provider sandbox on a port until SIGINT/SIGTERM and prints where its credentials are.
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import type { CliIO } from '../cli-io.ts';

export const summary = 'Run the local stand-ins for analytics, engine1, engine2 and the token endpoint.';

const HELP = `usage: siteline sandbox [--port 4010] [--host 127.0.0.1] [--credentials-dir ./data/sandbox-credentials]

${summary}
Everything is served at the root: /v1beta/..., /v1alpha/..., /webmasters/v3/..., /v1/urlInspection/...,
/webmaster/api.svc/json/..., /token, and the control API under /__sandbox/ (faults, stats).

options:
  --port <n>               port to listen on (default: SANDBOX_PORT or 4010; 0 picks a free one)
  --host <addr>            address to bind (default: 127.0.0.1)
  --credentials-dir <dir>  where credentials are read from / written to (default: SANDBOX_CREDENTIALS_DIR or ./data/sandbox-credentials)
  -h, --help               show this help

Fault switches can be preset with SANDBOX_* environment variables (see the README).
`;

export async function run(args: string[], io: CliIO): Promise<number> {
  let values: { port?: string; host?: string; 'credentials-dir'?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: { port: { type: 'string' }, host: { type: 'string' }, 'credentials-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (error) {
    io.stderr.write(`siteline sandbox: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const portText = values.port ?? io.env.SANDBOX_PORT ?? '4010';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    io.stderr.write(`siteline sandbox: --port must be an integer between 0 and 65535, got "${portText}"\n`);
    return 2;
  }
  const { createSandbox, DEFAULT_CREDENTIALS_DIR } = await import('../../sandbox/sandbox.ts');
  const credentialsDir = resolve(values['credentials-dir'] ?? io.env.SANDBOX_CREDENTIALS_DIR ?? DEFAULT_CREDENTIALS_DIR);
  let sandbox;
  try {
    sandbox = await createSandbox({ credentialsDir, env: io.env });
  } catch (error) {
    io.stderr.write(`siteline sandbox: ${(error as Error).message}\n`);
    return 1;
  }
  let server;
  try {
    server = await sandbox.listen({ port, host: values.host ?? '127.0.0.1' });
  } catch (error) {
    io.stderr.write(`siteline sandbox: cannot listen on ${values.host ?? '127.0.0.1'}:${port}: ${(error as Error).message}\n`);
    return 1;
  }
  io.stdout.write(`sandbox listening on ${server.url}\ncredentials in ${credentialsDir}\n`);
  for (const site of sandbox.catalogue) {
    io.stdout.write(`  ${site.key.padEnd(20)} ${site.size.padEnd(7)} analytics properties/${site.analytics.propertyId}  engine1 ${site.engine1.siteUrl}  engine2 ${site.engine2.siteUrl}\n`);
  }
  await new Promise<void>((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await server.close();
  io.stdout.write('sandbox stopped\n');
  return 0;
}
