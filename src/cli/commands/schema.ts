// `siteline schema print [--write]`: prints the GraphQL SDL, or writes it to schema/schema.graphql.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { CliIO } from '../cli-io.ts';
import { SCHEMA_DIR } from '../../operations/registry.ts';

export const summary = 'Print the GraphQL schema (SDL); --write updates schema/schema.graphql.';

export async function run(args: string[], io: CliIO): Promise<number> {
  const { positionals, values } = parseArgs({ args, allowPositionals: true, options: { write: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help || positionals[0] !== 'print') {
    io.stdout.write('usage: siteline schema print [--write]\n');
    return values.help ? 0 : 2;
  }
  const { printSdl } = await import('../../graphql/schema.ts');
  const sdl = printSdl();
  if (!values.write) {
    io.stdout.write(sdl);
    return 0;
  }
  const file = join(SCHEMA_DIR, 'schema.graphql');
  await writeFile(file, sdl);
  io.stdout.write(`wrote ${file}\n`);
  return 0;
}
