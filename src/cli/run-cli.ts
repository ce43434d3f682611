// The command table of the CLI: a name → a lazily imported module exporting `run(args, io)`.
import type { CliIO } from './cli-io.ts';

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

export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(`usage: siteline <command> [options]\n\ncommands:\n${Object.keys(COMMANDS).map((c) => `  ${c}`).join('\n')}\n\nRun \`siteline <command> --help\` for a command's options.\n`);
    return name ? 0 : 2;
  }
  const load = COMMANDS[name];
  if (!load) {
    io.stderr.write(`siteline: unknown command '${name}'. Run \`siteline --help\`.\n`);
    return 2;
  }
  const command = await load();
  return command.run(rest, io);
}
