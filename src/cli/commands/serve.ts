// `siteline serve`: the same as `npm start` (settings from the environment).
import type { CliIO } from '../cli-io.ts';
import { runService } from '../../run-service.ts';

export const summary = 'Start the API (settings from environment variables; see the README).';

export async function run(args: string[], io: CliIO): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write('usage: siteline serve\n\nStarts the API. Configuration comes from environment variables (PORT, HOST, DATABASE_URL, REDIS_URL, ...).\n');
    return 0;
  }
  const code = await runService(io.env, io.stdout, io.stderr);
  if (code !== undefined) return code;
  // Keep the command pending; signals end the process.
  return new Promise<number>(() => undefined);
}
