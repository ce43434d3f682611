// The command table of the CLI: a name → a lazily imported module exporting `run(args, io)`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CliIO } from './cli-io.ts';
import { wantsJson, writeCliError } from './output.ts';

type CommandModule = { run: (args: string[], io: CliIO) => Promise<number>; summary: string };

const COMMANDS: Record<string, () => Promise<CommandModule>> = {
  serve: () => import('./commands/serve.ts'),
  sandbox: () => import('./commands/sandbox.ts'),
  accounts: () => import('./commands/accounts.ts'),
  keys: () => import('./commands/keys.ts'),
  projects: () => import('./commands/projects.ts'),
  funnels: () => import('./commands/funnels.ts'),
  schema: () => import('./commands/schema.ts'),
};

/** The package's version, read once when asked (`siteline --version`). */
function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string };
  return manifest.version;
}

export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V' || name === 'version') {
    const version = packageVersion();
    io.stdout.write(wantsJson(argv) ? `${JSON.stringify({ version, node: process.versions.node })}\n` : `siteline ${version} (node ${process.versions.node})\n`);
    return 0;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(`usage: siteline <command> [options]\n\ncommands:\n${Object.keys(COMMANDS).map((c) => `  ${c}`).join('\n')}\n\nRun \`siteline <command> --help\` for a command's options.\n`);
    return name ? 0 : 2;
  }
  const load = COMMANDS[name];
  if (!load) {
    return writeCliError(io, argv, { code: 'usage_error', message: `unknown command '${name}'. Run \`siteline --help\`.` }, `siteline: unknown command '${name}'. Run \`siteline --help\`.`);
  }
  const command = await load();
  return command.run(rest, io);
}
