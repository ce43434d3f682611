// `siteline schema print [--write]`: prints the public GraphQL SDL, or writes it to schema/schema.graphql and the full
// schema (internal root fields of the stored operations included) to schema/internal.graphql.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { CliIO } from '../cli-io.ts';
import { SCHEMA_DIR } from '../../operations/registry.ts';

export const summary = 'Print the GraphQL schema (SDL); --write updates schema/schema.graphql and schema/internal.graphql.';

export async function run(args: string[], io: CliIO): Promise<number> {
  const { positionals, values } = parseArgs({ args, allowPositionals: true, options: { write: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help || positionals[0] !== 'print') {
    io.stdout.write('usage: siteline schema print [--write]\n');
    return values.help ? 0 : 2;
  }
  const { printInternalSdl, printSdl } = await import('../../graphql/schema.ts');
  const sdl = printSdl();
  if (!values.write) {
    io.stdout.write(sdl);
    return 0;
  }
  for (const [name, text] of [['schema.graphql', sdl], ['internal.graphql', printInternalSdl()]] as const) {
    const file = join(SCHEMA_DIR, name);
    await writeFile(file, text);
    io.stdout.write(`wrote ${file}\n`);
  }
  return 0;
}
