// Shared plumbing of the management commands: argument parsing with usage errors, human tables or `--json`,
// and one error policy (usage → exit 2, expected failures → exit 1, never a stack trace or a secret).
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { SettingsError } from '../config/settings.ts';
import { isAppError } from '../errors/app-error.ts';
import type { CliIO } from './cli-io.ts';

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

export const JSON_OPTION = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const satisfies Options;

/** node:util parseArgs in strict mode; its errors become UsageErrors. */
export function parseCommandArgs<const O extends Options>(args: string[], options: O) {
  try {
    return parseArgs({ args, options: { ...JSON_OPTION, ...options }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

export function requireOption(value: string | undefined, flag: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`${flag} is required`);
  return value;
}

export function requirePositional(positionals: string[], index: number, name: string): string {
  const value = positionals[index];
  if (value === undefined) throw new UsageError(`<${name}> is required`);
  return value;
}

export function writeJson(io: CliIO, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Left-aligned columns; empty cells show as `-`. */
export function writeTable(io: CliIO, rows: readonly object[], columns: ReadonlyArray<readonly [key: string, header: string]>): void {
  if (rows.length === 0) {
    io.stdout.write('(none)\n');
    return;
  }
  const cells = rows.map((row) => columns.map(([key]) => String((row as Record<string, unknown>)[key] ?? '-')));
  const widths = columns.map(([, header], i) => Math.max(header.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (values: string[]) => `${values.map((v, i) => v.padEnd(widths[i] ?? 0)).join('  ').trimEnd()}\n`;
  io.stdout.write(line(columns.map(([, header]) => header.toUpperCase())));
  for (const row of cells) io.stdout.write(line(row));
}

/** Reads all of stdin (the io's own when a test supplies one). */
export async function readStdin(io: CliIO): Promise<string> {
  const stdin = (io as CliIO & { stdin?: AsyncIterable<string | Uint8Array> }).stdin ?? process.stdin;
  let text = '';
  const decoder = new TextDecoder();
  for await (const chunk of stdin) text += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

export interface Subcommand {
  usage: string;
  run(args: string[], io: CliIO): Promise<number>;
}

/** Dispatches `siteline <command> <sub> ...` and applies the error policy. */
export async function runSubcommands(command: string, table: Record<string, Subcommand>, args: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = args;
  const overview = `usage:\n${Object.values(table).map((s) => `  siteline ${command} ${s.usage}`).join('\n')}\n`;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? io.stderr : io.stdout).write(overview);
    return name === undefined ? 2 : 0;
  }
  const sub = table[name];
  if (!sub) {
    return writeCliError(io, args, { code: 'usage_error', message: `unknown subcommand '${name}'` }, `siteline ${command}: unknown subcommand '${name}'\n${overview.trimEnd()}`);
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(`usage: siteline ${command} ${sub.usage}\n`);
    return 0;
  }
  try {
    return await sub.run(rest, io);
  } catch (error) {
    return reportError(io, args, error, { usage: `usage: siteline ${command} ${sub.usage}`, prefix: `siteline ${command} ${name}` });
  }
}

/** True when the command line asks for JSON output (`--json` before any `--`). */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json');
}

/** What a failed command reports with `--json`: a machine-readable code, the message, and details when known. */
export interface CliErrorBody {
  code: string;
  message: string;
  param?: string;
  problems?: string[];
}

/** Writes an error to stderr — `{"error": {...}}` with `--json`, else `human` — and returns the exit status. */
export function writeCliError(io: CliIO, argv: readonly string[], body: CliErrorBody, human: string, status = 2): number {
  io.stderr.write(wantsJson(argv) ? `${JSON.stringify({ error: body })}\n` : `${human}\n`);
  return status;
}

/** The error policy: usage → exit 2, bad settings → exit 2, expected failures → exit 1; never a stack trace. */
function reportError(io: CliIO, argv: readonly string[], error: unknown, context: { usage: string; prefix: string }): number {
  if (error instanceof UsageError) return writeCliError(io, argv, { code: 'usage_error', message: error.message }, `${context.prefix}: ${error.message}\n${context.usage}`);
  if (error instanceof SettingsError) return writeCliError(io, argv, { code: 'invalid_configuration', message: 'Invalid configuration', problems: error.problems }, error.message);
  if (isAppError(error)) {
    const body: CliErrorBody = { code: error.code, message: error.message, ...(error.param === undefined ? {} : { param: error.param }) };
    return writeCliError(io, argv, body, `error: ${error.message}`, 1);
  }
  const message = error instanceof Error ? error.message : String(error);
  return writeCliError(io, argv, { code: 'error', message }, `error: ${message}`, 1);
}
